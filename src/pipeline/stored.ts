/**
 * The default branch pays for the base once (#29): a run without a base (a push to the default branch, a schedule)
 * runs `verdict.baseDepth` trials of every case, and the trial cache keeps them; a PR's base arm then takes, for
 * each case, every stored trial after its first batch (the longest run of stored trial indices) for free. Trials
 * that are not stored are never run here: confirmation runs what a suspect needs. Only live agents whose answers
 * are cached take part (a replay stores nothing).
 */
import type { TrialRequest } from "../model/index.js";
import { planJob } from "../plan/job.js";
import type { TrialLedger } from "../run/ledger.js";
import type { JobTrials } from "./confirm.js";

/** Per skill and case: the trials the first batch holds where it holds more than planned (the deepened arm's). */
export type StoredDepth = Map<string, Record<string, number>>;

/** Skill-mode trials of `caseId` numbered `from` up to `to` (exclusive) in one job. */
function caseTrials(run: JobTrials, caseId: string, from: number, to: number, seed: number): TrialRequest[] {
  if (to <= from) return [];
  return planJob(run.job, {
    trials: to - from,
    triggerRuns: 0,
    seed,
    firstTrial: from,
    onlyCases: new Set([caseId]),
    onlyModes: new Set(["skill"]),
    onlyTriggers: new Set(),
  });
}

/** The cases of a job's first batch that ran in skill mode, with the trials each has. */
function skillCases(run: JobTrials): Map<string, number> {
  const cases = new Map<string, number>();
  for (const r of run.requests)
    if (r.mode === "skill") cases.set(r.caseId, Math.max(cases.get(r.caseId) ?? 0, r.trial + 1));
  return cases;
}

/**
 * Deepens first batches in place. A sweep's head arm (no base: it is what PRs will read) tops up every case towards
 * `depth` trials, with the stored ones free and at most `allowance` agent calls (`topUp`); a PR's base arm takes each
 * case's stored trials up to `depth`. Returns the deepened cases.
 */
export async function addStoredTrials(
  runs: JobTrials[],
  ledger: TrialLedger,
  opts: { depth: number; sweep: boolean; seed: number; cacheEnabled: boolean; allowance?: number },
): Promise<StoredDepth> {
  const deepened: StoredDepth = new Map();
  if (!opts.cacheEnabled || opts.depth <= 0 || !(await ledger.adapter()).live) return deepened;
  if (opts.sweep)
    return topUp(runs, ledger, { ...opts, allowance: opts.allowance ?? Number.POSITIVE_INFINITY });
  for (const run of runs) {
    if (run.job.arm.name !== "base") continue;
    for (const [caseId, have] of skillCases(run)) {
      const more = caseTrials(run, caseId, have, opts.depth, opts.seed);
      if (more.length === 0) continue;
      const skill = run.job.skill.name;
      const stored = await ledger.storedKeys(more);
      // Only an unbroken run of stored trials: the first batch stays "trials 0 … k−1", which a report can replay.
      let k = 0;
      while (k < more.length && stored.has(more[k]!.key)) k++;
      if (k === 0) continue;
      run.requests.push(...more.slice(0, k));
      deepened.set(skill, { ...deepened.get(skill), [caseId]: have + k });
    }
  }
  return deepened;
}

/** One case a sweep tops up: its next trials in order, and how many of them it takes. */
interface TopUpCase {
  run: JobTrials;
  caseId: string;
  more: TrialRequest[];
  stored: Set<string>;
  taken: number;
}

/**
 * The default branch's store, filled across pushes within the budget: every case gets its next trials in turn,
 * round by round (stored ones are free, others cost one call of `allowance`), so all cases grow evenly and each
 * case's trials stay an unbroken run from 0, which is what a PR reads. A push that cannot pay for a case's next
 * trial stops that case; the next push goes on from there (the stored answers are found again by their keys).
 */
async function topUp(
  runs: JobTrials[],
  ledger: TrialLedger,
  opts: { depth: number; seed: number; allowance: number },
): Promise<StoredDepth> {
  const cases: TopUpCase[] = [];
  for (const run of runs) {
    if (run.job.arm.name !== "head") continue;
    for (const [caseId, have] of skillCases(run)) {
      const more = caseTrials(run, caseId, have, opts.depth, opts.seed);
      if (more.length > 0) cases.push({ run, caseId, more, stored: new Set(), taken: 0 });
    }
  }
  const stored = await ledger.storedKeys(cases.flatMap((c) => c.more));
  let left = opts.allowance;
  let open = cases;
  while (open.length > 0) {
    const next: TopUpCase[] = [];
    for (const c of open) {
      const r = c.more[c.taken]!;
      const cost = stored.has(r.key) ? 0 : 1;
      if (cost > left) continue;
      left -= cost;
      c.taken++;
      if (c.taken < c.more.length) next.push(c);
    }
    open = next;
  }
  const deepened: StoredDepth = new Map();
  for (const c of cases) {
    if (c.taken === 0) continue;
    c.run.requests.push(...c.more.slice(0, c.taken));
    const skill = c.run.job.skill.name;
    const have = c.more[0]!.trial;
    deepened.set(skill, { ...deepened.get(skill), [c.caseId]: have + c.taken });
  }
  return deepened;
}
