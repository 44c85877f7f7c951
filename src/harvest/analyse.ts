/**
 * What harvest reads from one case's trials: the answers under each feature, clustered, and which of them are
 * wrong. Pure over records and the checks the suite's own assertions gave them.
 *
 * An answer is wrong when (a) every trial giving it failed a check of the case that some other trial passed
 * (a check failing everywhere says nothing) and no passing trial gave it, or (b) skill trials ran, the baseline
 * gives it in at least `minShare` of its trials and the skill in at most `MAX_SKILL_SHARE` of its own; and in
 * either case no skill trial gave it and no trial giving it passed an outcome check of the case that tells answers
 * apart (passed somewhere, failed elsewhere).
 */
import { extract, findJson } from "../grade/extract.js";
import type { AnswerCluster, CheckResult, HarvestExample, TrialRecord } from "../model/index.js";
import { canonicalJson } from "../plan/keys.js";

/** The skill may give a wrong answer this rarely (it is still told from the baseline's habit). */
export const MAX_SKILL_SHARE = 0.1;
/** Output characters an example keeps. */
const EXAMPLE_CHARS = 400;
/** The `Skill` call is activation, which `skill-used` checks; process traps are about the task's tools. */
const ACTIVATION_TOOLS = new Set(["Skill"]);

export const EXTRACTORS = ["first-number", "last-line", "json"] as const;

export interface HarvestTrial {
  record: TrialRecord;
  checks: CheckResult[];
  /** Failed a check of its case that another trial passed. */
  failed: boolean;
}

/** One answer of one trial under one feature: its normalised key and its value as a suite would write it. */
export interface Answer {
  key: string;
  value: unknown;
}

export function exampleOf(t: TrialRecord): HarvestExample {
  const out = t.output.length > EXAMPLE_CHARS ? `${t.output.slice(0, EXAMPLE_CHARS)}…` : t.output;
  return { mode: t.mode, trial: t.trial, output: out, tools: t.toolCalls.map((c) => c.name) };
}

export function taskTools(t: TrialRecord): string[] {
  return t.toolCalls.map((c) => c.name).filter((n) => !ACTIVATION_TOOLS.has(n));
}

function normalise(v: unknown): string {
  return typeof v === "string" ? v.trim().replace(/\s+/g, " ") : canonicalJson(v);
}

/** The features of one trial: each extractor, `json:<key>` of a top-level JSON object, tools and files. */
function answersOf(t: TrialRecord): Map<string, Answer> {
  const out = new Map<string, Answer>();
  for (const e of EXTRACTORS) {
    const got = extract(e, t.output);
    if (got.ok) out.set(e, { key: normalise(got.value), value: got.value });
  }
  const doc = findJson(t.output);
  if (doc.ok && doc.value && typeof doc.value === "object" && !Array.isArray(doc.value))
    for (const [k, v] of Object.entries(doc.value))
      if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(k) && (typeof v !== "object" || v === null))
        out.set(`json:${k}`, { key: normalise(v), value: v });
  const tools = taskTools(t);
  out.set("tools", { key: tools.join(" → ") || "(none)", value: tools });
  const files = Object.keys(t.files).sort();
  out.set("files", { key: files.join(", ") || "(none)", value: files });
  return out;
}

/** Marks each trial failed when a check of its case failed there and passed in another trial. */
export function markFailures(trials: { record: TrialRecord; checks: CheckResult[] }[]): HarvestTrial[] {
  const passedSomewhere = new Set(
    trials.flatMap((t) => t.checks.filter((c) => c.status === "pass").map((c) => c.assertionId)),
  );
  return trials.map((t) => ({
    ...t,
    failed: t.checks.some(
      (c) => (c.status === "fail" || c.status === "error") && passedSomewhere.has(c.assertionId),
    ),
  }));
}

export interface FeatureCluster extends AnswerCluster {
  /** The value as a suite writes it (first trial's). */
  raw: unknown;
}

/**
 * Clusters of one feature over the trials, most frequent first, each judged wrong or not. `minShare` is the
 * baseline share that makes an answer a habit worth a discriminator.
 */
export function clusterFeature(feature: string, trials: HarvestTrial[], minShare: number): FeatureCluster[] {
  const groups = new Map<string, { raw: unknown; ts: HarvestTrial[] }>();
  for (const t of trials) {
    const a = answersOf(t.record).get(feature);
    if (!a) continue;
    const g = groups.get(a.key) ?? { raw: a.value, ts: [] };
    g.ts.push(t);
    groups.set(a.key, g);
  }
  const baselineN = trials.filter((t) => t.record.mode === "baseline").length;
  const skillN = trials.filter((t) => t.record.mode === "skill").length;
  const telling = tellingChecks(trials);
  const out: FeatureCluster[] = [];
  for (const [key, g] of groups) {
    const baseline = g.ts.filter((t) => t.record.mode === "baseline").length;
    const skill = g.ts.filter((t) => t.record.mode === "skill").length;
    const byFailure = g.ts.every((t) => t.failed) && trials.some((t) => !t.failed);
    const byContrast =
      skillN > 0 && baselineN > 0 && baseline / baselineN >= minShare && skill / skillN <= MAX_SKILL_SHARE;
    out.push({
      feature,
      value: key,
      raw: g.raw,
      baseline,
      skill,
      // Never an answer the skill gives, nor one a check of the suite accepted: forbidding it would turn the
      // suite against itself (the baseline may word the right answer differently from the skill).
      wrong: (byFailure || byContrast) && skill === 0 && !acceptedBySuite(g.ts, telling),
      example: exampleOf((g.ts.find((t) => t.record.mode === "baseline") ?? g.ts[0]!).record),
    });
  }
  return out.sort((a, b) => b.baseline + b.skill - (a.baseline + a.skill) || a.value.localeCompare(b.value));
}

/**
 * Outcome checks (on the answer, not the process) that tell the case's answers apart: passed in some trial and
 * failed in another. A check passing everywhere (`regex: .`) vouches for no answer in particular.
 */
function tellingChecks(trials: HarvestTrial[]): Set<string> {
  const seen = (status: string) =>
    new Set(
      trials.flatMap((t) =>
        t.checks
          .filter((c) => c.status === status && (c.level ?? "outcome") === "outcome")
          .map((c) => c.assertionId),
      ),
    );
  const failed = seen("fail");
  return new Set([...seen("pass")].filter((id) => failed.has(id)));
}

/** Some trial giving the answer passed a check of the suite that tells answers apart: the suite accepts it. */
function acceptedBySuite(trials: HarvestTrial[], telling: Set<string>): boolean {
  return trials.some((t) => t.checks.some((c) => c.status === "pass" && telling.has(c.assertionId)));
}

/** Features seen in any trial: the extractors first, then `json:<key>`, tools and files. */
export function featuresOf(trials: HarvestTrial[]): string[] {
  const seen = new Set<string>();
  for (const t of trials) for (const f of answersOf(t.record).keys()) seen.add(f);
  const rank = (f: string) => (f === "tools" ? 2 : f === "files" ? 3 : f.startsWith("json:") ? 1 : 0);
  return [...seen].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
}
