/**
 * What a change (a PR or a merge group) may decide for itself, read from trusted sources only: a change to the
 * workflow that runs skillgate is a policy root, a maintainer's override comes from the PR's labels as they are
 * now or from the base branch's `allow-weakening` input, and label-gated matrix cells follow the labels.
 */
import type { Logger, PolicyChangeRecord, Settings } from "../model/settings.js";
import { type GitHubClient, httpStatus } from "./client.js";
import type { ActionContext, RunPlan } from "./context.js";
import type { ActionInputs } from "./inputs.js";

type ChangePlan = Extract<RunPlan, { kind: "pull-request" | "merge-group" }>;

/**
 * Applies the change's policy to `settings` (policy changes, override, matrix labels); returns the PR's labels as
 * read now, or undefined when they could not be read.
 */
export async function applyChangePolicy(
  settings: Settings,
  o: {
    change: ChangePlan;
    changedFiles: string[];
    /** The running workflow file, repository-relative (GITHUB_WORKFLOW_REF). */
    workflow: string | undefined;
    inputs: Pick<ActionInputs, "allowWeakening">;
    client: GitHubClient | undefined;
    ctx: ActionContext;
    logger: Logger;
  },
): Promise<string[] | undefined> {
  const { change, workflow, logger } = o;
  // The workflow that runs skillgate is policy too: its inputs are trusted only as the base branch has them.
  const workflowChanged = !!workflow && o.changedFiles.includes(workflow);
  const what = change.kind === "pull-request" ? "this PR" : "this merge group";
  if (workflow && workflowChanged) settings.policy.changes.push(workflowPolicyChange(what, workflow));
  const label = settings.policy.overrideLabel;
  // A merge group counts the labels of the PR it was made for (named in its head ref), read fresh.
  const labels =
    change.pullNumber !== undefined
      ? await currentLabels(o.client, o.ctx, change.pullNumber, logger)
      : undefined;
  // Label-gated cells of an agent matrix run only with their label (unreadable labels: every cell runs).
  if (settings.matrix && labels) settings.matrix.labels = labels;
  if (labels?.includes(label)) settings.override = { by: `label "${label}" on PR #${change.pullNumber}` };
  else if (o.inputs.allowWeakening && !workflowChanged)
    settings.override = {
      by: `the workflow input allow-weakening of ${workflow ?? "the base branch's workflow"}`,
    };
  else if (o.inputs.allowWeakening)
    logger.warn(`allow-weakening is ignored: ${what} changes the workflow that sets it`);
  return labels;
}

function workflowPolicyChange(what: string, workflow: string): PolicyChangeRecord {
  return {
    id: "policy/workflow",
    key: "workflow",
    kind: "loosened",
    message: `${what} changes ${workflow}, the workflow that runs skillgate: its inputs (agent, trials, base, fail-on …) are the PR's, not the base branch's, so the verdict cannot be trusted without a maintainer's approval`,
    file: workflow,
    line: 1,
    column: 1,
  };
}

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
