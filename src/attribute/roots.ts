import {
  type CheckLevel,
  type CheckResult,
  CONDITION_FALSE,
  type SourceLocation,
  type TrialMode,
} from "../model/index.js";

/**
 * Root attribution: inside one trial, checks form a dependency graph (explicit `depends_on` plus the implicit
 * edges below). A failed check (status `fail` or `error`) is a **root** when no failed check is among its
 * ancestors; every other failed check, and every check skipped because a dependency failed, is a **cascade**
 * hanging under its root(s), and counts as a failed check (the seed paper's "failed checks → roots": a root with
 * three skipped dependents is four failed checks, one root). A check skipped because its condition was false
 * would not have applied: it is neither. The same root check id is then grouped across the trials of one mode.
 */

/** Implicit check ids (assertion ids) the grader emits; see `implicitParents`. */
export const TRIAL_OK = "trial-ok";
const SKILL_REGISTERED = "skill-registered";
/** `<assertionId>/module-loads` is an implicit parent of the gate check `<assertionId>`. */
export const MODULE_LOADS_SUFFIX = "/module-loads";

/** A root check id grouped across the trials of one mode of one skill. */
export interface AttributedRoot {
  /** `skill|mode|checkId`: unique across a PR. */
  key: string;
  skill: string;
  checkId: string;
  /** The case (or trigger query) the check belongs to. */
  caseId: string;
  mode: TrialMode;
  /** Trial indices in which this check failed as a root, ascending. */
  failedTrials: number[];
  /** Trials in which the check was observed on its own: passed, or failed as a root (not cascaded, not skipped). */
  trials: number;
  /** Check ids that cascaded from this root in any of its failed trials, sorted, unique. */
  cascaded: string[];
  loc: SourceLocation;
  /** Message of the first failed trial. */
  message: string;
  discriminator: boolean;
  /** What the check looks at (assertion roots). */
  level?: CheckLevel;
  /** Every failed trial was an `error` (could not be evaluated), not a `fail`. */
  errorOnly: boolean;
  /** Trial indices in which this check could not be evaluated (status `error`, as a root), ascending. */
  erroredTrials: number[];
}

/** Per check id and mode: how often it was observed on its own and how often it failed as a root. */
export interface CheckTally {
  key: string;
  skill: string;
  checkId: string;
  mode: TrialMode;
  observed: number;
  /** Trials in which it failed as a root, errors included. */
  failedAsRoot: number;
  /** Of those, the trials in which it could not be evaluated (status `error`). */
  erroredAsRoot: number;
}

export interface Attribution {
  roots: AttributedRoot[];
  /** Failed checks over all trials: `fail` or `error`, and checks skipped because a dependency failed. */
  failedChecks: number;
  perTrial: { trialKey: string; failed: number; roots: number }[];
  /** Every check id seen, with its per-trial tallies (what the head-vs-base statistics read). */
  checks: CheckTally[];
}

export function rootKey(skill: string, mode: TrialMode, checkId: string): string {
  return `${skill}|${mode}|${checkId}`;
}

function trialKeyOf(c: Pick<CheckResult, "skill" | "mode" | "caseId" | "trial">): string {
  return `${c.skill}|${c.mode}|${c.caseId}|${c.trial}`;
}

const isFailed = (c: CheckResult): boolean => c.status === "fail" || c.status === "error";

/** Edges the suite does not spell out: an errored trial, an unregistered skill and a module that does not load. */
function implicitParents(check: CheckResult, trial: Map<string, CheckResult>): string[] {
  const parents: string[] = [];
  if (check.assertionId === TRIAL_OK) return parents;
  const trialOk = `${check.caseId}/${TRIAL_OK}`;
  if (trial.has(trialOk)) parents.push(trialOk);
  if (check.assertionId === SKILL_REGISTERED) return parents;
  const registered = `${check.caseId}/${SKILL_REGISTERED}`;
  if (trial.has(registered)) parents.push(registered);
  const loads = `${check.checkId}${MODULE_LOADS_SUFFIX}`;
  if (trial.has(loads)) parents.push(loads);
  return parents;
}

interface TrialAttribution {
  roots: CheckResult[];
  /** root check id → failed or skipped checks cascading from it. */
  cascades: Map<string, string[]>;
  failed: number;
  /** Check ids observed on their own (pass, or root). */
  observed: CheckResult[];
}

function attributeTrial(checks: CheckResult[]): TrialAttribution {
  const byId = new Map<string, CheckResult>();
  for (const c of checks) {
    if (byId.has(c.checkId)) {
      throw new Error(
        `${c.loc.file}:${c.loc.line}:${c.loc.column}: check "${c.checkId}" appears twice in trial ${trialKeyOf(c)}`,
      );
    }
    byId.set(c.checkId, c);
  }
  const parents = new Map<string, string[]>();
  for (const c of checks) {
    const own = c.dependsOn.filter((d) => d !== c.checkId && byId.has(d));
    parents.set(c.checkId, [...new Set([...own, ...implicitParents(c, byId)])]);
  }
  // Failed ancestors of every check (transitively, through checks of any status).
  const failedAncestors = new Map<string, Set<string>>();
  const ancestorsOf = (id: string): Set<string> => {
    const cached = failedAncestors.get(id);
    if (cached) return cached;
    const seen = new Set<string>();
    const found = new Set<string>();
    const stack = [...(parents.get(id) ?? [])];
    while (stack.length > 0) {
      const p = stack.pop()!;
      if (seen.has(p)) continue;
      seen.add(p);
      if (isFailed(byId.get(p)!)) found.add(p);
      stack.push(...(parents.get(p) ?? []));
    }
    failedAncestors.set(id, found);
    return found;
  };
  // A root has no failed ancestor outside its own dependency cycle (a cycle of failures is all roots).
  const isRoot = (c: CheckResult): boolean =>
    isFailed(c) && [...ancestorsOf(c.checkId)].every((a) => ancestorsOf(a).has(c.checkId));
  const roots = checks.filter(isRoot);
  const rootIds = new Set(roots.map((r) => r.checkId));
  const cascades = new Map<string, string[]>(roots.map((r) => [r.checkId, []]));
  let skippedCascades = 0;
  for (const c of checks) {
    if (rootIds.has(c.checkId)) continue;
    const skippedCascade =
      c.status === "skipped" && c.skipReason !== CONDITION_FALSE && ancestorsOf(c.checkId).size > 0;
    if (!isFailed(c) && !skippedCascade) continue;
    if (skippedCascade) skippedCascades++;
    for (const a of ancestorsOf(c.checkId)) if (rootIds.has(a)) cascades.get(a)!.push(c.checkId);
  }
  return {
    roots,
    cascades,
    failed: checks.filter(isFailed).length + skippedCascades,
    observed: checks.filter((c) => c.status === "pass" || rootIds.has(c.checkId)),
  };
}

/** Order of roots and tallies: by key. */
const byKey = (a: { key: string }, b: { key: string }): number =>
  a.key < b.key ? -1 : a.key > b.key ? 1 : 0;

/** Groups checks into trials, attributes each trial, and groups roots by check id across the trials of a mode. */
export function attributeRoots(checks: CheckResult[]): Attribution {
  const trials = new Map<string, CheckResult[]>();
  for (const c of checks) {
    const k = trialKeyOf(c);
    const list = trials.get(k);
    if (list) list.push(c);
    else trials.set(k, [c]);
  }
  const roots = new Map<string, AttributedRoot>();
  const cascaded = new Map<string, Set<string>>();
  const tallies = new Map<string, CheckTally>();
  const perTrial: Attribution["perTrial"] = [];
  let failedChecks = 0;
  for (const trialKey of [...trials.keys()].sort()) {
    const trialChecks = trials.get(trialKey)!;
    const t = attributeTrial(trialChecks);
    failedChecks += t.failed;
    perTrial.push({ trialKey, failed: t.failed, roots: t.roots.length });
    for (const c of trialChecks) {
      const key = rootKey(c.skill, c.mode, c.checkId);
      if (!tallies.has(key)) {
        tallies.set(key, {
          key,
          skill: c.skill,
          checkId: c.checkId,
          mode: c.mode,
          observed: 0,
          failedAsRoot: 0,
          erroredAsRoot: 0,
        });
      }
    }
    for (const c of t.observed) tallies.get(rootKey(c.skill, c.mode, c.checkId))!.observed++;
    for (const r of t.roots) {
      const key = rootKey(r.skill, r.mode, r.checkId);
      const tally = tallies.get(key)!;
      tally.failedAsRoot++;
      if (r.status === "error") tally.erroredAsRoot++;
      let root = roots.get(key);
      if (!root) {
        root = {
          key,
          skill: r.skill,
          checkId: r.checkId,
          caseId: r.caseId,
          mode: r.mode,
          failedTrials: [],
          trials: 0,
          cascaded: [],
          loc: r.loc,
          message: r.message,
          discriminator: r.discriminator,
          ...(r.level ? { level: r.level } : {}),
          errorOnly: true,
          erroredTrials: [],
        };
        roots.set(key, root);
        cascaded.set(key, new Set());
      }
      root.failedTrials.push(r.trial);
      if (r.status !== "error") root.errorOnly = false;
      else root.erroredTrials.push(r.trial);
      for (const id of t.cascades.get(r.checkId) ?? []) cascaded.get(key)!.add(id);
    }
  }
  const out = [...roots.values()].sort(byKey);
  for (const r of out) {
    r.failedTrials.sort((a, b) => a - b);
    r.erroredTrials.sort((a, b) => a - b);
    r.trials = tallies.get(r.key)!.observed;
    r.cascaded = [...cascaded.get(r.key)!].sort();
  }
  const checkTallies = [...tallies.values()].sort(byKey);
  return { roots: out, failedChecks, perTrial, checks: checkTallies };
}

/**
 * Attributions of disjoint checks (one per skill: a trial never spans two skills) as one, without attributing any
 * trial again: the same as `attributeRoots` over all their checks.
 */
export function mergeAttributions(parts: readonly Attribution[]): Attribution {
  return {
    roots: parts.flatMap((p) => p.roots).sort(byKey),
    failedChecks: parts.reduce((n, p) => n + p.failedChecks, 0),
    perTrial: parts
      .flatMap((p) => p.perTrial)
      .sort((a, b) => (a.trialKey < b.trialKey ? -1 : a.trialKey > b.trialKey ? 1 : 0)),
    checks: parts.flatMap((p) => p.checks).sort(byKey),
  };
}

/** Mean failed checks and mean roots per trial: the seed paper's 6.34 → 2.65 compression, for our runs. */
export function compressionStats(a: Attribution): {
  trials: number;
  failedChecks: number;
  roots: number;
  meanFailedChecksPerTrial: number;
  meanRootsPerTrial: number;
} {
  const n = a.perTrial.length;
  const roots = a.perTrial.reduce((s, t) => s + t.roots, 0);
  return {
    trials: n,
    failedChecks: a.failedChecks,
    roots,
    meanFailedChecksPerTrial: n === 0 ? 0 : a.failedChecks / n,
    meanRootsPerTrial: n === 0 ? 0 : roots / n,
  };
}

/** The seed paper (002) reports a mean of 6.34 failed checks per run compressing to 2.65 roots. */
const SEED_PAPER_COMPRESSION = { meanFailedChecksPerTrial: 6.34, meanRootsPerTrial: 2.65 } as const;

/** One line for the report: our compression next to the seed paper's. */
export function formatCompression(s: ReturnType<typeof compressionStats>): string {
  const f = (x: number) => x.toFixed(2);
  const paper = SEED_PAPER_COMPRESSION;
  return (
    `${s.failedChecks} failed check(s) over ${s.trials} trial(s) → ${s.roots} root(s): mean ${f(s.meanFailedChecksPerTrial)} ` +
    `failed checks per trial compress to ${f(s.meanRootsPerTrial)} roots (seed paper: ${paper.meanFailedChecksPerTrial} → ${paper.meanRootsPerTrial})`
  );
}
