import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createGitHubClient } from "../../src/github/client.js";
import {
  DEFAULT_JOB_TIMEOUT_MINUTES,
  interruptedConclusion,
  jobTimeoutMinutes,
  STATE,
} from "../../src/github/interruption.js";
import { runPost } from "../../src/github/post-action.js";
import { type GitHubApi, startGitHubApi } from "../support/github-api.js";
import { recordingIO } from "./recording-io.js";

const start = new Date("2026-11-29T12:00:00Z");
const minutesIn = (minutes: number) => new Date(start.getTime() + minutes * 60_000);

describe("cancelled or timed out", () => {
  it("timed_out only when the job ran about as long as its timeout-minutes", () => {
    expect(interruptedConclusion({ startedAt: start, now: minutesIn(5), timeoutMinutes: 60 })).toBe(
      "cancelled",
    );
    expect(interruptedConclusion({ startedAt: start, now: minutesIn(56), timeoutMinutes: 60 })).toBe(
      "cancelled",
    );
    // the main step starts after checkout and the agent install: 3 minutes (5 %) of margin at 60
    expect(interruptedConclusion({ startedAt: start, now: minutesIn(57.5), timeoutMinutes: 60 })).toBe(
      "timed_out",
    );
    expect(interruptedConclusion({ startedAt: start, now: minutesIn(9), timeoutMinutes: 10 })).toBe(
      "timed_out",
    );
    expect(interruptedConclusion({ startedAt: start, now: minutesIn(7), timeoutMinutes: 10 })).toBe(
      "cancelled",
    );
  });

  it("reads the job's timeout-minutes from its workflow file, GitHub's 360 otherwise", async () => {
    const dir = await mkdtemp(join(tmpdir(), "sg-timeout-"));
    try {
      await mkdir(join(dir, ".github/workflows"), { recursive: true });
      await writeFile(
        join(dir, ".github/workflows/w.yml"),
        "on: pull_request\njobs:\n  a:\n    timeout-minutes: 45\n    runs-on: x\n  b:\n    timeout-minutes: ${{ inputs.t }}\n    runs-on: x\n",
      );
      expect(jobTimeoutMinutes(dir, ".github/workflows/w.yml", "a")).toBe(45);
      expect(jobTimeoutMinutes(dir, ".github/workflows/w.yml", "b")).toBe(DEFAULT_JOB_TIMEOUT_MINUTES);
      expect(jobTimeoutMinutes(dir, ".github/workflows/w.yml", "c")).toBe(DEFAULT_JOB_TIMEOUT_MINUTES);
      expect(jobTimeoutMinutes(dir, ".github/workflows/missing.yml", "a")).toBe(DEFAULT_JOB_TIMEOUT_MINUTES);
      expect(jobTimeoutMinutes(dir, undefined, "a")).toBe(DEFAULT_JOB_TIMEOUT_MINUTES);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe("the post step", () => {
  let api: GitHubApi | undefined;
  afterEach(async () => {
    await api?.close();
    api = undefined;
  });

  async function post(state: Record<string, string>, minutes = 4) {
    api = await startGitHubApi({ owner: "o", repo: "r" });
    // the check run the main step opened
    const client = createGitHubClient({ token: "t", baseUrl: api.url, logger: { warn() {}, debug() {} } });
    const { data } = await client.rest.checks.create({
      owner: "o",
      repo: "r",
      name: "skillgate",
      head_sha: "a".repeat(40),
      status: "in_progress",
    });
    const { io, rec } = recordingIO({ "github-token": "ghs_post" });
    const open = {
      id: data.id,
      name: "skillgate",
      owner: "o",
      repo: "r",
      headSha: "a".repeat(40),
      startedAt: start.toISOString(),
    };
    Object.assign(rec.state, { [STATE.checkRun]: JSON.stringify(open) }, state);
    const outcome = await runPost({
      io,
      env: { GITHUB_API_URL: api.url, GITHUB_RUN_ID: "9", GITHUB_SERVER_URL: "https://github.com" },
      now: () => minutesIn(minutes),
      createClient: (token, baseUrl, logger) =>
        createGitHubClient({ token, baseUrl, logger, writeSpacing: "none" }),
    });
    return { outcome, rec, check: api.checkRuns[0]! };
  }

  it("completes a check run the main step left open as cancelled, with a link to the run", async () => {
    const { outcome, check } = await post({});
    expect(outcome.action).toBe("concluded");
    expect([check.status, check.conclusion]).toEqual(["completed", "cancelled"]);
    expect(check.output.summary).toContain("https://github.com/o/r/actions/runs/9");
    expect(api!.violations).toEqual([]);
  });

  it("after 6 hours (GitHub's default job timeout) it is timed_out", async () => {
    const { check } = await post({}, 359);
    expect(check.conclusion).toBe("timed_out");
  });

  it("a failing verdict reached but not posted concludes failure; an unposted pass never concludes success", async () => {
    expect((await post({ [STATE.verdict]: "fail" })).check.conclusion).toBe("failure");
    await api!.close();
    expect((await post({ [STATE.verdict]: "error" })).check.conclusion).toBe("failure");
    await api!.close();
    // code run during the job can write the state file: a "pass" there is not a pass
    expect((await post({ [STATE.verdict]: "pass" })).check.conclusion).toBe("cancelled");
  });

  it("does nothing when the main step completed the check run, or opened none", async () => {
    const { outcome, check } = await post({ [STATE.completed]: "true" });
    expect(outcome.action).toBe("nothing");
    expect(check.status).toBe("in_progress");
    expect(api!.requests.filter((r) => r.operationId === "checks/update")).toEqual([]);
    const { io } = recordingIO({ "github-token": "t" });
    expect((await runPost({ io, env: {} })).action).toBe("nothing");
  });
});
