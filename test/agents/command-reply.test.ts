/**
 * The command protocol's contract: src/agents/command-reply.schema.json is what the code validates replies with,
 * and docs/agent-protocol.md documents it (its key table and its example reply are checked against the schema).
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { COMMAND_REPLY_SCHEMA, parseCommandOutput } from "../../src/agents/command.js";
import { writeRepo } from "../support/repo-files.js";

const ROOT = join(import.meta.dirname, "..", "..");
const DOC = readFileSync(join(ROOT, "docs", "agent-protocol.md"), "utf8");

const errorOf = (reply: unknown) => {
  const r = parseCommandOutput(JSON.stringify(reply));
  return "protocolError" in r ? r.protocolError : undefined;
};

describe("the command reply schema", () => {
  it("accepts the reply docs/agent-protocol.md shows, and reads every key of it", () => {
    const json = /```json\n([\s\S]*?)```/.exec(DOC)?.[1];
    expect(json).toBeDefined();
    const r = parseCommandOutput(json!);
    expect("protocolError" in r ? r.protocolError : undefined).toBeUndefined();
    if ("protocolError" in r) return;
    expect(r.skillsActivated).toEqual(["split-cents"]);
    expect(r.toolCalls.map((c) => [c.name, c.turn])).toEqual([
      ["Skill", 0],
      ["Write", 1],
    ]);
    expect(r.usage).toEqual({ inputTokens: 1200, outputTokens: 85, costUsd: 0.0042 });
  });

  it("is documented key by key in docs/agent-protocol.md", () => {
    const documented = [...DOC.matchAll(/^\| `(\w+)` \|/gm)].map((m) => m[1]);
    expect(documented).toEqual(Object.keys(COMMAND_REPLY_SCHEMA.properties));
  });

  it("refuses what does not fit, saying where and what was meant", () => {
    expect(errorOf({ text: "hi" })).toMatch(/JSON reply lacks a string "output"/);
    expect(errorOf({ output: "x", skillsActivate: ["a"] })).toMatch(
      /unknown key "skillsActivate"; did you mean `skillsActivated`\?/,
    );
    expect(errorOf({ output: "x", toolCalls: [{ input: {} }] })).toMatch(/toolCalls\[0\] lacks a "name"/);
    expect(errorOf({ output: "x", toolCalls: [{ name: "Read", turn: "1" }] })).toMatch(
      /"toolCalls\[0\]\.turn" must be integer/,
    );
    expect(errorOf({ output: "x", usage: { costUsd: -1 } })).toMatch(/"usage\.costUsd" must be >= 0/);
    expect(errorOf({ output: 42 })).toMatch(/"output" must be string/);
    expect(errorOf({ output: 42 })).toMatch(/command-reply\.schema\.json/);
  });

  it("takes text that only looks like an object as plain output", () => {
    const r = parseCommandOutput("{ not json }");
    expect("protocolError" in r ? undefined : r.output).toBe("{ not json }");
  });
});

describe("the example agents' replies fit the schema", () => {
  const workspace = writeRepo({
    ".agents/skills/split-bill/SKILL.md":
      "---\nname: split-bill\ndescription: Splits bills.\n---\nSplit evenly.\n",
  });
  mkdirSync(join(workspace, "empty"));
  writeFileSync(join(workspace, "empty", ".keep"), "");

  it.each([
    ["node", join(ROOT, "examples/agents/agent.mjs")],
    ["sh", join(ROOT, "examples/agents/agent.sh")],
  ])("%s: a skill named in the prompt is activated; none otherwise", (program, script) => {
    const ask = (prompt: string, cwd: string) => {
      const stdout = execFileSync(program, [script], { cwd, input: prompt, encoding: "utf8", stdio: "pipe" });
      const r = parseCommandOutput(stdout);
      if ("protocolError" in r) throw new Error(r.protocolError);
      return r;
    };
    expect(ask("Please split bill for three", workspace).skillsActivated).toEqual(["split-bill"]);
    expect(ask("Write a poem", workspace).skillsActivated).toEqual([]);
    expect(ask("Please split bill for three", join(workspace, "empty")).skillsActivated).toEqual([]);
  });
});
