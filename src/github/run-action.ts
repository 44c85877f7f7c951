/**
 * The action's main step, as a sequence: read the inputs and the event, open the reporter chain, evaluate (or
 * load a stored report), write the report files and the job summary, publish the findings, comment, set the
 * outputs. Each step lives in the helper named for its concern; this file only orders them.
 */
import { resolve } from "node:path";
import { InputError } from "../model/diagnostics.js";
import type { Report } from "../model/report.js";
import type { Logger } from "../model/settings.js";
import { VERSION } from "../version.js";
import { type ActionDeps, type ActionResult, USAGE_EXIT } from "./action-deps.js";
import { createGitHubClient, type GitHubClient } from "./client.js";
import { commentOnPullRequest } from "./comment.js";
import { type ActionContext, describePlan, planRun, type RunPlan, readContext, runUrl } from "./context.js";
import { failureReport } from "./error-report.js";
import { evaluate } from "./evaluate.js";
import { type ActionInputs, readInputs } from "./inputs.js";
import { type ActionIO, actionLogger } from "./io.js";
import { resolveCommentRequest } from "./on-demand.js";
import { openPosting, type Posting } from "./posting.js";
import { writeReportFiles } from "./report-files.js";
import { SIGNAL_EXIT } from "./signals.js";
import { loadStoredReport, reportPullRequest } from "./stored-report.js";
import { writeJobSummary } from "./summary.js";

export type { ActionDeps, ActionResult, EvaluationContext, SignalSource } from "./action-deps.js";

type PostedPlan = Exclude<RunPlan, { kind: "comment" | "ignored" }>;

/** One run of the action: what it knows once the inputs and the event are read. */
interface ActionRun<Plan extends RunPlan = PostedPlan> {
  deps: ActionDeps;
  io: ActionIO;
  logger: Logger;
  inputs: ActionInputs;
  ctx: ActionContext;
  plan: Plan;
  client: GitHubClient | undefined;
  repoDir: string;
  reportPath: string;
  fullReportHint: string;
}

export async function runAction(deps: ActionDeps): Promise<ActionResult> {
  const read = readRun(deps);
  if ("exitCode" in read) return read;
  // Only a comment waits for the API here: every other event opens its check run (and watches signals) at once.
  const plan = read.plan.kind === "comment" ? await resolveComment(read, read.plan) : read.plan;
  if (plan.kind === "ignored") {
    read.io.info(`skillgate: ${plan.reason}`);
    return { exitCode: 0, publishedTo: [] };
  }
  const run: ActionRun = { ...read, plan };
  const { io, inputs, ctx } = run;
  const headSha = plan.headSha ?? ctx.sha;
  const posting = await openPosting(deps, { ...run, headSha });
  const { report, exitOverride } = await produceReport(run, headSha);
  if (plan.kind === "pull-request") report.pullRequest = plan.pullNumber;
  if (posting.progress.interrupted) {
    posting.stopWatching();
    return { exitCode: SIGNAL_EXIT[posting.progress.interrupted] ?? 1, report, publishedTo: [] };
  }
  // Artifacts first: they are the full record whatever happens to the API calls.
  posting.links.reviewReport = await writeReportFiles(deps, {
    ...run,
    report,
    stored: plan.kind === "report",
  });
  await writeJobSummary(io, report, inputs, posting.links.reviewReport);
  const published: ActionResult["publishedTo"] = ["summary", ...(await posting.publish(report))];
  posting.stopWatching();
  if (await postComment(run, report, posting)) published.push("comment");
  setOutputs(run, report, posting.links.reviewReport);
  const truthful = exitOverride ?? deps.exitCodeFor(report.verdict);
  const exitCode =
    inputs.failOn === "never" ? 0 : inputs.failOn === "error" && report.verdict === "fail" ? 0 : truthful;
  io.info(
    `skillgate: ${report.verdict} (${report.blockingRoots.length} blocking root(s), ${report.newRoots.length} new) → exit ${exitCode}`,
  );
  return { exitCode, report, publishedTo: published };
}

/**
 * Inputs, event and plan read; the first log line; the API client. Synchronous: a signal that arrives right
 * after the step starts finds the check run's watch in place. Returns the result itself on bad input (exit 2).
 */
function readRun(deps: ActionDeps): ActionRun<RunPlan> | ActionResult {
  const { io } = deps;
  const logger = actionLogger(io);
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
    return { exitCode: USAGE_EXIT, publishedTo: [] };
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
  return { deps, io, logger, inputs, ctx, plan, client, repoDir, reportPath, fullReportHint };
}

/**
 * A comment starts an evaluation only as `/skillgate` by a collaborator with write access; anything else is not
 * this workflow's business: no check run, exit 0.
 */
async function resolveComment(
  run: ActionRun<RunPlan>,
  plan: Extract<RunPlan, { kind: "comment" }>,
): Promise<Exclude<RunPlan, { kind: "comment" }>> {
  const resolved = await resolveCommentRequest(plan, run.client, run.ctx);
  if (typeof resolved === "string") return { kind: "ignored", reason: resolved };
  run.io.info(`evaluation requested: ${resolved.requestedBy}`);
  return resolved;
}

/** The report to post: a stored one (report mode) or an evaluation's; whatever is thrown, an error report. */
async function produceReport(
  run: ActionRun,
  headSha: string,
): Promise<{ report: Report; exitOverride?: number }> {
  const { plan } = run;
  try {
    if (plan.kind === "report") return { report: await loadStoredReport({ ...run, plan }) };
    return { report: await evaluate(run.deps, { ...run, plan }) };
  } catch (e) {
    const change = plan.kind === "pull-request" || plan.kind === "merge-group";
    const { report, exitCode } = failureReport(e, {
      io: run.io,
      ctx: run.ctx,
      headSha,
      ...(change ? { base: { sha: plan.baseSha } } : {}),
      exitCodeFor: run.deps.exitCodeFor,
    });
    return { report, exitOverride: exitCode };
  }
}

/** The sticky comment on the PR the report is about (`comment: true`; never in `evaluate` mode). */
async function postComment(run: ActionRun, report: Report, posting: Posting): Promise<boolean> {
  const { plan, client, inputs } = run;
  const pullNumber =
    plan.kind === "pull-request"
      ? plan.pullNumber
      : plan.kind === "report" && client && inputs.comment
        ? await reportPullRequest(client, run.ctx, plan, report, run.io)
        : undefined;
  if (!inputs.comment || !client || pullNumber === undefined || inputs.mode === "evaluate") return false;
  return commentOnPullRequest(
    client,
    { owner: run.ctx.owner, repo: run.ctx.repo, issueNumber: pullNumber, checkName: inputs.checkName },
    report,
    { fullReportHint: run.fullReportHint, reviewReportUrl: posting.links.reviewReport, io: run.io },
  );
}

function setOutputs(run: ActionRun, report: Report, reviewReportUrl: string | undefined): void {
  const { io } = run;
  io.setOutput("verdict", report.verdict);
  io.setOutput("report", run.reportPath);
  if (reviewReportUrl) io.setOutput("review-report-url", reviewReportUrl);
  io.setOutput("new-roots", String(report.newRoots.length));
  io.setOutput("blocking-roots", String(report.blockingRoots.length));
}
