/**
 * The pipeline's first batch: every job's planned trials (with the stored base trials a PR reads), their forecast,
 * then run (or refused over the budget) and graded, and the robustness probes' recovery rounds.
 */

import { type GradeOptions, gradeJob } from "../grade/job.js";
import type { CheckResult, Forecast, RecoveryTrial, Settings, TrialRequest } from "../model/index.js";
import { batteryOf } from "../plan/forecast.js";
import { planJob, type SkillJob } from "../plan/job.js";
import type { TrialLedger } from "../run/ledger.js";
import { DEFAULT_BASE_DEPTH } from "../settings/defaults.js";
import { BASE_TRIALS_PER_HEAD_TRIAL } from "../verdict/policy.js";
import type { PowerShape } from "../verdict/power.js";
import type { JobTrials } from "./confirm.js";
import { type SkillPlan, trialsFor } from "./jobs.js";
import { recoverProbes } from "./recovery.js";
import { addStoredTrials, type StoredDepth } from "./stored.js";

/** The first batch, planned: each job's trials, and the stored trials added per skill (`StoredDepth`). */
export interface FirstBatch {
  runs: JobTrials[];
  deeper: StoredDepth;
  /** Per run: how many of its requests are the first batch proper (the rest are stored trials added after). */
  planned: Map<JobTrials, number>;
}

/** Both arms with the trials the trusted policy sets; the default branch pays for the base once (`addStoredTrials`). */
export async function planFirstBatch(
  settings: Settings,
  plans: SkillPlan[],
  ledger: TrialLedger,
  sweep: boolean,
): Promise<FirstBatch> {
  const runs: JobTrials[] = plans.flatMap((p) =>
    [p.head, p.base]
      .filter((x): x is SkillJob => !!x)
      .map((job) => ({
        job,
        requests: planJob(job, {
          trials: trialsFor(settings, p.info),
          triggerRuns: settings.triggerRuns,
          seed: settings.seed,
        }),
        checks: [] as CheckResult[],
      })),
  );
  const planned = new Map(runs.map((r) => [r, r.requests.length]));
  // A sweep stores up to `baseDepth` trials per case within what the budget leaves; a PR's base arm reads them.
  const allowance = sweep
    ? deepeningAllowance(settings, await forecastFirstBatch(settings, runs, ledger))
    : undefined;
  const deeper = await addStoredTrials(runs, ledger, {
    depth: settings.verdict.baseDepth ?? DEFAULT_BASE_DEPTH,
    sweep,
    seed: settings.seed,
    cacheEnabled: settings.cache.enabled,
    ...(allowance !== undefined ? { allowance } : {}),
  });
  return { runs, deeper, planned };
}

/**
 * The agent calls a sweep may spend on stored trials beyond its first batch: what the budget leaves of calls, and
 * of dollars at the first batch's expected price per call. The first batch is never cut (over the budget it is
 * refused whole, fail-closed); the store is filled across pushes instead.
 */
function deepeningAllowance(settings: Settings, plain: Forecast): number {
  const { maxAgentCalls, maxUsd } = settings.budget;
  const { agentCalls, usd } = plain.total;
  let calls = maxAgentCalls === undefined ? Number.POSITIVE_INFINITY : maxAgentCalls - agentCalls;
  if (maxUsd !== undefined && usd !== undefined && agentCalls > 0 && usd > 0)
    calls = Math.min(calls, Math.floor(((maxUsd - usd) * agentCalls) / usd));
  return Math.max(0, calls);
}

/** What the first batch will spend, said before it spends (no agent runs). */
export function forecastFirstBatch(
  settings: Settings,
  runs: JobTrials[],
  ledger: TrialLedger,
): Promise<Forecast> {
  return ledger.forecast(
    runs.flatMap((r) =>
      r.requests.map((request) => ({
        skill: r.job.skill.name,
        battery: batteryOf(request.mode),
        arm: r.job.arm.name,
        request,
      })),
    ),
    {
      maxConfirmationTrials: settings.verdict.maxConfirmationTrials,
      baseTrialsPerHeadTrial: BASE_TRIALS_PER_HEAD_TRIAL,
    },
  );
}

/**
 * Runs and grades the first batch (over the budget nothing runs: every trial a `budget` error, fail-closed); failed
 * error-recovery probes get their own answer and failures back (robustness only, not the verdict).
 */
export async function runFirstBatch(
  runs: JobTrials[],
  forecast: Forecast,
  ledger: TrialLedger,
  grading: GradeOptions,
): Promise<Map<SkillJob, RecoveryTrial[]>> {
  const requests = runs.flatMap((r) => r.requests);
  if (forecast.overBudget) ledger.refuse(requests, forecast.overBudget);
  else await ledger.run(requests, "first batch");
  for (const r of runs) r.checks = await gradeJob(r.job, r.requests, ledger.records, grading);
  return recoverProbes(
    runs.filter((r) => r.job.arm.name === "head"),
    {
      records: ledger.records,
      run: (more) => ledger.run(more),
      grade: (job, more) => gradeJob(job, more, ledger.records, grading),
    },
  );
}

/** A first batch's requests as a power simulation reads them, against `storedBase` base trials per case. */
export function shapeOf(
  settings: Settings,
  requests: readonly TrialRequest[],
  storedBase: number,
): PowerShape {
  const skillTrials = requests.filter((q) => q.mode === "skill");
  const cases = new Set(skillTrials.map((q) => q.caseId)).size;
  return {
    cases,
    queries: new Set(requests.filter((q) => q.mode === "trigger").map((q) => q.caseId)).size,
    trialsPerCase: cases ? Math.round(skillTrials.length / cases) : 0,
    triggerRuns: settings.triggerRuns,
    storedBase,
  };
}

/**
 * Each compared skill's first batch as a power simulation reads it (`verdict/power.ts`): its cases and trigger
 * queries at head, trials per case and runs per query, and the fewest base trials a case of it has stored (0 when
 * cold). A skill with no base arm (a new skill, a sweep) has no head-vs-base decision to plan for.
 */
export function firstBatchShapes(settings: Settings, batch: FirstBatch): Record<string, PowerShape> {
  const shapes: Record<string, PowerShape> = {};
  const compared = new Set(batch.runs.filter((r) => r.job.arm.name === "base").map((r) => r.job.skill.name));
  for (const r of batch.runs) {
    const name = r.job.skill.name;
    if (r.job.arm.name !== "head" || !compared.has(name)) continue;
    const stored = Object.values(batch.deeper.get(name) ?? {});
    const cases = new Set(r.requests.filter((q) => q.mode === "skill").map((q) => q.caseId)).size;
    const storedBase = stored.length === cases && stored.length > 0 ? Math.min(...stored) : 0;
    shapes[name] = shapeOf(settings, r.requests, storedBase);
  }
  return shapes;
}
