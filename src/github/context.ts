/** The run's context: what the runner says about it (environment, event payload) and what skillgate does with it. */
import { readFileSync } from "node:fs";
import { InputError } from "../model/diagnostics.js";

/** What the runner tells us about the run (env + event payload). */
export interface ActionContext {
  eventName: string;
  owner: string;
  repo: string;
  /** `GITHUB_SHA`: for `pull_request` this is the test merge commit, never where the check run goes. */
  sha: string;
  apiUrl: string;
  serverUrl: string;
  runId?: string;
  workspace: string;
  // biome-ignore lint/suspicious/noExplicitAny: webhook payloads are read defensively, field by field.
  payload: any;
}

export function readContext(env: Record<string, string | undefined>): ActionContext {
  const need = (name: string) => {
    const v = env[name];
    if (!v)
      throw new InputError(`${name} is not set: run skillgate as a GitHub Action step (or use the CLI)`);
    return v;
  };
  const [owner, repo] = need("GITHUB_REPOSITORY").split("/");
  if (!owner || !repo)
    throw new InputError(
      `GITHUB_REPOSITORY must be "owner/repo", got ${JSON.stringify(env.GITHUB_REPOSITORY)}`,
    );
  let payload: unknown = {};
  const eventPath = env.GITHUB_EVENT_PATH;
  if (eventPath) {
    try {
      payload = JSON.parse(readFileSync(eventPath, "utf8"));
    } catch (e) {
      throw new InputError(`${eventPath}:1:1: cannot read the event payload: ${(e as Error).message}`);
    }
  }
  return {
    eventName: need("GITHUB_EVENT_NAME"),
    owner,
    repo,
    sha: env.GITHUB_SHA ?? "",
    apiUrl: env.GITHUB_API_URL || "https://api.github.com",
    serverUrl: env.GITHUB_SERVER_URL || "https://github.com",
    runId: env.GITHUB_RUN_ID,
    workspace: env.GITHUB_WORKSPACE || process.cwd(),
    payload,
  };
}

/** The running workflow file, repository-relative, from `GITHUB_WORKFLOW_REF` (`owner/repo/<path>@<ref>`). */
export function workflowFile(env: Record<string, string | undefined>): string | undefined {
  const ref = env.GITHUB_WORKFLOW_REF;
  if (!ref) return undefined;
  const at = ref.lastIndexOf("@");
  const path = (at >= 0 ? ref.slice(0, at) : ref).split("/").slice(2).join("/");
  return path || undefined;
}

export function runUrl(
  ctx: Pick<ActionContext, "serverUrl" | "owner" | "repo" | "runId">,
): string | undefined {
  return ctx.runId ? `${ctx.serverUrl}/${ctx.owner}/${ctx.repo}/actions/runs/${ctx.runId}` : undefined;
}

/** What this run does, decided from the event and the `mode` input. */
export type RunPlan =
  | {
      kind: "pull-request";
      headSha: string;
      baseSha: string;
      pullNumber: number;
      changedFilesCount?: number;
      labels: string[];
      /** An on-demand request that started this run (a `/skillgate` comment by a collaborator). */
      requestedBy?: string;
    }
  | {
      /** A PR comment: evaluated only when it is `/skillgate` by a collaborator with write access. */
      kind: "comment";
      pullNumber: number;
      commenter: string;
      body: string;
    }
  | { kind: "ignored"; reason: string }
  | {
      /** A merge queue's merge group: its head against its base (the queue's previous entry or the branch). */
      kind: "merge-group";
      headSha: string;
      baseSha: string;
      headRef: string;
      /** The pull request the group was made for (`…/pr-<n>-<sha>` in its head ref): whose labels count. */
      pullNumber?: number;
    }
  | { kind: "push"; headSha: string }
  | { kind: "sweep"; headSha: string }
  | { kind: "report"; headSha?: string; pullNumber?: number };

/** The run in one line, for the action's first log line. */
export function describePlan(plan: RunPlan, ctx: ActionContext): string {
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

export type Mode = "auto" | "evaluate" | "report";

/** Thrown when the event must not be evaluated; the message says why and what to do instead. */
class RefusedEventError extends InputError {
  override name = "RefusedEventError";
}

const PULL_REQUEST_TARGET_REFUSAL =
  "skillgate refuses to evaluate pull request code under `pull_request_target`: that event runs with a write token " +
  "and the repository's secrets, and evaluating a skill runs code the PR controls (its eval suite, oracle and the " +
  "modules the agent writes from its instructions), so a fork could act with your token. Evaluate on " +
  "`pull_request` and post from `workflow_run` (examples/workflows/skillgate-fork-safe-*.yml), or set " +
  "`allow-pull-request-target: true` if this workflow checks out only trusted code.";

export function planRun(ctx: ActionContext, o: { mode: Mode; allowPullRequestTarget: boolean }): RunPlan {
  const p = ctx.payload ?? {};
  if (o.mode === "report") {
    const wr = p.workflow_run;
    return {
      kind: "report",
      headSha: wr?.head_sha ?? p.pull_request?.head?.sha ?? (ctx.sha || undefined),
      pullNumber: wr?.pull_requests?.[0]?.number ?? p.pull_request?.number,
    };
  }
  if (ctx.eventName === "pull_request_target" && !o.allowPullRequestTarget)
    throw new RefusedEventError(PULL_REQUEST_TARGET_REFUSAL);
  switch (ctx.eventName) {
    case "pull_request_target": // explicitly allowed
    case "pull_request": {
      const pr = p.pull_request;
      if (!pr?.head?.sha || !pr?.base?.sha || typeof pr.number !== "number")
        throw new InputError(
          `the ${ctx.eventName} event payload has no pull_request.head.sha / base.sha / number`,
        );
      return {
        kind: "pull-request",
        headSha: pr.head.sha,
        baseSha: pr.base.sha,
        pullNumber: pr.number,
        changedFilesCount: typeof pr.changed_files === "number" ? pr.changed_files : undefined,
        labels: Array.isArray(pr.labels)
          ? pr.labels.map((l: { name?: string }) => String(l?.name ?? ""))
          : [],
      };
    }
    case "issue_comment": {
      if (!p.issue?.pull_request || typeof p.issue.number !== "number")
        return { kind: "ignored", reason: "a comment on an issue, not on a pull request" };
      if (p.action !== "created")
        return { kind: "ignored", reason: `a comment ${p.action ?? "event"}, not a new one` };
      return {
        kind: "comment",
        pullNumber: p.issue.number,
        commenter: String(p.comment?.user?.login ?? ""),
        body: String(p.comment?.body ?? ""),
      };
    }
    case "merge_group": {
      const mg = p.merge_group;
      if (!mg?.head_sha || !mg?.base_sha)
        throw new InputError("the merge_group event payload has no merge_group.head_sha / base_sha");
      const headRef = String(mg.head_ref ?? "");
      const pr = /\/pr-(\d+)-[0-9a-f]+$/.exec(headRef)?.[1];
      return {
        kind: "merge-group",
        headSha: mg.head_sha,
        baseSha: mg.base_sha,
        headRef,
        ...(pr ? { pullNumber: Number(pr) } : {}),
      };
    }
    case "push":
      return { kind: "push", headSha: p.after || ctx.sha };
    case "workflow_dispatch":
    case "schedule":
      return { kind: "sweep", headSha: ctx.sha };
    default:
      throw new InputError(
        `skillgate does not handle the ${ctx.eventName} event in mode ${o.mode}: use pull_request, merge_group, issue_comment (/skillgate), push, workflow_dispatch, schedule, or mode: report (workflow_run)`,
      );
  }
}
