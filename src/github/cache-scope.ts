/**
 * What a run may do with the Actions trial cache (`cacheAccessFor`), and whether a pull request's own cache scope
 * can be trusted: GitHub restores a PR run's caches from its own ref (refs/pull/N/merge) before the base branch's,
 * and skillgate never saves from a PR run, so any cache under the PR's ref with skillgate's key was written by a
 * workflow the PR controls. Listing needs `actions: read`; when the list cannot be read, nothing is restored (fail
 * closed: the base arm re-runs, which costs, never lies).
 */

import type { CacheAccess } from "./cache-actions.js";
import { type GitHubClient, httpStatus } from "./client.js";
import type { ActionContext, RunPlan } from "./context.js";

/**
 * What the run may do with the Actions trial cache: a change (PR or merge group) reads the trials the default
 * branch's runs saved, once its own scope holds none it could have planted, and writes none; a branch's run
 * reads and writes (src/github/cache-actions.ts).
 */
export function cacheAccessFor(
  change: Extract<RunPlan, { kind: "pull-request" | "merge-group" }> | undefined,
  client: GitHubClient | undefined,
  ctx: Pick<ActionContext, "owner" | "repo">,
): CacheAccess {
  if (!change) return { kind: "read-write" };
  return {
    kind: "read-only",
    verify: async () => {
      const { trialCacheKeys } = await import("./cache-actions.js");
      const scope =
        change.kind === "pull-request"
          ? change.pullNumber
          : { ref: change.headRef.startsWith("refs/") ? change.headRef : `refs/heads/${change.headRef}` };
      return distrustPullRequestCaches(client, ctx, scope, trialCacheKeys().restoreKeys[0]!);
    },
  };
}

/**
 * Why the change's cache scope cannot be trusted, or undefined when it holds no cache under `keyPrefix`. The scope
 * is the PR's `refs/pull/N/merge`, or a merge group's own ref (its workflow is the merged one, which the PR wrote).
 */
export async function distrustPullRequestCaches(
  client: GitHubClient | undefined,
  ctx: Pick<ActionContext, "owner" | "repo">,
  change: number | { ref: string },
  keyPrefix: string,
): Promise<string | undefined> {
  const ref = typeof change === "number" ? `refs/pull/${change}/merge` : change.ref;
  if (!client)
    return `no token to list the caches of ${ref}; the base arm runs without the default branch's trials`;
  try {
    const { data } = await client.request("GET /repos/{owner}/{repo}/actions/caches", {
      owner: ctx.owner,
      repo: ctx.repo,
      ref,
      key: keyPrefix,
      per_page: 100,
    });
    const planted = data.actions_caches.filter((c) => c.key?.startsWith(keyPrefix));
    if (planted.length === 0) return undefined;
    return `${planted.length} cache(s) under ${ref} carry skillgate's key (${planted
      .slice(0, 3)
      .map((c) => c.key)
      .join(
        ", ",
      )}): a pull request's or merge group's runs never save one, so a workflow the change controls wrote them; restoring nothing`;
  } catch (e) {
    const status = httpStatus(e);
    return `cannot list the caches of ${ref} (${status ?? "network"}${status === 403 ? ": give the workflow `permissions: actions: read`" : ""}) to check that no PR-written cache would be restored; restoring nothing`;
  }
}
