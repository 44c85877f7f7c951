/**
 * Discriminator battery: the same cases with the skill (skill mode) and without it (baseline). Pass rates per
 * mode, overall and over discriminator assertions, each case one vote (`unit-rates.ts`); lifts per case; and a
 * class per assertion (its own trials, with a Wilson interval).
 */
import type { CheckResult } from "../model/check.js";
import type {
  AssertionClass,
  AssertionResult,
  CaseCounts,
  DiscriminatorSummary,
  ModeSummary,
} from "../model/report.js";
import { TRIAL_OK } from "./grade-trial.js";
import { rate } from "./stats.js";
import { type FigureUnits, type UnitCount, unitRate } from "./unit-rates.js";

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

/**
 * Each case's rate in one mode, over its trials: a trial counts once, with the share of its counted checks (of its
 * discriminator checks) that passed, as assertions of one answer stand or fall together and only trials are
 * independent. `passed` is the sum of those shares, `total` the trials with such a check.
 */
function caseCounts(checks: CheckResult[]): CaseCounts[] {
  const counts = countsIn(checks);
  const byTrial = new Map<string, { caseId: string; all: number[]; disc: number[] }>();
  for (const c of checks) {
    if (c.assertionId === TRIAL_OK || !counts(c)) continue;
    const key = `${c.caseId}\u0000${c.trial}`;
    let t = byTrial.get(key);
    if (!t) {
      t = { caseId: c.caseId, all: [0, 0], disc: [0, 0] };
      byTrial.set(key, t);
    }
    const pass = c.status === "pass" ? 1 : 0;
    t.all[0]! += pass;
    t.all[1]!++;
    if (c.discriminator) {
      t.disc[0]! += pass;
      t.disc[1]!++;
    }
  }
  const byCase = new Map<string, CaseCounts>();
  for (const t of byTrial.values()) {
    let k = byCase.get(t.caseId);
    if (!k) {
      k = { caseId: t.caseId, all: { passed: 0, total: 0 }, discriminator: { passed: 0, total: 0 } };
      byCase.set(t.caseId, k);
    }
    k.all.passed += t.all[0]! / t.all[1]!;
    k.all.total++;
    if (t.disc[1]! > 0) {
      k.discriminator.passed += t.disc[0]! / t.disc[1]!;
      k.discriminator.total++;
    }
  }
  return [...byCase.values()].sort((a, b) => (a.caseId < b.caseId ? -1 : a.caseId > b.caseId ? 1 : 0));
}

/** The units of one figure: each case's counts of `which` checks. */
const unitsOf = (cases: CaseCounts[], which: "all" | "discriminator"): UnitCount[] =>
  cases.map((c) => ({ id: c.caseId, ...c[which] }));

function modeSummary(checks: CheckResult[], cases: CaseCounts[]): ModeSummary {
  const trialOks = checks.filter((c) => c.assertionId === TRIAL_OK);
  const trialKeys = new Set(checks.map((c) => `${c.caseId}\u0000${c.trial}`));
  return {
    trials: trialOks.length > 0 ? trialOks.length : trialKeys.size,
    errors: trialOks.filter((c) => c.status !== "pass").length,
    passRate: unitRate({ kind: "mean", unit: "case", units: unitsOf(cases, "all") }),
    discriminatorPassRate: unitRate({ kind: "mean", unit: "case", units: unitsOf(cases, "discriminator") }),
  };
}

/** The units behind a discriminator summary's figures, for a threshold judged on them. */
export function discriminatorUnits(
  d: Pick<DiscriminatorSummary, "cases">,
  figure: "discriminatorPassRate" | "discriminatorLift",
): FigureUnits {
  const skill = unitsOf(d.cases.skill, "discriminator");
  return figure === "discriminatorPassRate"
    ? { kind: "mean", unit: "case", units: skill }
    : { kind: "lift", skill, baseline: unitsOf(d.cases.baseline, "discriminator") };
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
  const cases = { skill: caseCounts(byMode.skill), baseline: caseCounts(byMode.baseline) };
  const skill = modeSummary(byMode.skill, cases.skill);
  const baseline = modeSummary(byMode.baseline, cases.baseline);

  const assertions = assertionResults(byMode, counts);

  // With no evaluated trial in a mode (all errored) its rate is empty, and a difference would be invented.
  // Lifts pair each case with itself: a case measured in one mode only says nothing of the difference.
  const liftOf = (which: "all" | "discriminator") =>
    unitRate({
      kind: "lift",
      skill: unitsOf(cases.skill, which),
      baseline: unitsOf(cases.baseline, which),
    });
  const overall = liftOf("all");
  const disc = liftOf("discriminator");
  const measuredLift = overall.measured;
  const measuredDisc = disc.measured;
  const lift = measuredLift ? overall.rate : 0;
  const discriminatorLift = measuredDisc ? disc.rate : 0;
  const styleGuideNotGuardrail = measuredDisc && measuredLift && lift > 0 && discriminatorLift <= 0;
  const warnings = discriminatorWarnings({
    measuredDisc,
    measuredLift,
    styleGuideNotGuardrail,
    noDiscriminators: skill.discriminatorPassRate.units === 0 && baseline.discriminatorPassRate.units === 0,
    noBaseline: byMode.baseline.length === 0,
    lift,
    discriminatorLift,
  });
  return {
    skill,
    baseline,
    lift,
    discriminatorLift,
    ...(measuredDisc ? { discriminatorLiftRate: disc } : {}),
    styleGuideNotGuardrail,
    assertions,
    cases,
    ...(warnings.length > 0 ? { warnings } : {}),
  };
}

/** Each assertion's pass rate in each mode, its class, and a failure to show. */
function assertionResults(
  byMode: Record<Mode, CheckResult[]>,
  counts: (c: CheckResult) => boolean,
): AssertionResult[] {
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

  return assertions;
}

function discriminatorWarnings(f: {
  measuredDisc: boolean;
  measuredLift: boolean;
  styleGuideNotGuardrail: boolean;
  noDiscriminators: boolean;
  noBaseline: boolean;
  lift: number;
  discriminatorLift: number;
}): string[] {
  const warnings: string[] = [];
  if (!f.measuredDisc) {
    warnings.push(
      f.noDiscriminators
        ? "no discriminator assertions: discriminator lift not measured"
        : "discriminator assertions were not evaluated in both modes: discriminator lift not measured",
    );
  }
  if (f.noBaseline) {
    warnings.push("no baseline trials: lift and assertion classes not measured");
  } else if (!f.measuredLift) {
    warnings.push("no evaluated trial in one of the modes (all errored?): lift not measured");
  }
  if (f.styleGuideNotGuardrail) {
    warnings.push(
      `style guide, not a guardrail: overall lift ${signed(f.lift)} but discriminator lift ${signed(f.discriminatorLift)}`,
    );
  }
  return warnings;
}

function signed(x: number): string {
  return `${x >= 0 ? "+" : ""}${x.toFixed(2)}`;
}
