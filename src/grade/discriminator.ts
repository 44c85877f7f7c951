/**
 * Discriminator battery: the same cases with the skill (skill mode) and without it (baseline). Pass rates per
 * mode, overall and over discriminator assertions, with Wilson intervals; lifts; and a class per assertion.
 */
import type { CheckResult } from "../model/check.js";
import type { AssertionClass, AssertionResult, DiscriminatorSummary, ModeSummary } from "../model/report.js";
import { TRIAL_OK } from "./grade-trial.js";
import { rate } from "./stats.js";

type Mode = "skill" | "baseline";

/**
 * A check that says something about the assertion. Left out: a skip because its condition was false, a check
 * that could not be evaluated (`error`), and every check of a trial that errored (the agent gave no answer to
 * grade: errors are counted as errors, never as failed or passed assertions).
 */
function countsIn(checks: CheckResult[]): (c: CheckResult) => boolean {
  const erroredTrials = new Set(
    checks
      // Contaminated trials (trial-ok `fail`) too: a baseline that read the skill measures nothing.
      .filter((c) => c.assertionId === TRIAL_OK && c.status !== "pass")
      .map((c) => `${c.mode}\u0000${c.caseId}\u0000${c.trial}`),
  );
  return (c) =>
    !(c.status === "skipped" && c.skipReason === "condition false") &&
    c.status !== "error" &&
    !erroredTrials.has(`${c.mode}\u0000${c.caseId}\u0000${c.trial}`);
}

function modeSummary(checks: CheckResult[]): ModeSummary {
  const counts = countsIn(checks);
  const trialOks = checks.filter((c) => c.assertionId === TRIAL_OK);
  const trialKeys = new Set(checks.map((c) => `${c.caseId}\u0000${c.trial}`));
  const assertions = checks.filter((c) => c.assertionId !== TRIAL_OK && counts(c));
  const disc = assertions.filter((c) => c.discriminator);
  const passed = (xs: CheckResult[]) => xs.filter((c) => c.status === "pass").length;
  return {
    trials: trialOks.length > 0 ? trialOks.length : trialKeys.size,
    errors: trialOks.filter((c) => c.status !== "pass").length,
    passRate: rate(passed(assertions), assertions.length),
    discriminatorPassRate: rate(passed(disc), disc.length),
  };
}

/** Classes an assertion by its outcomes per mode: mixed within a mode is flaky, whatever the other mode did. */
export function classify(
  skill: { passed: number; total: number },
  baseline?: { passed: number; total: number },
): AssertionClass {
  const mixed = (r?: { passed: number; total: number }) => !!r && r.passed > 0 && r.passed < r.total;
  if (mixed(skill) || mixed(baseline)) return "flaky";
  const skillPasses = skill.total > 0 && skill.passed === skill.total;
  if (!baseline || baseline.total === 0) return skillPasses ? "non-discriminating" : "broken";
  const baselinePasses = baseline.passed === baseline.total;
  if (skillPasses) return baselinePasses ? "non-discriminating" : "discriminating";
  return baselinePasses ? "skill-hurts" : "broken";
}

export function summariseDiscriminator(checks: CheckResult[]): DiscriminatorSummary {
  const counts = countsIn(checks);
  const byMode: Record<Mode, CheckResult[]> = { skill: [], baseline: [] };
  for (const c of checks) if (c.mode === "skill" || c.mode === "baseline") byMode[c.mode].push(c);
  const skill = modeSummary(byMode.skill);
  const baseline = modeSummary(byMode.baseline);

  const groups = new Map<string, { skill: CheckResult[]; baseline: CheckResult[] }>();
  for (const mode of ["skill", "baseline"] as const) {
    for (const c of byMode[mode]) {
      if (c.assertionId === TRIAL_OK) continue;
      let g = groups.get(c.checkId);
      if (!g) {
        g = { skill: [], baseline: [] };
        groups.set(c.checkId, g);
      }
      g[mode].push(c);
    }
  }

  const assertions: AssertionResult[] = [];
  for (const [checkId, g] of groups) {
    const first = g.skill[0] ?? g.baseline[0]!;
    const tally = (xs: CheckResult[]) => {
      const counted = xs.filter(counts);
      return rate(counted.filter((c) => c.status === "pass").length, counted.length);
    };
    const s = tally(g.skill);
    const b = g.baseline.length > 0 ? tally(g.baseline) : undefined;
    const failure = [...g.skill, ...g.baseline].find((c) => c.status === "fail" || c.status === "error");
    assertions.push({
      id: first.assertionId,
      caseId: first.caseId,
      checkId,
      discriminator: first.discriminator,
      class: classify(s, b),
      skill: s,
      ...(b ? { baseline: b } : {}),
      file: first.loc.file,
      line: first.loc.line,
      ...(failure ? { sampleFailure: `${failure.mode} trial ${failure.trial}: ${failure.message}` } : {}),
    });
  }
  assertions.sort(
    (x, y) => x.file.localeCompare(y.file) || x.line - y.line || x.checkId.localeCompare(y.checkId),
  );

  // With no evaluated trial in a mode (all errored) its rate is empty, and a difference would be invented.
  const measuredLift = skill.passRate.total > 0 && baseline.passRate.total > 0;
  const lift = measuredLift ? skill.passRate.rate - baseline.passRate.rate : 0;
  const measuredDisc = skill.discriminatorPassRate.total > 0 && baseline.discriminatorPassRate.total > 0;
  const discriminatorLift = measuredDisc
    ? skill.discriminatorPassRate.rate - baseline.discriminatorPassRate.rate
    : 0;
  const warnings: string[] = [];
  if (!measuredDisc) {
    warnings.push(
      skill.discriminatorPassRate.total === 0 && baseline.discriminatorPassRate.total === 0
        ? "no discriminator assertions: discriminator lift not measured"
        : "discriminator assertions were not evaluated in both modes: discriminator lift not measured",
    );
  }
  if (byMode.baseline.length === 0) {
    warnings.push("no baseline trials: lift and assertion classes not measured");
  } else if (!measuredLift) {
    warnings.push("no evaluated trial in one of the modes (all errored?): lift not measured");
  }
  const styleGuideNotGuardrail = measuredDisc && measuredLift && lift > 0 && discriminatorLift <= 0;
  if (styleGuideNotGuardrail) {
    warnings.push(
      `style guide, not a guardrail: overall lift ${signed(lift)} but discriminator lift ${signed(discriminatorLift)}`,
    );
  }
  return {
    skill,
    baseline,
    lift,
    discriminatorLift,
    styleGuideNotGuardrail,
    assertions,
    ...(warnings.length > 0 ? { warnings } : {}),
  };
}

function signed(x: number): string {
  return `${x >= 0 ? "+" : ""}${x.toFixed(2)}`;
}
