/**
 * `report` mode, the fork-safe `workflow_run` half (and a sweep's or matrix's merge job): reports made by other
 * jobs are merged and posted only when their origin is trusted and their verdict follows from their trials under
 * the base's policy; anything else is posted as an error that says why.
 */
import { resolve } from "node:path";
import type { Report } from "../model/report.js";
import type { Logger } from "../model/settings.js";
import { loadReports } from "../report/load.js";
import { mergeReports } from "../report/merge.js";
import { committedFiles } from "./changed-files.js";
import { type GitHubClient, httpStatus } from "./client.js";
import type { ActionContext, RunPlan } from "./context.js";
import type { ActionInputs } from "./inputs.js";
import type { ActionIO } from "./io.js";

type ReportPlan = Extract<RunPlan, { kind: "report" }>;

/** The stored reports merged; `verdict: "error"` with the reasons when they cannot be posted as they are. */
export async function loadStoredReport(o: {
  inputs: ActionInputs;
  ctx: ActionContext;
  plan: ReportPlan;
  repoDir: string;
  client: GitHubClient | undefined;
  logger: Logger;
}): Promise<Report> {
  const { inputs, repoDir } = o;
  const loaded = await loadReports(inputs.reportsFrom.map((p) => resolve(repoDir, p)));
  // An agent matrix's cells, as the trusted checkout's config defines them: each required one must report.
  const { resolvePolicy } = await import("../settings/resolve.js");
  const { matrixCells } = await import("../settings/matrix.js");
  const agents = resolvePolicy(repoDir, undefined, inputs.config).config.agents;
  const report = mergeReports(loaded, agents ? { cells: matrixCells(agents) } : {});
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
  if (o.plan.headSha && report.head.sha && report.head.sha !== o.plan.headSha)
    refused.push(`the report is of commit ${report.head.sha}, not ${o.plan.headSha} which this run checks`);
  // …made by an unchanged workflow, with a verdict that follows from its trials.
  refused.push(...(await reportDistrust(report, { ...o, config: inputs.config })));
  if (refused.length) {
    report.verdict = "error";
    report.errors.push(...refused);
  }
  return report;
}

/**
 * The PR a posted report belongs to. `workflow_run.pull_requests` is trusted but empty for forks; then the
 * number recorded in the report is used only if that PR's head is the commit being checked, so a report
 * cannot steer the comment onto another pull request.
 */
export async function reportPullRequest(
  client: GitHubClient,
  ctx: ActionContext,
  plan: ReportPlan,
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

interface DistrustContext {
  client?: GitHubClient | undefined;
  ctx: ActionContext;
  repoDir: string;
  config?: string | undefined;
  logger: Logger;
}

/**
 * Why a stored report cannot be posted as it is, one sentence each; empty when it can. A report counts only when
 * the workflow that made it is the base branch's own (a PR that edits it could have written any report), and when
 * its statistical verdict follows from its per-trial evidence under the base's policy (this job's checkout, the
 * default branch).
 */
async function reportDistrust(report: Report, o: DistrustContext): Promise<string[]> {
  const out = await originDistrust(report, o);
  out.push(...(await evidenceDistrust(report, o)));
  for (const line of out) o.logger.warn(line);
  return out;
}

/** Whether the workflow that made the report is this run's own, or the base branch's unchanged. */
async function originDistrust(report: Report, o: DistrustContext): Promise<string[]> {
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
  else if (path && made) return workflowChangeDistrust(path, made, o);
  else
    return [
      `the ${o.ctx.eventName} event names no workflow run (workflow_run.path and head_sha): the report's origin is unknown`,
    ];
  return [];
}

/** Whether workflow `path` at `made` (the run that made the report) is the base branch's. */
async function workflowChangeDistrust(path: string, made: string, o: DistrustContext): Promise<string[]> {
  if (!o.client) return [`cannot compare ${path} of ${made.slice(0, 7)} with the base branch's: no token`];
  const [theirs, ours] = await Promise.all([
    fileAt(o.client, o.ctx, path, made),
    fileAt(o.client, o.ctx, path, o.ctx.sha),
  ]);
  if (theirs === undefined || ours === undefined)
    return [
      `cannot read ${path} at ${made.slice(0, 7)} and at the base branch (${o.ctx.sha.slice(0, 7)}) to compare them`,
    ];
  if (theirs !== ours)
    return [
      `the report was made by ${path} as the pull request changed it (${made.slice(0, 7)}), not the base branch's: a workflow the PR controls can write any report, so it is not posted as a verdict`,
    ];
  return [];
}

/** Whether the report's verdict follows from its trials under the base's policy. */
async function evidenceDistrust(report: Report, o: DistrustContext): Promise<string[]> {
  const { resolvePolicy } = await import("../settings/resolve.js");
  const { DEFAULT_VERDICT_POLICY } = await import("../settings/defaults.js");
  const { evidenceDisagreements } = await import("../verdict/recompute.js");
  const { cellAlpha, matrixCells } = await import("../settings/matrix.js");
  const { config } = resolvePolicy(o.repoDir, undefined, o.config);
  const policy = { ...DEFAULT_VERDICT_POLICY, ...config.verdict };
  const cells = config.agents ? { alpha: cellAlpha(policy.alpha, matrixCells(config.agents)) } : undefined;
  const disagreements = evidenceDisagreements(report, policy, cells);
  if (!disagreements.length) return [];
  return [
    `the report's verdict does not follow from its trials under the base's policy: ${disagreements.slice(0, 5).join("; ")}${disagreements.length > 5 ? ` (+${disagreements.length - 5} more)` : ""}`,
  ];
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
