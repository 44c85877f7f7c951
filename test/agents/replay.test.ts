import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, test } from "vitest";
import { writeRecordings } from "../../src/agents/replay.js";
import { InputError } from "../../src/model/index.js";
import { type RunOptions, runTrials } from "../../src/run/runner.js";
import { makeRequest, recordingLogger } from "../support/trials.js";

const FAKE_AGENT = resolve("test/support/fake-agent.mjs");

function opts(repo: string, p: Partial<RunOptions> = {}): RunOptions {
  return {
    agent: { adapter: "replay", recordings: "recordings" },
    repoDir: repo,
    concurrency: 2,
    timeoutMs: 10_000,
    maxRetries: 0,
    cache: { enabled: true, dir: join(repo, ".cache") },
    budget: { maxAgentCalls: 0 },
    logger: recordingLogger(),
    ...p,
  };
}

describe("replay adapter", () => {
  test("records a live run, replays it with no agent call, and a missing recording is an error naming the trial", async () => {
    const repo = mkdtempSync(join(tmpdir(), "replay-repo-"));
    const reqs = [
      makeRequest({ prompt: "JSON", trial: 0 }),
      makeRequest({ prompt: "WRITE", trial: 1 }),
      makeRequest({ prompt: "CRASH", trial: 2 }),
    ];
    const live = await runTrials(
      reqs,
      opts(repo, {
        agent: { adapter: "command", command: `node ${FAKE_AGENT}` },
        budget: {},
        cache: { enabled: false, dir: "" },
      }),
    );
    await writeRecordings(join(repo, "recordings"), reqs, live.records);
    const lines = readFileSync(join(repo, "recordings/split-cents.jsonl"), "utf8").trim().split("\n");
    expect(lines).toHaveLength(3); // the crash is an outcome worth replaying
    expect(JSON.parse(lines[0]!)).toMatchObject({
      skill: "split-cents",
      caseId: "case-1",
      mode: "skill",
      trial: 0,
      prompt: "JSON",
    });

    const missing = makeRequest({ prompt: "never recorded", caseId: "other-case", trial: 4 });
    const replayed = await runTrials([...reqs, missing], opts(repo));
    expect(replayed.cost).toMatchObject({ agentCalls: 0, usd: 0 }); // recorded cost was not spent again
    expect(replayed.records[0]!.usage.costUsd).toBe(0.25); // but stays on the record, for cost per skill/mode
    expect(replayed.budgetExhausted).toBeUndefined();
    expect(replayed.records[0]).toMatchObject({
      output: "334 333 333",
      skillsActivated: ["split-cents"],
      cached: true,
    });
    expect(replayed.records[1]!.files).toEqual({ "src/answer.ts": "export const answer = 42;\n" });
    expect(replayed.records[2]!.error?.kind).toBe("crash");
    expect(replayed.records[3]!.error?.kind).toBe("protocol");
    expect(replayed.records[3]!.error?.message).toMatch(
      new RegExp(
        `no recording for skill "split-cents" case "other-case" mode skill trial 4 \\(key ${missing.key}\\)`,
      ),
    );
    expect(replayed.identity).toBe("replay:recordings");
  });

  test("re-recording merges by key instead of duplicating", async () => {
    const dir = mkdtempSync(join(tmpdir(), "replay-merge-"));
    const req = makeRequest({ prompt: "p" });
    const rec = {
      ...req,
      output: "one",
      toolCalls: [],
      skillsActivated: [],
      files: {},
      usage: { inputTokens: 0, outputTokens: 0, costUsd: 0 },
      durationMs: 1,
    };
    await writeRecordings(dir, [req], [rec]);
    await writeRecordings(dir, [req], [{ ...rec, output: "two" }]);
    const lines = readFileSync(join(dir, "split-cents.jsonl"), "utf8").trim().split("\n");
    expect(lines.map((l) => JSON.parse(l).record.output)).toEqual(["two"]);
  });

  test("a bad recording line is a located input error", async () => {
    const repo = mkdtempSync(join(tmpdir(), "replay-bad-"));
    mkdirSync(join(repo, "recordings"));
    writeFileSync(
      join(repo, "recordings/a.jsonl"),
      `${JSON.stringify({ key: "k", skill: "s", caseId: "c", mode: "skill", trial: 0, prompt: "p", record: { output: "x" } })}\n{oops\n`,
    );
    const err = await runTrials([], opts(repo)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InputError);
    expect((err as InputError).message).toMatch(/recordings\/a\.jsonl:2:1: not JSON/);
    expect((err as InputError).diagnostics[0]).toMatchObject({
      file: "recordings/a.jsonl",
      line: 2,
      column: 1,
    });
  });

  test("a missing recordings folder is an input error", async () => {
    const repo = mkdtempSync(join(tmpdir(), "replay-none-"));
    await expect(runTrials([], opts(repo))).rejects.toThrow(/recordings folder recordings does not exist/);
  });
});
