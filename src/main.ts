// The GitHub Action entry (dist/index.js, run by the runner on node24): a thin shell over runAction.
// The pipeline and the cache service are imported when first needed: the bundle splits them into chunks, so the
// action starts (and says what it is about to do) without compiling code it reaches only later.
// First: no inspector on SIGUSR1 (see no-inspector.ts).
import "./util/no-inspector.js";
import * as core from "@actions/core";
import {
  adoptEnvironment,
  ELEVATED_FLAG,
  giveBack,
  invokingUser,
  planElevation,
  receiveEnvironment,
  runElevated,
} from "./github/elevate.js";
import { coreActionIO } from "./github/io.js";
import { type EvaluationContext, runAction } from "./github/run-action.js";
import type { Report, Settings } from "./model/index.js";
import { EXIT, exitCodeFor } from "./report/exit-codes.js";

/**
 * The trial cache travels between runs through the Actions cache service (a warning when unavailable): runs of a
 * branch save, a pull request's run reads the base's entries only.
 */
async function runWithActionsCache(settings: Settings, run: EvaluationContext): Promise<Report> {
  const { runCells } = await import("./pipeline/matrix.js");
  return runCells(settings, (cell) => runCellWithActionsCache(cell, run));
}

/** One run (one cell of an agent matrix: its own cache folder under its own key scope). */
async function runCellWithActionsCache(settings: Settings, run: EvaluationContext) {
  const { runPipeline } = await import("./pipeline.js");
  if (!settings.cache.enabled) return runPipeline(settings);
  const { restoreTrialCache, saveTrialCache } = await import("./github/cache-actions.js");
  const { cacheAccess } = run;
  const scope = settings.cell ? { scope: `cell-${settings.cell}` } : {};
  const state = await restoreTrialCache(settings.cache.dir, settings.logger, scope, undefined, cacheAccess);
  try {
    return await runPipeline(settings);
  } finally {
    await saveTrialCache(settings.cache.dir, state, settings.logger, scope, undefined, cacheAccess);
  }
}

async function evaluate(): Promise<number> {
  try {
    const result = await runAction({
      io: coreActionIO(),
      env: process.env,
      resolveSettings: async (raw, logger) =>
        (await import("./settings/resolve.js")).resolveSettings(raw, logger),
      runPipeline: runWithActionsCache,
      forecastPipeline: async (settings) => (await import("./pipeline.js")).forecastPipeline(settings),
      exitCodeFor,
    });
    return result.exitCode;
  } catch (e) {
    // Only a bug reaches here: runAction turns every expected failure into a report and an exit code.
    core.setFailed(`skillgate crashed: ${(e as Error).stack ?? e}`);
    return EXIT.error;
  }
}

/** Margin below the root child's start for file systems whose timestamps lag the clock (coarse ticks). */
const CLOCK_SLACK_MS = 2_000;

/** The root child: the runner's environment from stdin, the run, then the runner user's files given back. */
async function evaluateElevated(): Promise<number> {
  const since = Date.now() - CLOCK_SLACK_MS;
  adoptEnvironment(await receiveEnvironment());
  try {
    return await evaluate();
  } finally {
    const user = invokingUser(process.env);
    const roots = [process.env.GITHUB_WORKSPACE, process.env.RUNNER_TEMP].filter((r) => r !== undefined);
    if (user) giveBack(roots, user, since);
  }
}

if (process.argv[2] === ELEVATED_FLAG) process.exitCode = await evaluateElevated();
else {
  const plan = await planElevation(process.env);
  process.exitCode = plan.elevate
    ? await runElevated(plan.sudo, process.argv[1]!, process.env)
    : await evaluate();
}
