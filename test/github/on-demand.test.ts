/**
 * On-demand runs (#19.6), through runAction with the loopback GitHub API (GitHub's OpenAPI shapes) and real
 * webhook payloads: a `/skillgate` comment by a collaborator with write access, or the label, starts the
 * evaluation; anything else runs nothing and the required check concludes with what would run and cost.
 */
import { execFileSync } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createGitHubClient } from "../../src/github/client.js";
import { isCommand } from "../../src/github/on-demand.js";
import { type ActionDeps, runAction } from "../../src/github/run-action.js";
import type { Forecast, Settings, SkillgateConfig } from "../../src/model/index.js";
import { exitCodeFor } from "../../src/report/exit-codes.js";
import { type GitHubApi, type GitHubApiOptions, startGitHubApi } from "../support/github-api.js";
import { makeReport } from "./fixtures.js";
import { recordingIO } from "./recording-io.js";

const EVENTS = join(import.meta.dirname, "../fixtures/github-events");
let api: GitHubApi | undefined;
const scratch: string[] = [];
afterEach(async () => {
  expect(api?.violations ?? []).toEqual([]);
  await api?.close();
  api = undefined;
  await Promise.all(scratch.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

const FORECAST: Forecast = {
  identity: "claude-code/2.1.332/default",
  lines: [{ skill: "split-cents", battery: "trigger", trials: 120, cacheHits: 60, agentCalls: 60, usd: 0.9 }],
  total: { trials: 120, cacheHits: 60, agentCalls: 60, usd: 0.9 },
  costBasis: "mean usage of 400 trial(s)",
  confirmation: { maxTrialsPerArmPerSuspect: 55 },
  budget: { maxAgentCalls: 500, maxUsd: 10, source: "the default" },
};

async function setup(o: {
  event: "issue_comment" | "pull_request";
  // biome-ignore lint/suspicious/noExplicitAny: webhook payload fixtures are edited in place.
  patch?: (p: any) => void;
  onDemand?: SkillgateConfig["onDemand"];
  api?: Partial<GitHubApiOptions>;
  evaluated?: number;
}) {
  const dir = await mkdtemp(join(tmpdir(), "sg-ondemand-"));
  scratch.push(dir);
  // The workspace is a git checkout: a /skillgate run checks that it holds the PR's head.
  const git = (...args: string[]) => execFileSync("git", ["-C", dir, ...args], { encoding: "utf8" }).trim();
  git("init", "-q");
  await writeFile(join(dir, "README.md"), "x\n");
  git("add", ".");
  git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "head");
  const head = git("rev-parse", "HEAD");
  const file = o.event === "issue_comment" ? "issue_comment.created.json" : "pull_request.labeled.json";
  const payload = JSON.parse(await readFile(join(EVENTS, file), "utf8"));
  const pr = JSON.parse(await readFile(join(EVENTS, "pull_request.synchronize.json"), "utf8")).pull_request;
  if (o.event === "pull_request") payload.pull_request.head.sha = head;
  o.patch?.(payload);
  api = await startGitHubApi({
    owner: "Codertocat",
    repo: "Hello-World",
    pulls: { 1: { ...pr, number: 1, head: { ...pr.head, sha: head } } },
    pullFiles: {
      1: [{ filename: "README.md", status: "modified" }],
      2: [{ filename: "README.md", status: "modified" }],
    },
    ...o.api,
  });
  await writeFile(join(dir, "event.json"), JSON.stringify(payload));
  const { io, rec } = recordingIO({ "github-token": "ghs_test", "check-name": "skillgate" });
  const calls = { run: 0, forecast: 0 };
  const deps: ActionDeps = {
    io,
    env: {
      GITHUB_EVENT_NAME: o.event,
      GITHUB_EVENT_PATH: join(dir, "event.json"),
      GITHUB_REPOSITORY: "Codertocat/Hello-World",
      GITHUB_SHA: "9".repeat(40),
      GITHUB_API_URL: api.url,
      GITHUB_RUN_ID: "77",
      GITHUB_WORKSPACE: dir,
    },
    resolveSettings: async (raw) =>
      ({
        repoDir: raw.repo,
        config: o.onDemand ? { onDemand: o.onDemand } : {},
        policy: {
          origin: "base",
          changes: [],
          headDiagnostics: [],
          overrideLabel: "skillgate: allow-weakening",
        },
      }) as unknown as Settings,
    runPipeline: async () => {
      calls.run++;
      return makeReport();
    },
    forecastPipeline: async () => {
      calls.forecast++;
      const evaluated = o.evaluated ?? 1;
      return { forecast: FORECAST, scope: { skillsFound: 3, selected: evaluated, evaluated, message: "m" } };
    },
    exitCodeFor,
    createClient: (token, baseUrl, logger) =>
      createGitHubClient({ token, baseUrl, logger, retryAfterBaseValue: 1, writeSpacing: "none" }),
  };
  return { deps, rec, calls, head };
}

const comment =
  (body: string, login = "octocat") =>
  // biome-ignore lint/suspicious/noExplicitAny: webhook payload fixtures are edited in place.
  (p: any) => {
    p.issue.pull_request = { url: "https://api.github.com/repos/Codertocat/Hello-World/pulls/1" };
    p.comment.body = body;
    p.comment.user.login = login;
  };

describe("a /skillgate comment", () => {
  it("by a collaborator with write access evaluates the PR's head and posts the check there", async () => {
    const { deps, calls, head } = await setup({
      event: "issue_comment",
      patch: comment("/skillgate please"),
      onDemand: {},
      api: { permissions: { octocat: "write" } },
    });
    const result = await runAction(deps);
    expect(calls).toEqual({ run: 1, forecast: 0 });
    // the stand-in pipeline's report fails: the check says so, on the PR head
    expect(result.exitCode).toBe(1);
    expect(api!.checkRuns.map((c) => [c.head_sha, c.conclusion])).toEqual([[head, "failure"]]);
    expect(api!.requests.map((r) => r.operationId)).toContain("repos/get-collaborator-permission-level");
  });

  it("by someone with read access, or not the command, starts nothing and posts nothing", async () => {
    for (const [patch, perm] of [
      [comment("/skillgate"), "read"],
      [comment("/skillgate"), undefined],
      [comment("looks good, /skillgate later"), "admin"],
    ] as const) {
      const { deps, calls } = await setup({
        event: "issue_comment",
        patch,
        onDemand: {},
        api: { permissions: perm ? { octocat: perm } : {} },
      });
      expect((await runAction(deps)).exitCode).toBe(0);
      expect(calls).toEqual({ run: 0, forecast: 0 });
      expect(api!.checkRuns).toEqual([]);
      await api!.close();
      api = undefined;
    }
  });

  it("on an issue (not a pull request) is not this workflow's business", async () => {
    const { deps, calls } = await setup({
      event: "issue_comment",
      patch: (p) => {
        p.comment.body = "/skillgate";
      },
      onDemand: {},
    });
    expect((await runAction(deps)).exitCode).toBe(0);
    expect(calls.run).toBe(0);
    expect(api!.requests).toEqual([]);
  });

  it("isCommand reads the first line only, from its first character (as the workflow's startsWith does)", () => {
    expect(isCommand("/skillgate")).toBe(true);
    expect(isCommand("/skillgate run it \r\nthanks")).toBe(true);
    expect(isCommand("  /skillgate run it\nthanks")).toBe(false);
    expect(isCommand("/skillgatex")).toBe(false);
    expect(isCommand("please\n/skillgate")).toBe(false);
  });
});

describe("a pull request in on-demand mode", () => {
  it("without the label runs nothing: a neutral check with the forecast", async () => {
    const { deps, calls, rec } = await setup({ event: "pull_request", onDemand: {} });
    const result = await runAction(deps);
    expect(calls).toEqual({ run: 0, forecast: 1 });
    expect(result.exitCode).toBe(0);
    const check = api!.checkRuns[0]!;
    expect(check.conclusion).toBe("neutral");
    expect(check.output.title).toMatch(/^not evaluated: add the label "skillgate" or comment \/skillgate/);
    expect(check.output.summary).toMatch(
      /would run 120 trial\(s\) of 1 skill\(s\) \(60 agent call\(s\), &#36;0\.90/,
    );
    expect(check.output.summary).toMatch(/### Forecast/);
    expect(rec.outputs.verdict).toBe("pass");
  });

  it("pass-if-no-skill: success only when the PR touches no skill, action required otherwise", async () => {
    const none = await setup({
      event: "pull_request",
      onDemand: { unrequested: "pass-if-no-skill" },
      evaluated: 0,
    });
    await runAction(none.deps);
    expect(api!.checkRuns[0]!.conclusion).toBe("success");
    await api!.close();
    api = undefined;
    const some = await setup({ event: "pull_request", onDemand: { unrequested: "pass-if-no-skill" } });
    await runAction(some.deps);
    expect(api!.checkRuns[0]!.conclusion).toBe("action_required");
    expect(some.calls.run).toBe(0);
  });

  it("with the label (read fresh from the API) evaluates", async () => {
    const { deps, calls } = await setup({
      event: "pull_request",
      onDemand: { label: "run-evals" },
      api: { labels: { 2: ["run-evals"] } },
    });
    await runAction(deps);
    expect(calls).toEqual({ run: 1, forecast: 0 });
  });

  it("a later run that evaluates nothing (another label, the label removed) keeps the commit's verdict", async () => {
    // A collaborator's /skillgate evaluates the head: the check fails.
    const { deps, head } = await setup({
      event: "issue_comment",
      patch: comment("/skillgate"),
      onDemand: {},
      api: { permissions: { octocat: "write" } },
    });
    expect((await runAction(deps)).exitCode).toBe(1);
    // Then somebody adds an unrelated label: the pull_request event runs the job again, unrequested.
    const labeled = JSON.parse(await readFile(join(EVENTS, "pull_request.labeled.json"), "utf8"));
    labeled.pull_request.head.sha = head;
    labeled.label = { ...labeled.label, name: "documentation" };
    const path = join(deps.env.GITHUB_WORKSPACE!, "labeled.json");
    await writeFile(path, JSON.stringify(labeled));
    const again = {
      ...deps,
      env: { ...deps.env, GITHUB_EVENT_NAME: "pull_request", GITHUB_EVENT_PATH: path },
    };
    expect((await runAction(again)).exitCode).toBe(0);
    const runs = api!.checkRuns.filter((c) => c.head_sha === head);
    expect(runs.map((c) => [c.conclusion, c.external_id])).toEqual([
      ["failure", "skillgate/evaluated"],
      ["failure", "skillgate/evaluated"],
    ]);
    expect(runs[1]!.output.summary).toMatch(
      /^This run evaluated nothing .* concluded \*\*failure\*\*, and that stands/,
    );
    // The newest run of the name, the one a required check reads, still fails.
    const latest = api!.requests.length;
    const listed = await fetch(
      `${api!.url}/repos/Codertocat/Hello-World/commits/${head}/check-runs?check_name=skillgate`,
      {
        headers: { authorization: "token ghs_test" },
      },
    ).then((r) => r.json() as Promise<{ check_runs: { conclusion: string }[] }>);
    expect(api!.requests.length).toBe(latest + 1);
    expect(listed.check_runs.map((c) => c.conclusion)).toEqual(["failure"]);
  });

  it("an evaluation that finishes after a newer run of its name posts itself again, as the newest", async () => {
    const { deps, head } = await setup({
      event: "issue_comment",
      patch: comment("/skillgate"),
      onDemand: {},
      api: { permissions: { octocat: "write" } },
    });
    // While the evaluation runs, an unrequested run (a label event) creates and completes its own check run.
    const inner = deps.runPipeline;
    const slow: ActionDeps = {
      ...deps,
      runPipeline: async (settings, o) => {
        await fetch(`${api!.url}/repos/Codertocat/Hello-World/check-runs`, {
          method: "POST",
          headers: { authorization: "token ghs_test", "content-type": "application/json" },
          body: JSON.stringify({
            name: "skillgate",
            head_sha: head,
            status: "completed",
            conclusion: "neutral",
            external_id: "skillgate/unrequested",
            output: { title: "not evaluated", summary: "nobody asked" },
          }),
        });
        return inner(settings, o);
      },
    };
    expect((await runAction(slow)).exitCode).toBe(1);
    const runs = api!.checkRuns.filter((c) => c.head_sha === head);
    expect(runs.map((c) => c.conclusion)).toEqual(["failure", "neutral", "failure"]);
    expect(runs.at(-1)!.external_id).toBe("skillgate/evaluated");
  });

  it("without onDemand in the base config every PR is evaluated, as before", async () => {
    const { deps, calls } = await setup({ event: "pull_request" });
    await runAction(deps);
    expect(calls).toEqual({ run: 1, forecast: 0 });
  });
});
