/**
 * The claude-code adapter against the real Claude Code CLI (pinned devDependency) talking to a scripted Messages
 * API on loopback. The scripted model decides from what the CLI sends (skill listing, system prompt), so routing
 * and isolation are observed, not assumed. A handful of trials: each CLI start costs seconds.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { parseClaudeStream } from "../../src/agents/claude-code.js";
import type { TrialRecord } from "../../src/model/index.js";
import { type RunOptions, runTrials } from "../../src/run/runner.js";
import { isolation } from "../../src/sandbox/isolation/detect.js";
import {
  apiError,
  hang,
  type ScriptedRequest,
  type ScriptedServer,
  startScriptedAnthropic,
  text,
  toolUse,
} from "../support/scripted-anthropic.js";
import { makeRequest, recordingLogger, skill } from "../support/trials.js";

const CLAUDE = resolve("node_modules/.bin/claude");
const CONSTRAINT = "Answer from your own knowledge only; do not look for skills or instructions on disk.";
let server: ScriptedServer;
let repo: string;
let confined: boolean;
const saved = { ...process.env };

const listed = (r: ScriptedRequest, name: string) => r.raw.includes(`- ${name}:`);

/** The scripted model: one behaviour per scenario word in the prompt. */
function model(r: ScriptedRequest) {
  if (!r.hasTools) return text("ok");
  if (r.raw.includes("SCENARIO-SKILL")) {
    if (r.turn === 0) {
      // Called by the name Claude Code lists it under (a plugin's skill: `acme:split-cents`).
      const name = /- ((?:[a-z0-9-]+:)?split-cents):/.exec(r.raw)?.[1];
      return name ? toolUse("Skill", { skill: name }) : text("no skill");
    }
    if (r.turn === 1) {
      const body = r.lastUserText.includes("Largest remainder") ? "// largest remainder\n" : "// naive\n";
      return toolUse("Write", {
        file_path: "src/split.ts",
        content: `${body}export const splitCents = () => [334, 333, 333];\n`,
      });
    }
    return text("The parts are 334, 333 and 333.");
  }
  if (r.raw.includes("SCENARIO-BASELINE")) {
    if (r.turn === 0) return toolUse("Bash", { command: "env | sort; ls -a" });
    const sawConstraint = JSON.stringify(r.body.system ?? "").includes(CONSTRAINT);
    return text(`listed=${listed(r, "split-cents")} constraint=${sawConstraint} parts=333,333,333`);
  }
  if (r.raw.includes("SCENARIO-TRIGGER")) {
    // A router that fires on money prompts when the skill is on offer.
    const prompt = /SCENARIO-TRIGGER:([^"]*)/.exec(r.raw)?.[1] ?? "";
    const money = /split the bill|cents/i.test(prompt);
    if (r.turn === 0 && money && listed(r, "split-cents")) return toolUse("Skill", { skill: "split-cents" });
    return text("done");
  }
  if (r.raw.includes("SCENARIO-ERROR")) return apiError(400, "scripted bad request");
  if (r.raw.includes("SCENARIO-HANG")) return hang();
  return text("plain");
}

function opts(p: Partial<RunOptions> = {}): RunOptions {
  return {
    agent: { adapter: "claude-code", command: CLAUDE },
    repoDir: repo,
    concurrency: 3,
    timeoutMs: 90_000,
    maxRetries: 0,
    cache: { enabled: false, dir: join(repo, ".cache") },
    budget: {},
    logger: recordingLogger(),
    ...p,
  };
}

beforeAll(async () => {
  confined = (await isolation()).level !== "none";
  server = await startScriptedAnthropic(model);
  repo = mkdtempSync(join(tmpdir(), "cc-repo-"));
  const mk = (name: string, content: string) => {
    mkdirSync(join(repo, ".claude/skills", name, "evals"), { recursive: true });
    writeFileSync(join(repo, ".claude/skills", name, "SKILL.md"), content);
    writeFileSync(join(repo, ".claude/skills", name, "evals/secret.json"), "{}");
  };
  mk(
    "split-cents",
    "---\nname: split-cents\ndescription: Split money amounts in cents without losing a cent.\n---\n\nLargest remainder.\n",
  );
  mk("weather-report", "---\nname: weather-report\ndescription: Write weather reports.\n---\n\nBe brief.\n");
  mk("no-description", "---\nname: no-description\n---\n\nA skill the router cannot see.\n");
  process.env.ANTHROPIC_BASE_URL = server.url;
  process.env.ANTHROPIC_API_KEY = "sk-ant-dummy";
  process.env.GITHUB_TOKEN = "ghs_must_not_leak";
});

afterAll(async () => {
  for (const k of ["ANTHROPIC_BASE_URL", "ANTHROPIC_API_KEY", "GITHUB_TOKEN"]) {
    if (saved[k] === undefined) delete process.env[k];
    else process.env[k] = saved[k];
  }
  await server?.close();
});

const inst = (name: string, files = ["SKILL.md", "evals/secret.json"]) =>
  skill(name, join(repo, ".claude/skills", name), files);

describe("claude-code adapter with the real CLI", () => {
  let records: TrialRecord[];
  beforeAll(async () => {
    const catalogue = [inst("split-cents"), inst("weather-report")];
    const out = await runTrials(
      [
        makeRequest({
          prompt: "SCENARIO-SKILL: split 1000 cents among 3 people",
          install: [inst("split-cents")],
        }),
        makeRequest({
          prompt: "SCENARIO-BASELINE: split 1000 cents among 3",
          mode: "baseline",
          constraints: [CONSTRAINT],
        }),
        makeRequest({
          prompt: "SCENARIO-TRIGGER: help me split the bill",
          mode: "trigger",
          install: catalogue,
        }),
        makeRequest({
          prompt: "SCENARIO-TRIGGER: what is the capital of France?",
          mode: "trigger",
          install: catalogue,
        }),
        makeRequest({
          prompt: "SCENARIO-UNREG: hello",
          skill: "no-description",
          install: [inst("no-description")],
        }),
        makeRequest({ prompt: "SCENARIO-ERROR: hello", install: [inst("split-cents")] }),
      ],
      opts(),
    );
    records = out.records;
  }, 240_000);

  test("skill trial: the skill is registered, loaded through the Skill tool, and the agent writes files", () => {
    const r = records[0]!;
    expect(r.error).toBeUndefined();
    expect(r.skillsRegistered).toContain("split-cents");
    expect(r.skillsActivated).toEqual(["split-cents"]);
    expect(r.toolCalls.map((c) => [c.name, c.turn])).toEqual([
      ["Skill", 0],
      ["Write", 1],
    ]);
    expect(r.toolCalls[0]!.output).toMatch(/Launching skill: split-cents/);
    // The skill body reached the model, so it wrote the largest-remainder version.
    expect(r.files["src/split.ts"]).toMatch(/^\/\/ largest remainder\n/);
    expect(Object.keys(r.files).some((f) => f.includes("evals") || f.startsWith(".claude"))).toBe(false);
    expect(r.output).toBe("The parts are 334, 333 and 333.");
    expect(r.usage.inputTokens).toBeGreaterThan(0);
    expect(r.usage.costUsd).toBeGreaterThan(0);
  });

  test("baseline: the skill is neither on disk nor listed, the constraint block is in the system prompt, env is scrubbed", () => {
    const r = records[1]!;
    expect(r.error).toBeUndefined();
    expect(r.output).toBe("listed=false constraint=true parts=333,333,333");
    expect(r.skillsActivated).toEqual([]);
    const shell = r.toolCalls[0]!.output ?? "";
    // Confined, the agent is given the egress relay inside its sandbox; unconfined, the URL itself, redacted from
    // what it reported back (a base URL may carry credentials).
    expect(shell).toMatch(
      confined ? /^ANTHROPIC_BASE_URL=http:\/\/127\.0\.0\.1:41000$/m : /^ANTHROPIC_BASE_URL=\[REDACTED\]$/m,
    );
    expect(shell).toMatch(/HOME=.*\/work-\w+\/\d+$/m);
    // its temp folders are the trial's own, never a shared /tmp another user may have pre-created
    const home = /^HOME=(.*)$/m.exec(shell)![1]!;
    expect(shell).toContain(`\nTMPDIR=${home}/tmp\n`);
    expect(shell).toContain(`\nCLAUDE_CODE_TMPDIR=${home}/tmp\n`);
    expect(shell).not.toMatch(/GITHUB_TOKEN|ghs_must_not_leak/);
    expect(shell).not.toMatch(/\.claude/);
  });

  test("trigger: fires on a matching prompt, stays quiet on an unrelated one", () => {
    expect(records[2]!.error).toBeUndefined();
    expect(records[2]!.skillsRegistered).toEqual(expect.arrayContaining(["split-cents", "weather-report"]));
    expect(records[2]!.skillsActivated).toEqual(["split-cents"]);
    expect(records[3]!.error).toBeUndefined();
    expect(records[3]!.skillsActivated).toEqual([]);
  });

  test("a skill Claude Code does not register is unregistered-skill, not a miss", () => {
    expect(records[4]!.error?.kind).toBe("unregistered-skill");
    expect(records[4]!.error?.message).toMatch(/"no-description" is not among the skills claude registered/);
  });

  test("an API error reply is an error record, never an answer", () => {
    const r = records[5]!;
    expect(r.error).toMatchObject({ kind: "protocol" });
    expect(r.error?.message).toMatch(/model API answered 400/);
  });

  test("a model that hangs is a timeout and the CLI is killed", async () => {
    const out = await runTrials(
      [makeRequest({ prompt: "SCENARIO-HANG: hello", install: [inst("split-cents")] })],
      opts({ timeoutMs: 8_000 }),
    );
    expect(out.records[0]!.error).toMatchObject({ kind: "timeout", transient: true });
  }, 60_000);

  test("a plugin's skill (`acme:split-cents`, installed as a project skill) is registered and fires under its full name", async () => {
    const plugin = { ...inst("split-cents"), name: "acme:split-cents" };
    const out = await runTrials(
      [
        makeRequest({
          prompt: "SCENARIO-SKILL: split 1000 cents among 3 people",
          skill: "acme:split-cents",
          install: [plugin],
        }),
      ],
      opts(),
    );
    const r = out.records[0]!;
    expect(r.error).toBeUndefined();
    expect(r.skillsRegistered).toContain("acme:split-cents");
    expect(r.skillsActivated).toEqual(["acme:split-cents"]);
    expect(r.files["src/split.ts"]).toMatch(/^\/\/ largest remainder\n/);
  }, 120_000);

  test("identity carries the CLI version, and the trigger-stop policy (it decides what a trigger trial records)", async () => {
    const out = await runTrials([], opts());
    expect(out.identity).toMatch(/^claude-code\/2\.1\.\d+\/default\/trigger-stop=first-action$/);
  });
});

describe("parseClaudeStream", () => {
  test("an error result with a text reply is an error, and the API status decides the kind", () => {
    const lines = [
      { type: "system", subtype: "init", skills: ["a"] },
      {
        type: "assistant",
        message: { id: "m1", content: [{ type: "text", text: "API Error: 529 overloaded" }] },
      },
      {
        type: "result",
        subtype: "success",
        is_error: true,
        api_error_status: 529,
        result: "API Error: 529 overloaded",
      },
    ];
    const { result, complete } = parseClaudeStream(lines.map((l) => JSON.stringify(l)).join("\n"));
    expect(complete).toBe(true);
    expect(result.error).toMatchObject({ kind: "rate-limit", transient: true });
  });

  test("tool calls across turns, results joined by id, a Read of SKILL.md counts as activation", () => {
    const lines = [
      {
        type: "assistant",
        message: {
          id: "m1",
          content: [{ type: "tool_use", id: "t1", name: "Glob", input: { pattern: "**" } }],
        },
      },
      { type: "user", message: { content: [{ type: "tool_result", tool_use_id: "t1", content: "a\nb" }] } },
      { type: "assistant", message: { id: "m2", content: [{ type: "text", text: "let me read" }] } },
      {
        type: "assistant",
        message: {
          id: "m2",
          content: [
            {
              type: "tool_use",
              id: "t2",
              name: "Read",
              input: { file_path: "/w/.claude/skills/x-y/SKILL.md" },
            },
          ],
        },
      },
      {
        type: "user",
        message: {
          content: [
            {
              type: "tool_result",
              tool_use_id: "t2",
              content: [{ type: "text", text: "boom" }],
              is_error: true,
            },
          ],
        },
      },
      "not json",
      {
        type: "result",
        subtype: "success",
        is_error: false,
        result: "fine",
        total_cost_usd: 0.5,
        usage: { input_tokens: 3, cache_read_input_tokens: 4, output_tokens: 5 },
      },
    ];
    const { result } = parseClaudeStream(
      lines.map((l) => (typeof l === "string" ? l : JSON.stringify(l))).join("\n"),
    );
    expect(result.toolCalls).toEqual([
      { name: "Glob", input: { pattern: "**" }, turn: 0, output: "a\nb" },
      {
        name: "Read",
        input: { file_path: "/w/.claude/skills/x-y/SKILL.md" },
        turn: 1,
        output: "boom",
        isError: true,
      },
    ]);
    expect(result.skillsActivated).toEqual(["x-y"]);
    expect(result.usage).toEqual({ inputTokens: 7, outputTokens: 5, costUsd: 0.5 });
    expect(result.notes).toEqual(["1 non-JSON line(s) in the stream ignored"]);
    expect(result.error).toBeUndefined();
  });
});
