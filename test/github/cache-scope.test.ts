/** A PR's cache scope is checked through the API (loopback, GitHub's OpenAPI shapes) before the base's trials are used. */
import { afterEach, describe, expect, it } from "vitest";
import { trialCacheKeys } from "../../src/github/cache-actions.js";
import { distrustPullRequestCaches } from "../../src/github/cache-scope.js";
import { createGitHubClient } from "../../src/github/client.js";
import { type GitHubApi, startGitHubApi } from "../support/github-api.js";
import { recordingLogger } from "../support/trials.js";

let api: GitHubApi | undefined;
afterEach(async () => {
  expect(api?.violations ?? []).toEqual([]);
  await api?.close();
  api = undefined;
});

const prefix = trialCacheKeys().restoreKeys[0]!;
const client = (a: GitHubApi) =>
  createGitHubClient({
    token: "ghs_test",
    baseUrl: a.url,
    logger: recordingLogger(),
    retryAfterBaseValue: 1,
    writeSpacing: "none",
  });

describe("distrustPullRequestCaches", () => {
  it("trusts a PR ref with no skillgate cache; the default branch's caches are what it reads", async () => {
    api = await startGitHubApi({
      owner: "o",
      repo: "r",
      caches: [
        { key: `${prefix}900-1`, ref: "refs/heads/main" },
        { key: "npm-deps-abc", ref: "refs/pull/7/merge" },
      ],
    });
    expect(
      await distrustPullRequestCaches(client(api), { owner: "o", repo: "r" }, 7, prefix),
    ).toBeUndefined();
    expect(api.requests[0]!.query).toMatchObject({ ref: "refs/pull/7/merge", key: prefix });
  });

  it("distrusts a skillgate cache under the PR's ref: a PR run never saves one", async () => {
    api = await startGitHubApi({
      owner: "o",
      repo: "r",
      caches: [{ key: `${prefix}forged`, ref: "refs/pull/7/merge" }],
    });
    expect(await distrustPullRequestCaches(client(api), { owner: "o", repo: "r" }, 7, prefix)).toMatch(
      /1 cache\(s\) under refs\/pull\/7\/merge carry skillgate's key .*restoring nothing/,
    );
  });

  it("restores nothing when the list cannot be read, naming the permission", async () => {
    api = await startGitHubApi({
      owner: "o",
      repo: "r",
      faults: [{ operationId: "actions/get-actions-cache-list", status: 403, count: 5 }],
    });
    expect(await distrustPullRequestCaches(client(api), { owner: "o", repo: "r" }, 7, prefix)).toMatch(
      /cannot list the caches of refs\/pull\/7\/merge \(403: give the workflow `permissions: actions: read`\)/,
    );
    expect(await distrustPullRequestCaches(undefined, { owner: "o", repo: "r" }, 7, prefix)).toMatch(
      /no token/,
    );
  });
});
