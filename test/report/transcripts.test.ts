import { describe, expect, it } from "vitest";
import type { CheckResult, TrialRecord, TrialRequest } from "../../src/model/index.js";
import {
  buildTranscripts,
  checksByTrial,
  MAX_OUTPUT_CHARS,
  MAX_TOOL_CALLS,
  type RanTrial,
  SUMMARY_OUTPUT_CHARS,
  transcriptIdOfCheck,
} from "../../src/report/transcripts.js";
import { makeRoot } from "../github/fixtures.js";

function request(over: Partial<TrialRequest> = {}): TrialRequest {
  return {
    key: "k",
    skill: "split-cents",
    caseId: "split-1000-3",
    mode: "skill",
    trial: 0,
    prompt: "Split 1000 cents among 3.",
    files: [],
    install: [],
    seed: 1,
    ...over,
  };
}

function record(over: Partial<TrialRecord> = {}): TrialRecord {
  return {
    key: "k",
    skill: "split-cents",
    caseId: "split-1000-3",
    mode: "skill",
    trial: 0,
    output: "333 333 333",
    toolCalls: [{ name: "Write", input: { file_path: "src/split.ts" }, output: "ok", turn: 0 }],
    skillsActivated: ["split-cents"],
    files: { "src/split.ts": "export const splitCents = () => [333, 333, 333];" },
    usage: { inputTokens: 1, outputTokens: 1, costUsd: 0.001 },
    durationMs: 12,
    ...over,
  };
}

function check(over: Partial<CheckResult> = {}): CheckResult {
  return {
    checkId: "split-1000-3/split-conserves",
    skill: "split-cents",
    caseId: "split-1000-3",
    assertionId: "split-conserves",
    mode: "skill",
    trial: 0,
    status: "fail",
    discriminator: false,
    message: "expected gate conservation to pass",
    dependsOn: [],
    loc: { file: "p.yaml", line: 12, column: 5 },
    details: {
      gate: { gate: "conservation", passed: false, seed: 42, checks: [] },
      module: "src/split.ts",
      export: "splitCents",
      options: { mode: "count" },
    },
    ...over,
  };
}

const trial = (
  arm: "head" | "base",
  t: number,
  checks: CheckResult[],
  over: Partial<TrialRecord> = {},
): RanTrial => ({
  arm,
  request: request({ trial: t }),
  record: record({ trial: t, ...over }),
  checks: checks.map((c) => ({ ...c, trial: t })),
});

describe("the report's transcripts", () => {
  it("keep prompt, skills, tool calls, output, files and checks, with a replay line for a gate", () => {
    const [t] = buildTranscripts([trial("head", 0, [check()])], []);
    expect(t).toMatchObject({
      id: "head/skill/split-1000-3/0",
      prompt: "Split 1000 cents among 3.",
      skillsActivated: ["split-cents"],
      toolCalls: [{ name: "Write", input: '{"file_path":"src/split.ts"}', output: "ok", turn: 0 }],
      output: "333 333 333",
      files: [{ path: "src/split.ts", content: "export const splitCents = () => [333, 333, 333];" }],
      detail: true,
      costUsd: 0.001,
    });
    expect(t!.checks[0]!.replay).toBe(
      `skillgate gate conservation src/split.ts --export splitCents --options '{"mode":"count"}' --seed 42`,
    );
  });

  it("cut long texts and long lists to the named limits, and say what was cut", () => {
    const calls = Array.from({ length: MAX_TOOL_CALLS + 5 }, (_, i) => ({
      name: `T${i}`,
      input: {},
      turn: i,
    }));
    const [t] = buildTranscripts(
      [trial("head", 0, [], { output: "x".repeat(MAX_OUTPUT_CHARS * 2), toolCalls: calls })],
      [],
    );
    expect(t!.output.length).toBe(MAX_OUTPUT_CHARS);
    expect(t!.toolCalls).toHaveLength(MAX_TOOL_CALLS);
    expect(t!.cut).toEqual([
      `tool calls: ${MAX_TOOL_CALLS} of ${MAX_TOOL_CALLS + 5} kept`,
      `output: ${MAX_OUTPUT_CHARS.toLocaleString("en-US")} of ${(MAX_OUTPUT_CHARS * 2).toLocaleString("en-US")} characters kept`,
    ]);
  });

  it("spend the detail budget on the trials a blocking root failed on and the base beside them first", () => {
    const root = makeRoot({ id: "split-1000-3/split-conserves" });
    const passing = check({ status: "pass" });
    const trials = [
      trial("head", 0, [check({ checkId: "other/x" })], { output: "a".repeat(3000) }), // failed, but not the root
      trial("head", 1, [check()], { output: "b".repeat(3000) }), // the root's failure
      trial("base", 0, [passing], { output: "c".repeat(3000) }), // the base beside it
      trial("head", 2, [passing], { output: "d".repeat(3000) }),
    ];
    const budget = { chars: 8000 }; // two detailed trials (each ~3,600 characters as JSON)
    const out = buildTranscripts(trials, [root], budget);
    expect(out.map((t) => t.id)).toEqual([
      "head/skill/split-1000-3/0",
      "head/skill/split-1000-3/1",
      "base/skill/split-1000-3/0",
      "head/skill/split-1000-3/2",
    ]);
    expect(out.map((t) => t.detail)).toEqual([false, true, true, false]);
    const summary = out[0]!;
    expect(summary.output.length).toBe(SUMMARY_OUTPUT_CHARS);
    expect(summary.files).toEqual([{ path: "src/split.ts", content: "" }]);
    expect(summary.toolCalls).toEqual([{ name: "Write", input: "", turn: 0 }]);
    expect(budget.chars).toBeGreaterThanOrEqual(0);
  });

  it("find a trigger check's trial by its query id (its case is `trigger`)", () => {
    const c = check({ mode: "trigger", caseId: "trigger", checkId: "trigger/fire/2", trial: 1 });
    expect(transcriptIdOfCheck("base", c)).toBe("base/trigger/trigger/fire/2/1");
    expect([...checksByTrial("base", [c]).keys()]).toEqual(["base/trigger/trigger/fire/2/1"]);
  });

  it("mark a trial without a record as an error, never a pass", () => {
    const [t] = buildTranscripts([{ arm: "head", request: request(), record: undefined, checks: [] }], []);
    expect(t!.error).toEqual({ kind: "crash", message: "no record of this trial" });
  });
});
