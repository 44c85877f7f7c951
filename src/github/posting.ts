/**
 * Where the verdict is posted: the reporter chain (check run → workflow-command annotations → log), opened before
 * the evaluation so the check shows `in_progress`, recorded for the `post:` step, watched for cancellation, and
 * closed by publishing the report's findings. `evaluate` mode posts nothing; `report` mode has no in-progress phase.
 */
import type { Report } from "../model/report.js";
import type { ActionDeps, ActionResult } from "./action-deps.js";
import { CheckRun } from "./check-run.js";
import type { GitHubClient } from "./client.js";
import { type ActionContext, type RunPlan, runUrl, workflowFile } from "./context.js";
import type { ActionInputs } from "./inputs.js";
import { jobTimeoutMinutes, type OpenCheckRun, STATE } from "./interruption.js";
import {
  checkRunReporter,
  logReporter,
  publishFindings,
  type Reporter,
  startReporters,
  workflowCommandReporter,
} from "./reporters.js";
import { type RunProgress, watchSignals } from "./signals.js";

/** An open reporter chain: the links its reporters show, how far the run got, and the way to close it. */
export interface Posting {
  /** Filled in once the review report is uploaded, before the findings are published. */
  links: { reviewReport?: string };
  progress: RunProgress;
  /** Publishes the report's findings; returns where they went (the log not counted). */
  publish(report: Report): Promise<ActionResult["publishedTo"]>;
  stopWatching(): void;
}

interface PostingTarget {
  inputs: ActionInputs;
  ctx: ActionContext;
  plan: Exclude<RunPlan, { kind: "comment" | "ignored" }>;
  client: GitHubClient | undefined;
  headSha: string;
  fullReportHint: string;
}

/** Opens the chain: the check run created `in_progress`, saved for the post step, signals watched. */
export async function openPosting(deps: ActionDeps, t: PostingTarget): Promise<Posting> {
  const { io } = deps;
  const now = deps.now ?? (() => new Date());
  const links: Posting["links"] = {};
  const { chain, check } = reporterChain(deps, t, links);
  const startedAt = now();
  // Signals are watched before the check run is created: one that arrives while it is being created waits for it.
  const progress: RunProgress = { completed: false };
  const starting = t.plan.kind === "report" ? Promise.resolve(chain) : startReporters(chain, io);
  const stopWatching = watchSignals({
    io,
    check,
    progress,
    startedAt,
    started: starting,
    timeoutMinutes: () => jobTimeoutMinutes(t.ctx.workspace, workflowFile(deps.env), deps.env.GITHUB_JOB),
    runUrl: runUrl(t.ctx),
    ...(deps.signals ? { signals: deps.signals } : {}),
    ...(deps.exit ? { exit: deps.exit } : {}),
    ...(deps.now ? { now: deps.now } : {}),
  });
  const reporters = await starting;
  // The open check run must not outlive the job: the post step or a signal completes it (interruption.ts).
  if (check?.id !== undefined)
    io.saveState(
      STATE.checkRun,
      JSON.stringify({
        id: check.id,
        name: t.inputs.checkName,
        owner: t.ctx.owner,
        repo: t.ctx.repo,
        headSha: t.headSha,
        startedAt: startedAt.toISOString(),
      } satisfies OpenCheckRun),
    );
  const publish = async (report: Report) => {
    io.saveState(STATE.verdict, report.verdict);
    progress.verdict = report.verdict;
    const used = (await publishFindings(reporters, report, io)).filter((name) => name !== "log");
    if (used.includes("check-run")) {
      io.saveState(STATE.completed, "true");
      progress.completed = true;
    }
    return used as ActionResult["publishedTo"];
  };
  return { links, progress, publish, stopWatching };
}

/** The chain for this run: a check run when there is a token and a commit, then annotations, then the log. */
function reporterChain(
  deps: ActionDeps,
  t: PostingTarget,
  links: Posting["links"],
): { chain: Reporter[]; check?: CheckRun } {
  const chain: Reporter[] = [];
  if (t.inputs.mode === "evaluate") return { chain };
  let check: CheckRun | undefined;
  if (t.client && t.headSha) {
    check = new CheckRun(t.client, {
      owner: t.ctx.owner,
      repo: t.ctx.repo,
      headSha: t.headSha,
      name: t.inputs.checkName,
      detailsUrl: runUrl(t.ctx),
    });
    chain.push(
      checkRunReporter(check, {
        checkName: t.inputs.checkName,
        fullReportHint: t.fullReportHint,
        io: deps.io,
        now: deps.now ?? (() => new Date()),
        links,
      }),
    );
  }
  chain.push(workflowCommandReporter(deps.io), logReporter(deps.io));
  return { chain, ...(check ? { check } : {}) };
}
