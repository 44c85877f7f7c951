/**
 * The confirmation stage: new roots decided over the whole PR (one α for the family), with sequential confirmation
 * trials on suspects: decide → plan → run → grade → decide again, until every root is decided. The planning of
 * which trials a `ConfirmationRequest` needs, per skill job and arm, is pure over the jobs and trials so far.
 */

import { type GradeOptions, gradeJob } from "../grade/job.js";
import type { CheckResult, Settings, TrialRequest } from "../model/index.js";
import { type Arm, planJob, type SkillJob } from "../plan/job.js";
import type { TrialLedger } from "../run/ledger.js";
import {
  type ConfirmationBatch,
  type ConfirmationRequest,
  RootDecider,
  type RootDecision,
} from "../verdict/new-roots.js";

/** One job's trials so far (first batch and confirmations) and their graded checks. */
export interface JobTrials {
  job: SkillJob;
  requests: TrialRequest[];
  checks: CheckResult[];
}

/** The next unused trial index of a case (or trigger query) in one job: trial keys must never repeat. */
function nextTrialIndex(requests: TrialRequest[], caseId: string, mode: TrialRequest["mode"]): number {
  let next = 0;
  for (const r of requests) if (r.caseId === caseId && r.mode === mode && r.trial >= next) next = r.trial + 1;
  return next;
}

/**
 * The trials that answer `req`: for each suspect, its `extraTrials[arm]` more skill-mode trials of its case or runs
 * of its trigger query, in both arms of its skill, numbered after the trials each case already has. Suspects that
 * share a case share its trials (the most any of them asks for).
 */
function planConfirmation(
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

/** The graded checks of every job of one arm. */
function armChecks(runs: JobTrials[], arm: Arm["name"]): CheckResult[] {
  return runs.filter((r) => r.job.arm.name === arm).flatMap((r) => r.checks);
}

/**
 * Decides every root of the run, confirming suspects with more trials while the decider asks and the budget lasts
 * (only with a base arm to compare with). Each unit (a suspect case or trigger query) goes through its looks on its
 * own: its next look starts as soon as its trials are graded, whatever the other units' trials are doing (issue
 * #38: one slow trial holds only its own unit). The ledger shares one limit of agent calls at once and one budget
 * across the units in flight. Each look's trials and checks are added to their job's `runs` entry.
 */
export async function confirmRoots(
  settings: Settings,
  runs: JobTrials[],
  ledger: TrialLedger,
  grading: GradeOptions,
  withBase: boolean,
): Promise<RootDecision[]> {
  const decider = new RootDecider(
    armChecks(runs, "head"),
    withBase ? armChecks(runs, "base") : undefined,
    settings.verdict,
    { canConfirm: withBase },
  );
  const confirmUnit = async (req: ConfirmationRequest): Promise<void> => {
    const planned = planConfirmation(runs, req, { seed: settings.seed });
    const unit = req.unit.split("|");
    const ran = await ledger.run(
      planned.flatMap((p) => p.requests),
      `confirmation look ${req.look} of ≤${decider.rounds + 1}: ${unit[0]} ${unit[2]}`,
      { grouped: false, look: req.look },
    );
    if (ran.budgetExhausted) return decider.abort(ran.budgetExhausted, req);
    const batch: ConfirmationBatch = { head: [], base: [] };
    for (const p of planned) {
      const graded = await gradeJob(p.run.job, p.requests, ledger.records, grading);
      p.run.requests.push(...p.requests);
      p.run.checks.push(...graded);
      batch[p.run.job.arm.name].push(...graded);
    }
    decider.observe(req, batch);
  };
  const first = decider.requests();
  if (first.length > 0)
    await settings.logger.group(`confirmation of ${first.length} suspect unit(s)`, () =>
      eachAsReady(first, () => decider.requests(), confirmUnit),
    );
  return decider.decisions();
}

/**
 * Runs `work` on `first` and on every item `ready()` gives after, starting the new ones each time one ends, until
 * nothing is in flight and nothing is ready. A failure is thrown once every item in flight has ended.
 */
async function eachAsReady<T>(first: T[], ready: () => T[], work: (item: T) => Promise<void>): Promise<void> {
  const inFlight = new Set<Promise<void>>();
  let failure: { error: unknown } | undefined;
  const start = (items: T[]) => {
    for (const item of items) {
      const p: Promise<void> = work(item)
        .catch((error: unknown) => {
          failure ??= { error };
        })
        .finally(() => inFlight.delete(p));
      inFlight.add(p);
    }
  };
  start(first);
  while (inFlight.size > 0) {
    await Promise.race(inFlight);
    // After a failure nothing new is asked for: the units in flight end, then it is thrown.
    if (!failure) start(ready());
  }
  if (failure) throw failure.error;
}
