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
 * The trials that answer `req`: for each suspect, its `extraTrials[arm]` more skill-mode trials of its case or runs
 * of its trigger query, in both arms of its skill, numbered after the trials each case already has. Suspects that
 * share a case share its trials (the most any of them asks for).
 */
export function planConfirmation(
  runs: JobTrials[],
  req: ConfirmationRequest,
  opts: { seed: number },
): { run: JobTrials; requests: TrialRequest[] }[] {
  const out: { run: JobTrials; requests: TrialRequest[] }[] = [];
  for (const run of runs) {
    const arm = run.job.arm.name;
    const mine = req.roots.filter((r) => r.skill === run.job.skill.name);
    // A trigger check's id is its query's id (its graded caseId is the generic "trigger").
    const units = new Map<string, { mode: "skill" | "trigger"; extra: number }>();
    for (const r of mine) {
      const id = r.mode === "trigger" ? r.checkId : r.caseId;
      const mode = r.mode === "trigger" ? "trigger" : "skill";
      const key = `${mode}|${id}`;
      units.set(key, { mode, extra: Math.max(units.get(key)?.extra ?? 0, r.extraTrials[arm]) });
    }
    const requests: TrialRequest[] = [];
    for (const [key, { mode, extra }] of [...units].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
      if (extra <= 0) continue;
      const id = key.slice(mode.length + 1);
      const firstTrial = nextTrialIndex(run.requests, id, mode);
      requests.push(
        ...planJob(
          run.job,
          mode === "skill"
            ? {
                trials: extra,
                triggerRuns: 0,
                seed: opts.seed,
                firstTrial,
                onlyCases: new Set([id]),
                onlyModes: new Set(["skill"]),
                onlyTriggers: new Set(),
              }
            : {
                trials: 0,
                triggerRuns: extra,
                seed: opts.seed,
                firstTrial,
                onlyTriggers: new Set([id]),
                onlyModes: new Set(["trigger"]),
              },
        ),
      );
    }
    if (requests.length) out.push({ run, requests });
  }
  return out;
}
