/**
 * Discriminators from harvested answers: a `not-one-of` over the wrong answers of the feature that separates
 * best, `tool-not-called` / `tool-called` / `tool-order` for a process trap, and marking an existing check (a
 * gate on a failed invariant …) a discriminator when the baseline fails it and the skill passes it. Every
 * proposal is measured by grading it, with the real evaluator, on the trials that ran.
 */

import { levelOf } from "../grade/assertions/registry.js";
import { gradeTrial } from "../grade/grade-trial.js";
import { rate } from "../grade/stats.js";
import type {
  Assertion,
  Case,
  CheckLevel,
  CheckResult,
  HarvestProposal,
  ProposalKind,
  Suite,
} from "../model/index.js";
import {
  clusterFeature,
  EXTRACTORS,
  exampleOf,
  type FeatureCluster,
  type HarvestTrial,
  MAX_SKILL_SHARE,
  taskTools,
} from "./analyse.js";

export interface ProposeOptions {
  minBaselineFailure: number;
  minSkillPass: number;
  minShare: number;
  gateSeed: number;
  repoDir: string;
}

interface Candidate {
  kind: ProposalKind;
  assertion: Record<string, unknown>;
  rationale: string;
  /** Order among equally good output candidates: sturdier extractors first. */
  rank: number;
  /** A trial that gave the wrong answer. */
  example?: HarvestProposal["example"];
}

/** Output candidates: per extractor feature, `not-one-of` the answers judged wrong. */
function outputCandidates(trials: HarvestTrial[], features: string[], minShare: number): Candidate[] {
  const out: Candidate[] = [];
  for (const feature of features) {
    if (!(EXTRACTORS as readonly string[]).includes(feature) && !feature.startsWith("json:")) continue;
    const wrong = clusterFeature(feature, trials, minShare).filter((c) => c.wrong);
    if (wrong.length === 0) continue;
    out.push({
      kind: "not-one-of",
      assertion: {
        id: `D:not-${slug(wrong[0]!.value)}`,
        type: "not-one-of",
        extract: feature,
        values: wrong.map((c) => c.raw),
      },
      rationale: `${feature}: ${wrong.map((c) => `${show(c)} (baseline ${c.baseline}, skill ${c.skill})`).join("; ")}`,
      rank: feature.startsWith("json:") ? 0 : feature === "json" ? 1 : feature === "first-number" ? 2 : 3,
      example: wrong[0]!.example,
    });
  }
  return out;
}

function show(c: FeatureCluster): string {
  return JSON.stringify(c.value.length > 80 ? `${c.value.slice(0, 80)}…` : c.value);
}

/** Process candidates: a tool the baseline calls and the skill does not, one it skips, an order it breaks. */
function processCandidates(trials: HarvestTrial[], minShare: number): Candidate[] {
  const base = trials.filter((t) => t.record.mode === "baseline");
  const skill = trials.filter((t) => t.record.mode === "skill");
  const share = (ts: HarvestTrial[], f: (t: HarvestTrial) => boolean) =>
    ts.length ? ts.filter(f).length / ts.length : 0;
  const calls = (name: string) => (t: HarvestTrial) => taskTools(t.record).includes(name);
  const names = [...new Set(trials.flatMap((t) => taskTools(t.record)))].sort();
  const out: Candidate[] = [];
  for (const name of names) {
    const failing = trials.filter(calls(name));
    const byFailure = failing.every((t) => t.failed) && trials.some((t) => !t.failed && !calls(name)(t));
    const byContrast =
      skill.length > 0 &&
      share(base, calls(name)) >= minShare &&
      share(skill, calls(name)) <= MAX_SKILL_SHARE;
    if (byFailure || byContrast)
      out.push({
        kind: "tool-not-called",
        assertion: { id: `D:no-${slug(name)}`, type: "tool-not-called", tool: name },
        rationale: `${name} called in ${failing.filter((t) => t.record.mode === "baseline").length}/${base.length} baseline and ${failing.filter((t) => t.record.mode === "skill").length}/${skill.length} skill trial(s)`,
        rank: 0,
      });
    else if (
      skill.length > 0 &&
      share(skill, calls(name)) >= 1 - MAX_SKILL_SHARE &&
      share(base, (t) => !calls(name)(t)) >= minShare
    )
      out.push({
        kind: "tool-called",
        assertion: { id: `D:calls-${slug(name)}`, type: "tool-called", tool: name },
        rationale: `${name} skipped in ${base.filter((t) => !calls(name)(t)).length}/${base.length} baseline trial(s), called in ${skill.filter(calls(name)).length}/${skill.length} skill trial(s)`,
        rank: 0,
      });
  }
  for (const a of names)
    for (const b of names) {
      if (a === b) continue;
      const before = (t: HarvestTrial) => {
        const tools = taskTools(t.record);
        const i = tools.indexOf(a);
        const j = tools.indexOf(b);
        return i >= 0 && j >= 0 ? i < j : undefined;
      };
      const skillBoth = skill.filter((t) => before(t) !== undefined);
      const baseBoth = base.filter((t) => before(t) !== undefined);
      if (skillBoth.length === 0 || baseBoth.length === 0 || !skillBoth.every((t) => before(t) === true))
        continue;
      const reversed = baseBoth.filter((t) => before(t) === false).length;
      if (reversed / base.length < minShare) continue;
      out.push({
        kind: "tool-order",
        assertion: { id: `D:${slug(a)}-before-${slug(b)}`, type: "tool-order", values: [a, b] },
        rationale: `${b} before ${a} in ${reversed}/${base.length} baseline trial(s); ${a} first in every skill trial calling both`,
        rank: 0,
      });
    }
  return out;
}

function slug(s: string): string {
  return (
    s
      .toLowerCase()
      .replace(/[^a-z0-9#]+/g, "-")
      .replace(/^-+|-+$/g, "")
      .slice(0, 32)
      .replace(/-+$/, "") || "answer"
  );
}

/** The assertion as discovery would normalise it, for grading a proposal. */
function asAssertion(written: Record<string, unknown>, c: Case): Assertion {
  const { id, type, extract, ...params } = written as { id: string; type: string; extract?: string };
  return {
    id,
    rawType: type,
    type,
    negate: false,
    discriminator: true,
    dependsOn: [],
    ...(extract ? { extract } : {}),
    params,
    loc: c.loc,
  };
}

/** Pass/fail of one assertion on every trial, by the real evaluator. */
async function measure(
  written: Record<string, unknown>,
  c: Case,
  suite: Suite,
  trials: HarvestTrial[],
  o: ProposeOptions,
): Promise<{
  baselineFailure: HarvestProposal["baselineFailure"];
  skillPass?: HarvestProposal["skillPass"];
  /** Per trial (in order): the proposal failed there. */
  fails: boolean[];
}> {
  const one: Case = { ...c, assertions: [asAssertion(written, c)] };
  const results = await Promise.all(
    trials.map(async (t) => {
      const checks = await gradeTrial({
        suite,
        caseDef: one,
        trial: t.record,
        vars: {},
        repoDir: o.repoDir,
        gateSeed: o.gateSeed,
      });
      return { mode: t.record.mode, pass: checks.at(-1)!.status === "pass" };
    }),
  );
  return { ...tally(results), fails: results.map((r) => !r.pass) };
}

/**
 * An existing check of the case, at the proposal's level, that already fails wherever the proposal would: the
 * proposal adds nothing. A gate (final-state) does not make an outcome discriminator redundant: the levels are
 * reported apart.
 */
function coveredBy(c: Case, trials: HarvestTrial[], fails: boolean[], level: CheckLevel): string | undefined {
  if (!fails.some(Boolean)) return undefined;
  const status = (t: HarvestTrial, id: string) => t.checks.find((x) => x.assertionId === id)?.status;
  // A check failing everywhere (broken, or the skill fails it too) covers nothing.
  return c.assertions.find(
    (a) =>
      levelOf(a) === level &&
      trials.some((t) => status(t, a.id) === "pass") &&
      trials.every((t, i) => !fails[i] || status(t, a.id) === "fail"),
  )?.id;
}

function tally(results: { mode: string; pass: boolean }[]) {
  const base = results.filter((r) => r.mode === "baseline");
  const skill = results.filter((r) => r.mode === "skill");
  return {
    baselineFailure: rate(base.filter((r) => !r.pass).length, base.length),
    ...(skill.length ? { skillPass: rate(skill.filter((r) => r.pass).length, skill.length) } : {}),
  };
}

/** Existing checks of the case that discriminate but are not marked: marking them is the proposal. */
function markCandidates(c: Case, trials: HarvestTrial[], o: ProposeOptions): HarvestProposal[] {
  const out: HarvestProposal[] = [];
  for (const a of c.assertions) {
    if (a.discriminator) continue;
    const results = trials.flatMap((t) => {
      const check = t.checks.find((x: CheckResult) => x.assertionId === a.id);
      return check && check.status !== "skipped"
        ? [{ mode: t.record.mode, pass: check.status === "pass" }]
        : [];
    });
    const m = tally(results);
    if (!m.skillPass || !keep(m, o)) continue;
    const failing = trials.find(
      (t) =>
        t.record.mode === "baseline" && t.checks.some((x) => x.assertionId === a.id && x.status === "fail"),
    );
    out.push({
      caseId: c.id,
      kind: "mark-discriminator",
      assertion: {
        id: a.id,
        type: a.rawType,
        ...(a.extract ? { extract: a.extract } : {}),
        ...a.params,
        discriminator: true,
      },
      rationale: `${a.id} (${a.rawType}, ${a.loc.file}:${a.loc.line}) fails the baseline and passes the skill: mark it a discriminator`,
      ...m,
      file: a.loc.file,
      ...(failing ? { example: exampleOf(failing.record) } : {}),
    });
  }
  return out;
}

function keep(
  m: Pick<Awaited<ReturnType<typeof measure>>, "baselineFailure" | "skillPass">,
  o: ProposeOptions,
): boolean {
  return (
    m.baselineFailure.total > 0 &&
    m.baselineFailure.rate >= o.minBaselineFailure &&
    (m.skillPass === undefined || m.skillPass.rate >= o.minSkillPass)
  );
}

/** Measured proposals for one case: the best output discriminator, every process trap, checks worth marking. */
export async function proposeForCase(
  c: Case,
  suite: Suite,
  trials: HarvestTrial[],
  features: string[],
  file: string,
  o: ProposeOptions,
): Promise<{ proposals: HarvestProposal[]; notes: string[] }> {
  const existing = new Set(c.assertions.map((a) => a.id));
  const notes: string[] = [];
  const measured: (HarvestProposal & { rank: number; score: number })[] = [];
  for (const cand of [
    ...outputCandidates(trials, features, o.minShare),
    ...processCandidates(trials, o.minShare),
  ]) {
    let id = String(cand.assertion.id);
    for (let n = 2; existing.has(id); n++) id = `${cand.assertion.id}-${n}`;
    const assertion = { ...cand.assertion, id };
    const { fails, ...m } = await measure(assertion, c, suite, trials, o);
    if (!keep(m, o)) continue;
    const covered = coveredBy(c, trials, fails, cand.kind === "not-one-of" ? "outcome" : "process");
    if (covered) {
      notes.push(
        `${cand.kind} ${cand.rationale}: already caught by ${covered} (it fails in every trial this would)`,
      );
      continue;
    }
    const failing = trials.find((t) => t.record.mode === "baseline");
    const example = cand.example ?? (failing ? exampleOf(failing.record) : undefined);
    measured.push({
      caseId: c.id,
      kind: cand.kind,
      assertion,
      rationale: cand.rationale,
      ...m,
      file,
      ...(example ? { example } : {}),
      rank: cand.rank,
      score: m.baselineFailure.rate * (m.skillPass?.rate ?? 1),
    });
  }
  const outputs = measured
    .filter((p) => p.kind === "not-one-of")
    .sort((a, b) => b.score - a.score || a.rank - b.rank);
  const chosen = [...outputs.slice(0, 1), ...measured.filter((p) => p.kind !== "not-one-of")];
  return {
    proposals: [...chosen.map(({ rank: _rank, score: _score, ...p }) => p), ...markCandidates(c, trials, o)],
    notes,
  };
}
