import { mkdir, writeFile } from "node:fs/promises";
import { dirname, relative, resolve } from "node:path";
import { headSha as headShaOf } from "../detect/base.js";
import { InputError } from "../model/diagnostics.js";
import type { Forecast, Report, Verdict } from "../model/report.js";
import type { Logger, Settings } from "../model/settings.js";
import { IsolationRefused } from "../pipeline/isolation.js";
import { renderHtml } from "../report/html/index.js";
import { renderJUnit } from "../report/junit.js";
import { loadReports } from "../report/load.js";
import { renderMarkdown } from "../report/markdown.js";
import { mergeReports } from "../report/merge.js";
import { renderSarif } from "../report/sarif.js";
import type { CacheAccess } from "../run/cache-actions.js";
import type { RawOptions } from "../settings/resolve.js";
import { redactOutput } from "../util/redact.js";
import { VERSION } from "../version.js";
import {
  type ArtifactUploader,
  actionsArtifactUploader,
  artifactsAvailable,
  artifactUrl,
} from "./artifact.js";
import { distrustPullRequestCaches } from "./cache-scope.js";
import { changedPaths, committedFiles, gitChangedFiles, listChangedFiles } from "./changed-files.js";
import { CheckRun } from "./check-run.js";
import { createGitHubClient, type GitHubClient, httpStatus } from "./client.js";
import { buildCommentBody, upsertStickyComment } from "./comment.js";
import { type ActionContext, planRun, type RunPlan, readContext, runUrl, workflowFile } from "./context.js";
import { type ActionInputs, readInputs } from "./inputs.js";
import {
  interruptedConclusion,
  interruptedOutput,
  jobTimeoutMinutes,
  type OpenCheckRun,
  STATE,
} from "./interruption.js";
import { type ActionIO, actionLogger } from "./io.js";
import { MAX_JOB_SUMMARY_BYTES } from "./limits.js";
import { requestOf, resolveCommentRequest, unrequestedReport } from "./on-demand.js";
import {
  checkRunReporter,
  logReporter,
  publishFindings,
  type Reporter,
  startReporters,
  workflowCommandReporter,
} from "./reporters.js";

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

/** Usage/config errors, as the CLI (design: 0 pass, 1 fail, 2 usage/config, 3 error). */
const USAGE_EXIT = 2;

/**
 * The PR's labels as they are now (a re-run sees labels added or removed since the event), or undefined when
 * they cannot be read: then no override applies (fail closed).
 */
async function currentLabels(
  client: GitHubClient | undefined,
  ctx: ActionContext,
  pullNumber: number,
  logger: Logger,
): Promise<string[] | undefined> {
  if (!client) return undefined;
  try {
    const labels = await client.paginate(client.rest.issues.listLabelsOnIssue, {
      owner: ctx.owner,
      repo: ctx.repo,
      issue_number: pullNumber,
      per_page: 100,
    });
    return labels.map((l) => l.name);
  } catch (e) {
    logger.warn(
      `cannot read the labels of PR #${pullNumber} (${httpStatus(e) ?? "network"}): no maintainer override applies`,
    );
    return undefined;
  }
}

/** Everything the action did, for tests and the final log line. */
export interface ActionResult {
  exitCode: number;
  report?: Report;
  publishedTo: ("check-run" | "workflow-commands" | "summary" | "comment")[];
}

/** A report for a run that could not evaluate: posted like any other, so the check never stays pending. */
function errorReport(
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

function truncateBytes(text: string, maxBytes: number): string {
  if (Buffer.byteLength(text) <= maxBytes) return text;
  return Buffer.from(text)
    .subarray(0, maxBytes)
    .toString("utf8")
    .replace(/\uFFFD$/, "");
}

function describePlan(plan: RunPlan, ctx: ActionContext): string {
  const repo = `${ctx.owner}/${ctx.repo}`;
  const sha = (s?: string) => (s ? s.slice(0, 7) : "unknown");
  switch (plan.kind) {
    case "pull-request":
      return `pull request #${plan.pullNumber} of ${repo}, head ${sha(plan.headSha)} against base ${sha(plan.baseSha)}`;
    case "merge-group":
      return `merge group ${plan.headRef.replace(/^refs\/heads\//, "")} of ${repo}, head ${sha(plan.headSha)} against base ${sha(plan.baseSha)}`;
    case "push":
      return `push to ${repo} at ${sha(plan.headSha)}`;
    case "sweep":
      return `sweep of ${repo} at ${sha(plan.headSha)}`;
    case "comment":
      return `comment by ${plan.commenter} on pull request #${plan.pullNumber} of ${repo}`;
    case "ignored":
      return `nothing to do (${plan.reason})`;
    case "report":
      return `stored report for ${repo}${plan.pullNumber ? ` #${plan.pullNumber}` : ""} at ${sha(plan.headSha)}`;
  }
}

export async function runAction(deps: ActionDeps): Promise<ActionResult> {
  const { io } = deps;
  const logger = actionLogger(io);
  const now = deps.now ?? (() => new Date());
  const published: ActionResult["publishedTo"] = [];

  let inputs: ActionInputs;
  let ctx: ActionContext;
  let plan: RunPlan;
  try {
    inputs = readInputs(io);
    ctx = readContext(deps.env);
    plan = planRun(ctx, { mode: inputs.mode, allowPullRequestTarget: inputs.allowPullRequestTarget });
  } catch (e) {
    if (!(e instanceof InputError)) throw e;
    io.annotate({ level: "error", message: e.message, file: "", line: 0, title: "skillgate" });
    io.setOutput("verdict", "error");
    return { exitCode: USAGE_EXIT, publishedTo: published };
  }

  // First line: which version is doing what, before any network call can stall.
  io.info(`skillgate ${VERSION}: ${describePlan(plan, ctx)} (mode ${inputs.mode})`);
  const repoDir = resolve(ctx.workspace, inputs.workingDirectory);
  const reportPath = resolve(repoDir, inputs.report);
  const fullReportHint = `${runUrl(ctx) ? `the job summary of ${runUrl(ctx)} and ` : ""}the JSON report (${inputs.report})`;
  const client = inputs.githubToken
    ? (deps.createClient ?? ((t, u, l) => createGitHubClient({ token: t, baseUrl: u, logger: l })))(
        inputs.githubToken,
        ctx.apiUrl,
        logger,
      )
    : undefined;
  // A comment starts an evaluation only as `/skillgate` by a collaborator with write access; anything else is
  // not this workflow's business: no check run, exit 0.
  if (plan.kind === "comment") {
    const resolved = await resolveCommentRequest(plan, client, ctx);
    if (typeof resolved === "string") plan = { kind: "ignored", reason: resolved };
    else {
      plan = resolved;
      io.info(`evaluation requested: ${resolved.requestedBy}`);
    }
  }
  if (plan.kind === "ignored") {
    io.info(`skillgate: ${plan.reason}`);
    return { exitCode: 0, publishedTo: published };
  }
  const headSha = plan.headSha ?? ctx.sha;

  // Reporter chain: check run → workflow-command annotations → log. `evaluate` mode publishes nothing.
  const chain: Reporter[] = [];
  const links: { reviewReport?: string } = {};
  let check: CheckRun | undefined;
  if (inputs.mode !== "evaluate") {
    if (client && headSha) {
      check = new CheckRun(client, {
        owner: ctx.owner,
        repo: ctx.repo,
        headSha,
        name: inputs.checkName,
        detailsUrl: runUrl(ctx),
      });
      chain.push(checkRunReporter(check, { checkName: inputs.checkName, fullReportHint, io, now, links }));
    }
    chain.push(workflowCommandReporter(io), logReporter(io));
  }
  // The report mode posts a finished report: no in-progress phase to show.
  const startedAt = now();
  // Signals are watched before the check run is created: one that arrives while it is being created waits for it.
  const progress: RunProgress = { completed: false };
  const starting = plan.kind === "report" ? Promise.resolve(chain) : startReporters(chain, io);
  const stopWatching = watchSignals(deps, io, check, progress, {
    startedAt,
    started: starting,
    timeoutMinutes: () => jobTimeoutMinutes(ctx.workspace, workflowFile(deps.env), deps.env.GITHUB_JOB),
    runUrl: runUrl(ctx),
  });
  const reporters = await starting;
  // The open check run must not outlive the job: the post step or a signal completes it (interruption.ts).
  if (check?.id !== undefined)
    io.saveState(
      STATE.checkRun,
      JSON.stringify({
        id: check.id,
        name: inputs.checkName,
        owner: ctx.owner,
        repo: ctx.repo,
        headSha,
        startedAt: startedAt.toISOString(),
      } satisfies OpenCheckRun),
    );

  let report: Report;
  let exitOverride: number | undefined;
  try {
    if (plan.kind === "report") {
      const loaded = await loadReports(inputs.reportsFrom.map((p) => resolve(repoDir, p)));
      // An agent matrix's cells, as the trusted checkout's config defines them: each required one must report.
      const { resolvePolicy } = await import("../settings/resolve.js");
      const { matrixCells } = await import("../settings/matrix.js");
      const agents = resolvePolicy(repoDir, undefined, inputs.config).config.agents;
      report = mergeReports(loaded, agents ? { cells: matrixCells(agents) } : {});
      const refused: string[] = [];
      // Reports are artifacts of the run's jobs, downloaded next to the checkout; a committed one is anybody's.
      for (const file of await committedFiles(
        repoDir,
        loaded.map((l) => l.source),
      ))
        refused.push(
          `${file} is a file committed in the repository, not a report uploaded by this workflow's jobs: it is not posted as a verdict`,
        );
      // A report posted from elsewhere must be of the commit the check goes on (fail closed)…
      if (plan.headSha && report.head.sha && report.head.sha !== plan.headSha)
        refused.push(`the report is of commit ${report.head.sha}, not ${plan.headSha} which this run checks`);
      // …made by an unchanged workflow, with a verdict that follows from its trials.
      refused.push(
        ...(await reportDistrust(report, { client, ctx, repoDir, config: inputs.config, logger })),
      );
      if (refused.length) {
        report.verdict = "error";
        report.errors.push(...refused);
      }
    } else report = await evaluate(deps, inputs, ctx, plan, repoDir, client, logger);
  } catch (e) {
    const usage = e instanceof InputError;
    const refused = e instanceof IsolationRefused;
    const message = usage || refused ? (e as Error).message : `skillgate failed: ${(e as Error).stack ?? e}`;
    io.info(`error: ${message}`);
    report = errorReport(
      usage || refused ? (e as Error).message : `skillgate failed: ${(e as Error).message}`,
      ctx,
      headSha,
      plan.kind === "pull-request" || plan.kind === "merge-group" ? { sha: plan.baseSha } : undefined,
    );
    if (refused) report.isolation = e.isolation;
    // Located input errors become annotations on the files they name.
    if (usage) report.diagnostics = e.diagnostics;
    exitOverride = usage ? USAGE_EXIT : deps.exitCodeFor("error");
  }
  if (plan.kind === "pull-request") report.pullRequest = plan.pullNumber;
  if (progress.interrupted) {
    stopWatching();
    return { exitCode: SIGNAL_EXIT[progress.interrupted] ?? 1, report, publishedTo: published };
  }

  // Artifacts first: they are the full record whatever happens to the API calls.
  if (plan.kind !== "report" || inputs.report)
    await writeOut(reportPath, `${JSON.stringify(report, null, 2)}\n`);
  if (inputs.junit) await writeOut(resolve(repoDir, inputs.junit), renderJUnit(report));
  if (inputs.sarif) await writeOut(resolve(repoDir, inputs.sarif), renderSarif(report));
  if (inputs.htmlReport)
    links.reviewReport = await publishReviewReport(deps, inputs.htmlReport, ctx, report, repoDir);

  const summary = renderMarkdown(report, {
    maxChars: MAX_JOB_SUMMARY_BYTES / 2,
    fullReportHint: `the JSON report (${inputs.report})`,
    title: inputs.checkName,
    charts: true,
    ...(links.reviewReport ? { reviewReportUrl: links.reviewReport } : {}),
  });
  await io.appendSummary(truncateBytes(summary, MAX_JOB_SUMMARY_BYTES));
  published.push("summary");

  io.saveState(STATE.verdict, report.verdict);
  progress.verdict = report.verdict;
  for (const name of await publishFindings(reporters, report, io)) if (name !== "log") published.push(name);
  if (published.includes("check-run")) {
    io.saveState(STATE.completed, "true");
    progress.completed = true;
  }
  stopWatching();

  const pullNumber =
    plan.kind === "pull-request"
      ? plan.pullNumber
      : plan.kind === "report" && client && inputs.comment
        ? await reportPullRequest(client, ctx, plan, report, io)
        : undefined;
  if (inputs.comment && client && pullNumber !== undefined && inputs.mode !== "evaluate") {
    try {
      const r = await upsertStickyComment(
        client,
        { owner: ctx.owner, repo: ctx.repo, issueNumber: pullNumber, checkName: inputs.checkName },
        buildCommentBody(report, {
          checkName: inputs.checkName,
          fullReportHint,
          ...(links.reviewReport ? { reviewReportUrl: links.reviewReport } : {}),
        }),
      );
      io.info(`sticky comment ${r.action} (#${r.id})`);
      published.push("comment");
    } catch (e) {
      io.info(
        `warning: could not write the PR comment (${httpStatus(e) ?? "network"}): ${(e as Error).message}`,
      );
    }
  }

  io.setOutput("verdict", report.verdict);
  io.setOutput("report", reportPath);
  if (links.reviewReport) io.setOutput("review-report-url", links.reviewReport);
  io.setOutput("new-roots", String(report.newRoots.length));
  io.setOutput("blocking-roots", String(report.blockingRoots.length));

  const truthful = exitOverride ?? deps.exitCodeFor(report.verdict);
  const exitCode =
    inputs.failOn === "never" ? 0 : inputs.failOn === "error" && report.verdict === "fail" ? 0 : truthful;
  io.info(
    `skillgate: ${report.verdict} (${report.blockingRoots.length} blocking root(s), ${report.newRoots.length} new) → exit ${exitCode}`,
  );
  return { exitCode, report, publishedTo: published };
}

/** A shard's file name carries its shard: artifacts of one run must have distinct names. */
export function reviewReportFile(configured: string, shard: Report["shard"]): string {
  if (!shard) return configured;
  const suffix = `-shard-${shard.index}-of-${shard.total}`;
  return /\.html?$/i.test(configured)
    ? configured.replace(/(\.html?)$/i, `${suffix}$1`)
    : `${configured}${suffix}`;
}

/**
 * Writes the HTML review report (files linked at the head commit on GitHub) and uploads it as an artifact when the
 * runner's results service is there. Returns the artifact's URL; a failed upload is logged, never the run's failure.
 */
async function publishReviewReport(
  deps: ActionDeps,
  configured: string,
  ctx: ActionContext,
  report: Report,
  repoDir: string,
): Promise<string | undefined> {
  const file = resolve(repoDir, reviewReportFile(configured, report.shard));
  const sub = relative(ctx.workspace, repoDir).split("\\").join("/");
  const sha = report.head.sha;
  const blobBase =
    sha && !sub.startsWith("..")
      ? `${ctx.serverUrl.replace(/\/+$/, "")}/${ctx.owner}/${ctx.repo}/blob/${sha}${sub ? `/${sub}` : ""}`
      : undefined;
  await writeOut(file, renderHtml(report, { ...(blobBase ? { blobBase } : {}), redact: redactOutput }));
  if (!artifactsAvailable(deps.env)) {
    deps.io.info(`review report written to ${file} (no artifact service in this step: not uploaded)`);
    return undefined;
  }
  try {
    const id = await (deps.artifacts ?? actionsArtifactUploader).uploadFile(file, dirname(file));
    const url = artifactUrl(ctx, id);
    deps.io.info(`review report uploaded as artifact ${id}${url ? `: ${url}` : ""}`);
    return url;
  } catch (e) {
    deps.io.info(`warning: could not upload the review report (${(e as Error).message}); it is at ${file}`);
    return undefined;
  }
}

/** How far the run got: what an interruption leaves the check run as. */
interface RunProgress {
  verdict?: Verdict;
  completed: boolean;
  /** A signal arrived: its handler owns the check run and the exit from here on. */
  interrupted?: NodeJS.Signals;
}

const SIGNAL_EXIT: Record<string, number> = { SIGINT: 130, SIGTERM: 143 };

/**
 * Completes the open check run when the runner cancels the step (SIGINT, then SIGTERM 7.5 s later): `cancelled`,
 * or `timed_out` when the job ran about as long as its timeout-minutes, or the verdict already reached. Returns
 * the function that stops watching. A second signal while the first is handled changes nothing.
 */
function watchSignals(
  deps: ActionDeps,
  io: ActionIO,
  check: CheckRun | undefined,
  progress: RunProgress,
  o: { startedAt: Date; started: Promise<unknown>; timeoutMinutes: () => number; runUrl?: string },
): () => void {
  const signals = deps.signals ?? process;
  const exit = deps.exit ?? ((code: number) => process.exit(code));
  const now = deps.now ?? (() => new Date());
  let handling = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (handling) return;
    handling = true;
    progress.interrupted = signal;
    io.info(`skillgate: ${signal} received: the job is being cancelled or ran out of time`);
    const finish = async () => {
      await o.started.catch(() => {});
      if (check?.id === undefined || progress.completed) return;
      const timeoutMinutes = o.timeoutMinutes();
      const output = interruptedOutput({
        conclusion: interruptedConclusion({ startedAt: o.startedAt, now: now(), timeoutMinutes }),
        reason: `the step received ${signal}`,
        verdict: progress.verdict,
        timeoutMinutes,
        runUrl: o.runUrl,
      });
      try {
        await check.conclude(output, now());
        io.saveState(STATE.completed, "true");
        io.info(`check run ${check.id} completed: ${output.conclusion}`);
      } catch (e) {
        io.info(
          `warning: could not complete the check run (${httpStatus(e) ?? "network"}); the post step will try again`,
        );
      }
    };
    void finish().finally(() => exit(SIGNAL_EXIT[signal] ?? 1));
  };
  signals.on("SIGINT", onSignal);
  signals.on("SIGTERM", onSignal);
  return () => {
    signals.off("SIGINT", onSignal);
    signals.off("SIGTERM", onSignal);
  };
}

/**
 * The PR a posted report belongs to. `workflow_run.pull_requests` is trusted but empty for forks; then the
 * number recorded in the report is used only if that PR's head is the commit being checked, so a report
 * cannot steer the comment onto another pull request.
 */
async function reportPullRequest(
  client: GitHubClient,
  ctx: ActionContext,
  plan: Extract<RunPlan, { kind: "report" }>,
  report: Report,
  io: ActionIO,
): Promise<number | undefined> {
  if (plan.pullNumber !== undefined) return plan.pullNumber;
  if (report.pullRequest === undefined) return undefined;
  try {
    const { data } = await client.rest.pulls.get({
      owner: ctx.owner,
      repo: ctx.repo,
      pull_number: report.pullRequest,
    });
    if (data.head.sha === plan.headSha) return report.pullRequest;
    io.info(
      `warning: the report names PR #${report.pullRequest}, whose head is ${data.head.sha}, not ${plan.headSha}; not commenting`,
    );
  } catch (e) {
    io.info(`warning: cannot read PR #${report.pullRequest} (${httpStatus(e) ?? "network"}); not commenting`);
  }
  return undefined;
}

/** The text of a file at a commit, through the API (undefined when absent or unreadable). */
async function fileAt(
  client: GitHubClient,
  ctx: ActionContext,
  path: string,
  ref: string,
): Promise<string | undefined> {
  try {
    const { data } = await client.rest.repos.getContent({ owner: ctx.owner, repo: ctx.repo, path, ref });
    if (
      Array.isArray(data) ||
      data.type !== "file" ||
      typeof (data as { content?: unknown }).content !== "string"
    )
      return undefined;
    return Buffer.from((data as { content: string }).content, "base64").toString("utf8");
  } catch {
    return undefined;
  }
}

/**
 * Why a stored report (the fork-safe `workflow_run` half) cannot be posted as it is, one sentence each; empty when
 * it can. A report counts only when the workflow that made it is the base branch's own (a PR that edits it could
 * have written any report), and when its statistical verdict follows from its per-trial evidence under the base's
 * policy (this job's checkout, the default branch).
 */
async function reportDistrust(
  report: Report,
  o: { client?: GitHubClient; ctx: ActionContext; repoDir: string; config?: string; logger: Logger },
): Promise<string[]> {
  const out: string[] = [];
  const wr = o.ctx.payload?.workflow_run;
  // Newer payloads carry workflow_run.path ("….yml@ref"); every payload carries the workflow object's path.
  const rawPath = typeof wr?.path === "string" ? wr.path : o.ctx.payload?.workflow?.path;
  const path = typeof rawPath === "string" ? rawPath.replace(/@.*$/, "") : undefined;
  const made = typeof wr?.head_sha === "string" ? wr.head_sha : undefined;
  // A sweep's merge job (workflow_dispatch, schedule, push) posts the shard reports of its own run: the same
  // workflow at the same commit, started by a maintainer or by the branch, never by a pull request.
  const ownRun = ["workflow_dispatch", "schedule", "push"].includes(o.ctx.eventName);
  // An agent matrix's merge job in a pull request's (or merge group's) own run merges its cell jobs' reports:
  // made by this run's workflow, the same one whose evaluate job would otherwise post (and whose change in a PR
  // each cell's report names as a blocking policy root).
  const ownMatrixRun = ["pull_request", "merge_group"].includes(o.ctx.eventName) && !!report.matrix && !wr;
  if (ownRun) o.logger.info(`merging the shard reports of this ${o.ctx.eventName} run`);
  else if (ownMatrixRun) o.logger.info(`merging the cell reports of this ${o.ctx.eventName} run`);
  else if (path && made) {
    if (!o.client) out.push(`cannot compare ${path} of ${made.slice(0, 7)} with the base branch's: no token`);
    else {
      const [theirs, ours] = await Promise.all([
        fileAt(o.client, o.ctx, path, made),
        fileAt(o.client, o.ctx, path, o.ctx.sha),
      ]);
      if (theirs === undefined || ours === undefined)
        out.push(
          `cannot read ${path} at ${made.slice(0, 7)} and at the base branch (${o.ctx.sha.slice(0, 7)}) to compare them`,
        );
      else if (theirs !== ours)
        out.push(
          `the report was made by ${path} as the pull request changed it (${made.slice(0, 7)}), not the base branch's: a workflow the PR controls can write any report, so it is not posted as a verdict`,
        );
    }
  } else
    out.push(
      `the ${o.ctx.eventName} event names no workflow run (workflow_run.path and head_sha): the report's origin is unknown`,
    );
  const { resolvePolicy } = await import("../settings/resolve.js");
  const { DEFAULT_VERDICT_POLICY } = await import("../verdict/policy.js");
  const { evidenceDisagreements } = await import("../verdict/recompute.js");
  const { cellAlpha, matrixCells } = await import("../settings/matrix.js");
  const { config } = resolvePolicy(o.repoDir, undefined, o.config);
  const policy = { ...DEFAULT_VERDICT_POLICY, ...config.verdict };
  const cells = config.agents ? { alpha: cellAlpha(policy.alpha, matrixCells(config.agents)) } : undefined;
  const disagreements = evidenceDisagreements(report, policy, cells);
  if (disagreements.length)
    out.push(
      `the report's verdict does not follow from its trials under the base's policy: ${disagreements.slice(0, 5).join("; ")}${disagreements.length > 5 ? ` (+${disagreements.length - 5} more)` : ""}`,
    );
  for (const line of out) o.logger.warn(line);
  return out;
}

async function writeOut(path: string, text: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, redactOutput(text));
}

/** The files a change touches: the PR's listing from the API, else (beyond its cap, or a merge group) from git. */
async function changedFilesOf(
  plan: Extract<RunPlan, { kind: "pull-request" | "merge-group" }>,
  ctx: ActionContext,
  repoDir: string,
  client: GitHubClient | undefined,
  logger: Logger,
): Promise<string[]> {
  if (plan.kind === "pull-request" && client) {
    try {
      const r = await listChangedFiles(client, {
        owner: ctx.owner,
        repo: ctx.repo,
        pullNumber: plan.pullNumber,
        expectedCount: plan.changedFilesCount,
      });
      if (r.complete) return changedPaths(r.files);
      logger.info(
        `the PR lists ${plan.changedFilesCount ?? "≥ 3000"} files, more than the API returns; reading the change from git`,
      );
    } catch (e) {
      logger.warn(`pulls.listFiles failed (${httpStatus(e) ?? "network"}); reading the change from git`);
    }
  }
  return changedPaths(
    await gitChangedFiles(repoDir, plan.baseSha, plan.headSha, { log: (m) => logger.info(m) }),
  );
}

async function evaluate(
  deps: ActionDeps,
  inputs: ActionInputs,
  ctx: ActionContext,
  plan: Exclude<RunPlan, { kind: "report" }>,
  repoDir: string,
  client: GitHubClient | undefined,
  logger: Logger,
): Promise<Report> {
  // A pull request, or a merge queue's group: head against a base, only what the change touches.
  const change = plan.kind === "pull-request" || plan.kind === "merge-group" ? plan : undefined;
  let changedFiles: string[] | undefined;
  let base = inputs.base;
  if (change) {
    base ??= change.baseSha;
    changedFiles = await changedFilesOf(change, ctx, repoDir, client, logger);
    logger.info(
      `${changedFiles.length} changed file(s) in ${change.kind === "pull-request" ? `PR #${change.pullNumber}` : `the merge group ${change.headRef}`}`,
    );
  }
  const settings = await deps.resolveSettings(
    {
      repo: repoDir,
      config: inputs.config,
      agent: inputs.agent,
      cells: inputs.cell,
      trials: inputs.trials,
      skills: inputs.skills,
      shard: inputs.shard,
      base: change ? base : inputs.base,
      // The change's head, whatever the checkout holds: the base is its merge base with the base branch.
      ...(change ? { head: change.headSha } : {}),
      seed: inputs.seed,
      changedFiles,
    },
    logger,
  );
  if (change) {
    // The workflow that runs skillgate is policy too: its inputs are trusted only as the base branch has them.
    const workflow = workflowFile(deps.env);
    const workflowChanged = !!workflow && !!changedFiles?.includes(workflow);
    const what = change.kind === "pull-request" ? "this PR" : "this merge group";
    if (workflowChanged)
      settings.policy.changes.push({
        id: "policy/workflow",
        key: "workflow",
        kind: "loosened",
        message: `${what} changes ${workflow}, the workflow that runs skillgate: its inputs (agent, trials, base, fail-on …) are the PR's, not the base branch's, so the verdict cannot be trusted without a maintainer's approval`,
        file: workflow,
        line: 1,
        column: 1,
      });
    const label = settings.policy.overrideLabel;
    // A merge group counts the labels of the PR it was made for (named in its head ref), read fresh.
    const labels =
      change.pullNumber !== undefined
        ? await currentLabels(client, ctx, change.pullNumber, logger)
        : undefined;
    // Label-gated cells of an agent matrix run only with their label (unreadable labels: every cell runs).
    if (settings.matrix && labels) settings.matrix.labels = labels;
    if (labels?.includes(label)) settings.override = { by: `label "${label}" on PR #${change.pullNumber}` };
    else if (inputs.allowWeakening && !workflowChanged)
      settings.override = {
        by: `the workflow input allow-weakening of ${workflow ?? "the base branch's workflow"}`,
      };
    else if (inputs.allowWeakening)
      logger.warn(`allow-weakening is ignored: ${what} changes the workflow that sets it`);
    // On-demand (the base's config): without the label or a collaborator's /skillgate, nothing runs; the check
    // says what would run and cost. A merge group is the last gate before the branch: it always runs.
    const onDemand = settings.config?.onDemand;
    if (onDemand && plan.kind === "pull-request") {
      const by = requestOf(onDemand, plan, labels);
      if (by && plan.requestedBy && headShaOf(repoDir) !== plan.headSha)
        throw new InputError(
          `the checkout (${working(repoDir)}) is not the head of pull request #${plan.pullNumber} (${plan.headSha}): a /skillgate run must check out refs/pull/${plan.pullNumber}/head (examples/workflows/skillgate-on-demand.yml)`,
        );
      if (!by) {
        if (!deps.forecastPipeline) throw new Error("on-demand: no forecast stage wired into the action");
        const { forecast, scope } = await deps.forecastPipeline(settings);
        const report = unrequestedReport(errorReport("", ctx, plan.headSha), onDemand, forecast, scope);
        report.errors = [];
        report.policy = { origin: settings.policy.origin, roots: [] };
        logger.info(report.onDemand!.message);
        return report;
      }
      logger.info(`on-demand evaluation requested by ${by}`);
    }
  } else if (inputs.allowWeakening) settings.override = { by: "the workflow input allow-weakening" };
  // On a runner, untrusted code must be confined at the strongest level unless the base's config accepts less.
  settings.isolation = { required: true, allowWeaker: settings.isolation?.allowWeaker ?? false };
  // A change (PR or merge group) reads the trials the default branch's runs saved and writes none
  // (src/run/cache-actions.ts).
  const cacheAccess: CacheAccess = change
    ? {
        kind: "read-only",
        verify: async () => {
          const { trialCacheKeys } = await import("../run/cache-actions.js");
          const scope =
            change.kind === "pull-request"
              ? change.pullNumber
              : { ref: change.headRef.startsWith("refs/") ? change.headRef : `refs/heads/${change.headRef}` };
          return distrustPullRequestCaches(client, ctx, scope, trialCacheKeys().restoreKeys[0]!);
        },
      }
    : { kind: "read-write" };
  const report = await deps.runPipeline(settings, { cacheAccess });
  // The check run belongs on the change's head, whatever commit the checkout holds.
  if (change) report.head = { ...report.head, sha: change.headSha };
  return report;
}

function working(repoDir: string): string {
  return headShaOf(repoDir) ?? `${repoDir}, not a git checkout`;
}
