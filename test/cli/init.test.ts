/**
 * Issue #21: `init` writes a suite that is honest (what only the author can write is a TODO- key that `validate`
 * rejects at its line until it is replaced) and useful (once filled in, the next steps it prints run: validate
 * passes, and the printed `run` evaluates the skill against the real Claude Code CLI, here on a scripted model).
 */
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TODO_KEYS } from "../../src/cli/commands/init.js";
import { writeRepo } from "../support/repo-files.js";
import { runCli } from "../support/run-cli.js";
import { type ScriptedServer, startScriptedAnthropic, text, toolUse } from "../support/scripted-anthropic.js";

const ROOT = join(import.meta.dirname, "../..");
const scratch: string[] = [];
const saved = {
  PATH: process.env.PATH,
  ANTHROPIC_BASE_URL: process.env.ANTHROPIC_BASE_URL,
  ANTHROPIC_API_KEY: process.env.ANTHROPIC_API_KEY,
};
let model: ScriptedServer;
beforeAll(async () => {
  // Knows the house answer only when the skill's body reached it.
  model = await startScriptedAnthropic((r) => {
    if (!r.hasTools) return text("ok");
    const asked = /house answer/i.test(r.lastUserText);
    if (r.turn === 0 && asked && r.raw.includes("- house-answer:"))
      return toolUse("Skill", { skill: "house-answer" });
    if (!asked) return text("It is sunny.");
    return text(r.raw.includes("The house answer is 42") ? "42" : "41");
  });
});
afterAll(async () => {
  await model.close();
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  for (const d of scratch) rmSync(d, { recursive: true, force: true });
});

/** The commands under "Next steps:", as printed. */
const nextSteps = (stdout: string) =>
  stdout
    .split("Next steps:")[1]!
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l.startsWith("skillgate "));

describe("skillgate init", () => {
  it("scaffolds placeholders validate rejects at their lines, then next steps that run once they are filled in", async () => {
    const dir = writeRepo({
      ".claude/skills/house-answer/SKILL.md":
        '---\nname: house-answer\ndescription: Gives the house answer when someone asks for it.\nmetadata:\n  version: "2.1"\n---\nThe house answer is 42.\n',
      // The repository's policy: a run without a base stores 3 trials per case for PRs to read (30 by default,
      // each a whole Claude Code process here); what init writes and prints does not depend on it.
      ".skillgate.yml": "verdict:\n  baseDepth: 3\n",
    });
    scratch.push(dir);
    const r = await runCli(["init", "house-answer", "--repo", dir]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("created .claude/skills/house-answer/evals/meta.json");
    const [validate, run] = nextSteps(r.stdout);
    expect(validate).toBe(`skillgate validate --repo ${dir}`);
    expect(run).toBe(`skillgate run --repo ${dir} --skills house-answer --agent claude-code`);
    const argv = (line: string) => line.split(" ").slice(1);

    // 1. As scaffolded: every TODO- key is an error at its own line.
    const evals = join(dir, ".claude/skills/house-answer/evals");
    const before = await runCli(argv(validate!));
    expect(before.code).toBe(2);
    for (const [file, key] of [
      ["prompts/example.yaml", "TODO-prompt"],
      ["prompts/example.yaml", "TODO-value"],
      ["trigger-eval.json", "TODO-shouldFire"],
      ["trigger-eval.json", "TODO-shouldNotFire"],
    ] as const) {
      const line =
        readFileSync(join(evals, file), "utf8")
          .split("\n")
          .findIndex((l) => new RegExp(`^\\s*"?${key}"?:`).test(l)) + 1;
      expect(before.stdout).toContain(`.claude/skills/house-answer/evals/${file}:${line}:`);
    }
    // …and with the prompt written, the assertion's placeholder is still named
    const caseFile = join(evals, "prompts/example.yaml");
    writeFileSync(
      caseFile,
      readFileSync(caseFile, "utf8").replace(/^TODO-prompt: .*$/m, 'prompt: "What is the house answer?"'),
    );
    const middle = await runCli(argv(validate!));
    expect(middle.code).toBe(2);
    expect(middle.stdout).toMatch(/example\.yaml:\d+:\d+: error: unknown key `TODO-value`/);
    expect(TODO_KEYS.every((k) => before.stdout.includes(k) || middle.stdout.includes(k))).toBe(true);

    // 2. Filled in by the author: validate passes.
    writeFileSync(
      caseFile,
      readFileSync(caseFile, "utf8").replace(/^(\s*)TODO-value: .*$/m, '$1value: "41"'),
    );
    writeFileSync(
      join(evals, "trigger-eval.json"),
      JSON.stringify({
        shouldFire: [{ prompt: "What is the house answer?" }, { prompt: "Tell me the house answer, please" }],
        shouldNotFire: [{ prompt: "What is the weather like?" }, { prompt: "Write a haiku about rain" }],
      }),
    );
    const after = await runCli(argv(validate!));
    expect(after.stdout).toMatch(/0 error\(s\)/);
    expect(after.code).toBe(0);

    // 3. The printed run, with Claude Code on PATH (as `npm install -g` puts it) and its model on loopback.
    process.env.PATH = `${join(ROOT, "node_modules/.bin")}:${saved.PATH}`;
    process.env.ANTHROPIC_BASE_URL = model.url;
    process.env.ANTHROPIC_API_KEY = "sk-ant-scripted";
    const ran = await runCli([...argv(run!), "--quiet"]);
    expect(ran.stderr).toBe("");
    expect(ran.stdout).toMatch(/skillgate: PASS {2}1 skill\(s\)/);
    expect(ran.stdout).toContain("[agent claude-code");
    expect(ran.code).toBe(0);

    // 4. A second init does not overwrite the author's work.
    const again = await runCli(["init", "house-answer", "--repo", dir]);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/^skillgate init: .*pass --force to overwrite/);
  }, 240_000);
});
