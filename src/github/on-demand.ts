/**
 * On-demand evaluation, the ecosystem's convention (dotnet/skills' `/evaluate`, expo/skills' label): when the base
 * config has `onDemand`, a pull request is evaluated only with the label on it (read fresh from the API) or after a
 * `/skillgate` comment by a collaborator with write access (checked through the API, never from the payload).
 * Unrequested, the required check concludes with what would run and what it would cost.
 */
import type { Forecast, Report, SkillgateConfig } from "../model/index.js";
import { type GitHubClient, httpStatus } from "./client.js";
import type { ActionContext, RunPlan } from "./context.js";

const ON_DEMAND_COMMAND = "/skillgate";
const DEFAULT_ON_DEMAND_LABEL = "skillgate";
/** Permission levels (`repos/get-collaborator-permission-level`'s `permission`) that may start an evaluation. */
const MAY_REQUEST = new Set(["admin", "write"]);

type PullRequestPlan = Extract<RunPlan, { kind: "pull-request" }>;

/**
 * Whether a comment body asks for an evaluation: its first line is `/skillgate`, alone or with words after it,
 * from the first character on, as the example workflow's `startsWith(github.event.comment.body, '/skillgate')`
 * reads it (a comment that only one of them took for the command would be skipped, or run unasked).
 */
export function isCommand(body: string): boolean {
  const first = body.split(/\r?\n/, 1)[0]!.trimEnd();
  return first === ON_DEMAND_COMMAND || first.startsWith(`${ON_DEMAND_COMMAND} `);
}

/**
 * The pull request a `/skillgate` comment asks to evaluate, or why it starts nothing (not the command, a commenter
 * without write access, no token to check, the PR unreadable).
 */
export async function resolveCommentRequest(
  plan: Extract<RunPlan, { kind: "comment" }>,
  client: GitHubClient | undefined,
  ctx: Pick<ActionContext, "owner" | "repo">,
): Promise<PullRequestPlan | string> {
  if (!isCommand(plan.body))
    return `the comment on #${plan.pullNumber} is not ${ON_DEMAND_COMMAND}: nothing to do`;
  if (!client) return `cannot check ${plan.commenter}'s permission without a token: not evaluating`;
  let permission: string;
  try {
    const { data } = await client.rest.repos.getCollaboratorPermissionLevel({
      owner: ctx.owner,
      repo: ctx.repo,
      username: plan.commenter,
    });
    permission = data.permission;
  } catch (e) {
    const status = httpStatus(e);
    return status === 404
      ? `${plan.commenter} is not a collaborator: only collaborators with write access can start an evaluation`
      : `cannot read ${plan.commenter}'s permission (${status ?? "network"}): not evaluating`;
  }
  if (!MAY_REQUEST.has(permission))
    return `${plan.commenter} has ${permission} access: only collaborators with write access can start an evaluation`;
  try {
    const { data: pr } = await client.rest.pulls.get({
      owner: ctx.owner,
      repo: ctx.repo,
      pull_number: plan.pullNumber,
    });
    return {
      kind: "pull-request",
      headSha: pr.head.sha,
      baseSha: pr.base.sha,
      pullNumber: plan.pullNumber,
      changedFilesCount: pr.changed_files,
      labels: pr.labels.map((l) => l.name),
      requestedBy: `${ON_DEMAND_COMMAND} by ${plan.commenter} (${permission})`,
    };
  } catch (e) {
    return `cannot read pull request #${plan.pullNumber} (${httpStatus(e) ?? "network"}): not evaluating`;
  }
}

/** Who asked for this PR's evaluation, or undefined when on-demand and nobody did. */
export function requestOf(
  onDemand: NonNullable<SkillgateConfig["onDemand"]>,
  plan: PullRequestPlan,
  labels: string[] | undefined,
): string | undefined {
  if (plan.requestedBy) return plan.requestedBy;
  const label = onDemand.label ?? DEFAULT_ON_DEMAND_LABEL;
  return labels?.includes(label) ? `the label "${label}"` : undefined;
}

/** The report of an unrequested on-demand PR: nothing ran; the check says what would run and cost. */
export function unrequestedReport(
  base: Report,
  onDemand: NonNullable<SkillgateConfig["onDemand"]>,
  forecast: Forecast,
  scope: NonNullable<Report["scope"]>,
): Report {
  const label = onDemand.label ?? DEFAULT_ON_DEMAND_LABEL;
  const touchesSkill = scope.evaluated > 0;
  const conclusion =
    (onDemand.unrequested ?? "neutral") === "neutral"
      ? "neutral"
      : touchesSkill
        ? "action_required"
        : "success";
  const cost = forecast.total.usd === undefined ? "" : `, $${forecast.total.usd.toFixed(2)}`;
  const would = touchesSkill
    ? `it would run ${forecast.total.trials} trial(s) of ${scope.evaluated} skill(s) (${forecast.total.agentCalls} agent call(s)${cost}, plus confirmation trials on suspects)`
    : "this PR touches no skill: nothing would run";
  return {
    ...base,
    verdict: "pass",
    scope,
    forecast,
    onDemand: {
      conclusion,
      message: `not evaluated: add the label "${label}" or comment ${ON_DEMAND_COMMAND} (collaborators with write access) to evaluate; ${would}`,
    },
  };
}
