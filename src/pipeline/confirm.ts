/**
 * The confirmation stage's planning: which trials a `ConfirmationRequest` of the verdict stage needs, per skill
 * job and arm. Pure over the jobs and the trials planned so far; the pipeline runs and grades what it returns.
 */
import type { CheckResult, TrialRequest } from "../model/index.js";
import type { ConfirmationRequest } from "../verdict/new-roots.js";
import { planJob, type SkillJob } from "./arm.js";

/** One job's trials so far (first batch and confirmations) and their graded checks. */
export interface JobTrials {
  job: SkillJob;
  requests: TrialRequest[];
  checks: CheckResult[];
}

/** The next unused trial index of a case (or trigger query) in one job: trial keys must never repeat. */
export function nextTrialIndex(requests: TrialRequest[], caseId: string, mode: TrialRequest["mode"]): number {
  let next = 0;
  for (const r of requests) if (r.caseId === caseId && r.mode === mode && r.trial >= next) next = r.trial + 1;
  return next;
}

/**
 * The trials that answer `req`: `extraTrials[arm]` more skill-mode trials of each suspect's case and more runs
 * of each suspect trigger query, in both arms of its skill (more in the base arm), numbered after the trials each
 * case already has.
 */
export function planConfirmation(
  runs: JobTrials[],
  req: ConfirmationRequest,
  opts: { seed: number },
): { run: JobTrials; requests: TrialRequest[] }[] {
  const out: { run: JobTrials; requests: TrialRequest[] }[] = [];
  for (const run of runs) {
    const mine = req.roots.filter((r) => r.skill === run.job.skill.name);
    if (mine.length === 0) continue;
    const requests: TrialRequest[] = [];
    const extra = req.extraTrials[run.job.arm.name];
    const cases = [...new Set(mine.filter((r) => r.mode === "skill").map((r) => r.caseId))].sort();
    // A trigger check's id is its query's id (its graded caseId is the generic "trigger").
    const queries = [...new Set(mine.filter((r) => r.mode === "trigger").map((r) => r.checkId))].sort();
    for (const caseId of cases)
      requests.push(
        ...planJob(run.job, {
          trials: extra,
          triggerRuns: 0,
          seed: opts.seed,
          firstTrial: nextTrialIndex(run.requests, caseId, "skill"),
          onlyCases: new Set([caseId]),
          onlyModes: new Set(["skill"]),
          onlyTriggers: new Set(),
        }),
      );
    for (const queryId of queries)
      requests.push(
        ...planJob(run.job, {
          trials: 0,
          triggerRuns: extra,
          seed: opts.seed,
          firstTrial: nextTrialIndex(run.requests, queryId, "trigger"),
          onlyTriggers: new Set([queryId]),
          onlyModes: new Set(["trigger"]),
        }),
      );
    if (requests.length) out.push({ run, requests });
  }
  return out;
}
