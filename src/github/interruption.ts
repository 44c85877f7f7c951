/**
 * A required check must never stay `in_progress`: a job that is cancelled, or runs past its `timeout-minutes`,
 * would leave the check run pending forever and block the PR (and any merge queue) until someone re-runs it.
 * The main step records the check run it opened (`saveState`); whoever ends first completes it: the main step on
 * SIGINT/SIGTERM (the runner sends SIGINT, then SIGTERM 7.5 s later, then kills the process tree 2.5 s after
 * that), or the `post:` step (dist/post.js, `post-if: always()`) when the main step was killed before it could.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";
import type { Verdict } from "../model/report.js";

/** Names of the values the main step hands to the post step. */
export const STATE = {
  /** JSON `OpenCheckRun`: the check run the main step created `in_progress`. */
  checkRun: "check-run",
  /** `true` once the main step completed the check run (nothing left for the post step). */
  completed: "check-run-completed",
  /** The verdict the main step reached, when it reached one but could not post it. */
  verdict: "verdict",
} as const;

export interface OpenCheckRun {
  id: number;
  name: string;
  owner: string;
  repo: string;
  headSha: string;
  /** When the main step started (ISO): how long the job had run when it ended. */
  startedAt: string;
}

export function parseOpenCheckRun(text: string): OpenCheckRun | undefined {
  if (!text) return undefined;
  try {
    const v = JSON.parse(text) as Partial<OpenCheckRun>;
    return typeof v.id === "number" &&
      typeof v.name === "string" &&
      typeof v.owner === "string" &&
      typeof v.repo === "string" &&
      typeof v.headSha === "string" &&
      typeof v.startedAt === "string"
      ? (v as OpenCheckRun)
      : undefined;
  } catch {
    return undefined;
  }
}

/** GitHub's default `timeout-minutes` of a job. */
export const DEFAULT_JOB_TIMEOUT_MINUTES = 360;

/**
 * The running job's `timeout-minutes`, read from its workflow file (`jobs.<GITHUB_JOB>.timeout-minutes`); GitHub's
 * default when the file, the job or a literal number is not there (an expression cannot be evaluated here).
 */
export function jobTimeoutMinutes(
  workspace: string,
  workflowPath: string | undefined,
  jobId: string | undefined,
): number {
  if (!workflowPath || !jobId) return DEFAULT_JOB_TIMEOUT_MINUTES;
  try {
    const workflow = parse(readFileSync(join(workspace, workflowPath), "utf8")) as {
      jobs?: Record<string, { "timeout-minutes"?: unknown }>;
    };
    const minutes = workflow?.jobs?.[jobId]?.["timeout-minutes"];
    return typeof minutes === "number" && minutes > 0 ? minutes : DEFAULT_JOB_TIMEOUT_MINUTES;
  } catch {
    return DEFAULT_JOB_TIMEOUT_MINUTES;
  }
}

/**
 * `timed_out` when the job has run about as long as its `timeout-minutes`, else `cancelled`. Time is counted from
 * the main step's start, which comes after the job's (checkout, installing the agent CLI), so a margin of 5 % of
 * the timeout (at least 2 minutes) covers those steps; the runner does not say which of the two it was.
 */
export function interruptedConclusion(o: {
  startedAt: Date;
  now: Date;
  timeoutMinutes: number;
}): "cancelled" | "timed_out" {
  const timeoutMs = o.timeoutMinutes * 60_000;
  const marginMs = Math.max(2 * 60_000, timeoutMs * 0.05);
  return o.now.getTime() - o.startedAt.getTime() >= timeoutMs - marginMs ? "timed_out" : "cancelled";
}

export interface InterruptedOutput {
  conclusion: "cancelled" | "timed_out" | "failure";
  title: string;
  summary: string;
}

/**
 * What the check run says when the job ended before skillgate posted its results. An interruption never concludes
 * `success`, whatever verdict was reached: the state the post step reads sits in a file that code run during the
 * job could write, and a pass that was not posted is not a pass.
 */
export function interruptedOutput(o: {
  conclusion: "cancelled" | "timed_out";
  reason: string;
  /** The verdict reached before the end, if any. */
  verdict?: Verdict;
  timeoutMinutes: number;
  runUrl?: string;
}): InterruptedOutput {
  const where = o.runUrl ? ` See ${o.runUrl}.` : "";
  if (o.verdict === "fail" || o.verdict === "error")
    return {
      conclusion: "failure",
      title: `skillgate: ${o.verdict} (results not posted)`,
      summary: `skillgate reached the verdict **${o.verdict}** but could not post its results (${o.reason}).${where} The job summary and the JSON report have the details.`,
    };
  return o.conclusion === "timed_out"
    ? {
        conclusion: "timed_out",
        title: "skillgate: timed out",
        summary: `The job ran into its time limit (timeout-minutes: ${o.timeoutMinutes}) before skillgate finished (${o.reason}). Raise \`timeout-minutes\`, lower \`trials\`, or shard the run, then re-run the job.${where}`,
      }
    : {
        conclusion: "cancelled",
        title: "skillgate: cancelled",
        summary: `The job was cancelled before skillgate finished posting (${o.reason}). Nothing was decided: re-run the job for a verdict.${where}`,
      };
}
