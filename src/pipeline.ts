/**
 * The one engine behind the CLI and the action: detect → plan → run → grade → attribute → verdict → report.
 * No GitHub I/O in here; the entry points hand in `Settings` and get a `Report`. Each stage is a function of its
 * own under `src/pipeline/`; this file only says their order.
 */
import { checkoutBase } from "./detect/base.js";
import { judgeFor } from "./grade/command-judge.js";
import type { GradeOptions } from "./grade/job.js";
import type { Forecast, Report, Settings } from "./model/index.js";
import { checkCommands } from "./pipeline/command-preflight.js";
import { confirmRoots } from "./pipeline/confirm.js";
import { detectChanges, detectHead, discoverWith, type Scope, sparseBaseOf } from "./pipeline/detect.js";
import { writeExports } from "./pipeline/exports.js";
import {
  firstBatchShapes,
  forecastFirstBatch,
  planFirstBatch,
  runFirstBatch,
} from "./pipeline/first-batch.js";
import { armsOf, planJobs, repositoryErrorsOf } from "./pipeline/jobs.js";
import { storedNoise } from "./pipeline/noise.js";
import { assembleReport, checkoutsOf, skillOutcomes } from "./pipeline/outcomes.js";
import { renderForecast } from "./plan/forecast.js";
import { decideIsolation } from "./run/isolation.js";
import { TrialLedger } from "./run/ledger.js";
import { isolation } from "./sandbox/isolation/detect.js";
import type { StoredNoise } from "./verdict/noise.js";
import type { PowerShape } from "./verdict/power.js";
import { decideSkills } from "./verdict/skill.js";
import { VERSION } from "./version.js";

/** The whole run for `settings`; the report it returns has passed the redactor (secrets never leave). */
export async function runPipeline(settings: Settings): Promise<Report> {
  return (await pipeline(settings, { forecastOnly: false })).report!;
}

/** Everything up to the forecast, and no trial: `skillgate plan` and the action's on-demand mode. */
export async function forecastPipeline(
  settings: Settings,
  opts: { noise?: boolean } = {},
): Promise<{
  forecast: Forecast;
  scope: Scope;
  shapes: Record<string, PowerShape>;
  noise?: Record<string, StoredNoise>;
}> {
  const out = await pipeline(settings, { forecastOnly: true, ...opts });
  return {
    forecast: out.forecast,
    scope: out.scope,
    shapes: out.shapes ?? {},
    ...(out.noise ? { noise: out.noise } : {}),
  };
}

async function pipeline(
  settings: Settings,
  opts: { forecastOnly: boolean; noise?: boolean },
): Promise<{
  report?: Report;
  forecast: Forecast;
  scope: Scope;
  shapes?: Record<string, PowerShape>;
  noise?: Record<string, StoredNoise>;
}> {
  const started = Date.now();
  const log = settings.logger;
  // Before anything untrusted runs: how it would be confined (every agent adapter that runs a process, the gate
  // children, predicates, oracles and compiles alike), and whether that is enough for this run.
  const machine = await isolation();
  const confinement = decideIsolation(machine, settings);
  if (!confinement.go) throw confinement.refused;
  if (confinement.warning) log.warn(confinement.warning);
  const discover = discoverWith(settings);
  const head = detectHead(settings, discover, opts.forecastOnly);
  const checkout = settings.base
    ? checkoutBase(settings.repoDir, settings.base, sparseBaseOf(settings, head))
    : undefined;
  if (checkout?.sparse)
    log.debug(
      `base: ${checkout.sparse.files} file(s) under ${checkout.sparse.paths} path(s) read from git objects`,
    );
  try {
    const detected = detectChanges(settings, discover, head, checkout);
    const { scope } = detected;
    log.info(
      `skillgate ${VERSION}: ${scope.message}${checkout ? ` (against base ${checkout.ref ?? checkout.dir})` : " (sweep)"}`,
    );
    const arms = armsOf(settings, detected, checkout);
    const repositoryErrors = repositoryErrorsOf(settings, detected, checkout);
    // Paths in the agent's (and judge's) configuration (a command script, replay recordings) name files of the
    // trusted tree.
    const agentDir = settings.policy.agentDir ?? settings.policy.dir ?? checkout?.dir ?? settings.repoDir;
    const grading: GradeOptions = {
      judge: settings.judge ? judgeFor(settings.judge, agentDir) : undefined,
      gateSeed: settings.seed,
    };
    const plans = await planJobs(settings, detected, arms, checkout);
    const ledger = new TrialLedger(settings, { agentDir });
    const batch = await planFirstBatch(settings, plans, ledger, !arms.base);
    // Before any trial: a program that cannot start would fail them all alike.
    if (batch.runs.some((r) => r.requests.length > 0))
      checkCommands(settings, agentDir, machine, { warnOnly: opts.forecastOnly });
    // Said before it spends; over the budget nothing runs (fail-closed).
    const forecast = await forecastFirstBatch(settings, batch.runs, ledger);
    for (const line of renderForecast(forecast)) log.info(line);
    if (opts.forecastOnly) {
      const noise = opts.noise ? await storedNoise(settings, batch, ledger, grading) : undefined;
      return { forecast, scope, shapes: firstBatchShapes(settings, batch), ...(noise ? { noise } : {}) };
    }
    const recovery = await runFirstBatch(batch.runs, forecast, ledger, grading);
    const decisions = await confirmRoots(settings, batch.runs, ledger, grading, !!arms.base);
    await writeExports(settings, plans, batch.runs, ledger, new Date(started).toISOString());
    const outcomes = skillOutcomes(settings, plans, { batch, recovery, decisions }, ledger, !!arms.base);
    await ledger.recordUsage();
    const run = { settings, started, detected, checkout, repositoryErrors, isolation: confinement.report };
    // Every skill's verdict and suite diff, decided before the report is written.
    const decided = decideSkills(settings, outcomes, checkoutsOf(settings, checkout), detected.listingRoots);
    const report = assembleReport(run, outcomes, decided, ledger);
    report.forecast = forecast;
    report.rounds = ledger.rounds;
    return { report, forecast, scope };
  } finally {
    checkout?.dispose();
  }
}
