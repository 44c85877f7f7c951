/**
 * Reports for runs that could not evaluate (bad input, refused isolation, a crash): posted like any other report,
 * so the check never stays pending and every failure is said where the user looks.
 */
import { InputError } from "../model/diagnostics.js";
import type { Report, Verdict } from "../model/report.js";
import { IsolationRefused } from "../run/isolation.js";
import { VERSION } from "../version.js";
import { USAGE_EXIT } from "./action-deps.js";
import type { ActionContext } from "./context.js";
import type { ActionIO } from "./io.js";

/** A report for a run that could not evaluate: posted like any other, so the check never stays pending. */
export function errorReport(
  message: string,
  ctx: Partial<ActionContext>,
  headSha?: string,
  base?: { sha: string },
): Report {
  return {
    schemaVersion: 2,
    tool: { name: "skillgate", version: VERSION },
    verdict: "error",
    seed: 0,
    startedAt: new Date().toISOString(),
    durationMs: 0,
    repo: ctx.workspace ?? "",
    head: { sha: headSha ?? ctx.sha },
    ...(base ? { base } : {}),
    agent: { adapter: "none", identity: "none" },
    trials: 0,
    skills: [],
    policy: { origin: "not read: the run did not start", roots: [] },
    blockingRoots: [],
    newRoots: [],
    diagnostics: [],
    stats: { failedChecks: 0, roots: 0, meanFailedChecksPerTrial: 0, meanRootsPerTrial: 0 },
    cost: { usd: 0, agentCalls: 0, cacheHits: 0, inputTokens: 0, outputTokens: 0 },
    errors: [message],
  };
}

/**
 * The report and exit code for what an evaluation threw: a usage error (exit 2, its located diagnostics kept as
 * annotations), a refused isolation level (its message and the level), anything else an error with its stack logged.
 */
export function failureReport(
  e: unknown,
  o: {
    io: ActionIO;
    ctx: ActionContext;
    headSha?: string;
    base?: { sha: string };
    exitCodeFor(verdict: Verdict): number;
  },
): { report: Report; exitCode: number } {
  const usage = e instanceof InputError;
  const refused = e instanceof IsolationRefused;
  const message = usage || refused ? (e as Error).message : `skillgate failed: ${(e as Error).stack ?? e}`;
  o.io.info(`error: ${message}`);
  const report = errorReport(
    usage || refused ? (e as Error).message : `skillgate failed: ${(e as Error).message}`,
    o.ctx,
    o.headSha,
    o.base,
  );
  if (refused) report.isolation = e.isolation;
  // Located input errors become annotations on the files they name.
  if (usage) report.diagnostics = e.diagnostics;
  return { report, exitCode: usage ? USAGE_EXIT : o.exitCodeFor("error") };
}
