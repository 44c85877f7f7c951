/**
 * What the action is given (its I/O, environment, the pipeline stages, the clock, signals) and what it returns:
 * the seams that let tests drive `runAction` without a runner, and main.ts wire the real stages in lazily.
 */
import type { Forecast, Report, Verdict } from "../model/report.js";
import type { Logger, Settings } from "../model/settings.js";
import type { RawOptions } from "../settings/resolve.js";
import type { ArtifactUploader } from "./artifact.js";
import type { CacheAccess } from "./cache-actions.js";
import type { GitHubClient } from "./client.js";
import type { ActionIO } from "./io.js";

export interface ActionDeps {
  io: ActionIO;
  env: Record<string, string | undefined>;
  resolveSettings(raw: RawOptions, logger: Logger): Promise<Settings>;
  /** `run.cacheAccess`: what this event may do with the Actions trial cache (a PR only reads the base's). */
  runPipeline(settings: Settings, run: EvaluationContext): Promise<Report>;
  /** What a run would spend, running nothing (on-demand PRs nobody asked to evaluate). */
  forecastPipeline?(settings: Settings): Promise<{ forecast: Forecast; scope: NonNullable<Report["scope"]> }>;
  exitCodeFor(verdict: Verdict): number;
  /** Defaults to the real client (retry + throttling) on `GITHUB_API_URL`. */
  createClient?(token: string, baseUrl: string, logger: Logger): GitHubClient;
  now?(): Date;
  /** Where SIGINT/SIGTERM arrive (default `process`): the runner's way of cancelling the step. */
  signals?: SignalSource;
  /** Uploads the HTML review report as an artifact (default `@actions/artifact`). */
  artifacts?: ArtifactUploader;
  /** Ends the process after an interruption was handled (default `process.exit`). */
  exit?(code: number): void;
}

/** The part of `process` that delivers signals. */
export interface SignalSource {
  on(signal: "SIGINT" | "SIGTERM", listener: (signal: NodeJS.Signals) => void): unknown;
  off(signal: "SIGINT" | "SIGTERM", listener: (signal: NodeJS.Signals) => void): unknown;
}

/** What the action tells the pipeline's runner about the event beyond the settings. */
export interface EvaluationContext {
  cacheAccess: CacheAccess;
}

/** Everything the action did, for tests and the final log line. */
export interface ActionResult {
  exitCode: number;
  report?: Report;
  publishedTo: ("check-run" | "workflow-commands" | "summary" | "comment")[];
}

/** Usage/config errors, as the CLI (design: 0 pass, 1 fail, 2 usage/config, 3 error). */
export const USAGE_EXIT = 2;
