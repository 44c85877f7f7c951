/**
 * The `evaluate` half of the action: the inputs and the event turned into the pipeline's settings (the change's
 * files and base, its policy, on-demand requests, the isolation a runner requires, the cache it may use), then
 * the pipeline run. Trusted choices come from the base branch; the change only supplies what is evaluated.
 */
import { headSha as headShaOf } from "../detect/base.js";
import { InputError } from "../model/diagnostics.js";
import type { Report } from "../model/report.js";
import type { Logger, Settings } from "../model/settings.js";
import type { ActionDeps } from "./action-deps.js";
import { cacheAccessFor } from "./cache-scope.js";
import { applyChangePolicy } from "./change-policy.js";
import { changedFilesOf } from "./changed-files.js";
import type { GitHubClient } from "./client.js";
import { type ActionContext, type RunPlan, workflowFile } from "./context.js";
import { errorReport } from "./error-report.js";
import type { ActionInputs } from "./inputs.js";
import { requestOf, unrequestedReport } from "./on-demand.js";

type EvaluatePlan = Exclude<RunPlan, { kind: "report" | "comment" | "ignored" }>;
type ChangePlan = Extract<RunPlan, { kind: "pull-request" | "merge-group" }>;

interface Evaluation {
  inputs: ActionInputs;
  ctx: ActionContext;
  plan: EvaluatePlan;
  repoDir: string;
  client: GitHubClient | undefined;
  logger: Logger;
}

export async function evaluate(deps: ActionDeps, e: Evaluation): Promise<Report> {
  const { inputs, plan, logger } = e;
  // A pull request, or a merge queue's group: head against a base, only what the change touches.
  const change = plan.kind === "pull-request" || plan.kind === "merge-group" ? plan : undefined;
  const changedFiles = change ? await changedFilesOf(change, e.ctx, e.repoDir, e.client, logger) : undefined;
  if (change && changedFiles)
    logger.info(
      `${changedFiles.length} changed file(s) in ${change.kind === "pull-request" ? `PR #${change.pullNumber}` : `the merge group ${change.headRef}`}`,
    );
  const settings = await deps.resolveSettings(
    {
      repo: e.repoDir,
      config: inputs.config,
      agent: inputs.agent,
      cells: inputs.cell,
      trials: inputs.trials,
      skills: inputs.skills,
      shard: inputs.shard,
      base: change ? (inputs.base ?? change.baseSha) : inputs.base,
      // The change's head, whatever the checkout holds: the base is its merge base with the base branch.
      ...(change ? { head: change.headSha } : {}),
      seed: inputs.seed,
      changedFiles,
    },
    logger,
  );
  if (change && changedFiles) {
    const workflow = workflowFile(deps.env);
    const labels = await applyChangePolicy(settings, { ...e, change, changedFiles, workflow });
    const unrequested = await onDemandGate(deps, e, { change, settings, labels });
    if (unrequested) return unrequested;
  } else if (inputs.allowWeakening) settings.override = { by: "the workflow input allow-weakening" };
  // On a runner, untrusted code must be confined at the strongest level unless the base's config accepts less.
  settings.isolation = { required: true, allowWeaker: settings.isolation?.allowWeaker ?? false };
  const report = await deps.runPipeline(settings, { cacheAccess: cacheAccessFor(change, e.client, e.ctx) });
  // The check run belongs on the change's head, whatever commit the checkout holds.
  if (change) report.head = { ...report.head, sha: change.headSha };
  return report;
}

/**
 * On-demand (the base's config): a PR nobody asked to evaluate (no label, no collaborator's /skillgate) runs
 * nothing; its report says what would run and cost. A merge group is the last gate before the branch: it always
 * runs. Returns that report, or undefined when the evaluation goes on.
 */
async function onDemandGate(
  deps: ActionDeps,
  e: Evaluation,
  o: { change: ChangePlan; settings: Settings; labels: string[] | undefined },
): Promise<Report | undefined> {
  const { settings, change: plan } = o;
  const onDemand = settings.config?.onDemand;
  if (!onDemand || plan.kind !== "pull-request") return undefined;
  const by = requestOf(onDemand, plan, o.labels);
  if (by && plan.requestedBy && headShaOf(e.repoDir) !== plan.headSha)
    throw new InputError(
      `the checkout (${working(e.repoDir)}) is not the head of pull request #${plan.pullNumber} (${plan.headSha}): a /skillgate run must check out refs/pull/${plan.pullNumber}/head (examples/workflows/skillgate-on-demand.yml)`,
    );
  if (by) {
    e.logger.info(`on-demand evaluation requested by ${by}`);
    return undefined;
  }
  if (!deps.forecastPipeline) throw new Error("on-demand: no forecast stage wired into the action");
  const { forecast, scope } = await deps.forecastPipeline(settings);
  const report = unrequestedReport(errorReport("", e.ctx, plan.headSha), onDemand, forecast, scope);
  report.errors = [];
  report.policy = { origin: settings.policy.origin, roots: [] };
  e.logger.info(report.onDemand!.message);
  return report;
}

function working(repoDir: string): string {
  return headShaOf(repoDir) ?? `${repoDir}, not a git checkout`;
}
