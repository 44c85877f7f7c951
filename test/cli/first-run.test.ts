/**
 * Issue #33 item 3: each first failure of a new user ends with the exact flag or setting to use. A fresh
 * repository with one skill and a suite, run as a user first would.
 */
import { rmSync } from "node:fs";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { writeRepo } from "../support/repo-files.js";
import { runCli } from "../support/run-cli.js";

const scratch: string[] = [];
afterAll(() => {
  for (const d of scratch) rmSync(d, { recursive: true, force: true });
});
afterEach(() => vi.unstubAllEnvs());

function freshRepo(): string {
  const d = writeRepo(
    {
      ".claude/skills/calc/SKILL.md":
        "---\nname: calc\ndescription: Adds numbers exactly. Use for sums and totals.\n---\nAdd the numbers.\n",
      ".claude/skills/calc/evals/meta.json": '{"trials": 1}\n',
      ".claude/skills/calc/evals/prompts/sum.yaml":
        "id: sum\nprompt: What is 2 + 2?\nassertions:\n  - id: four\n    type: contains\n    value: '4'\n",
    },
    "sg-first-run-",
  );
  scratch.push(d);
  return d;
}

describe("a first run", () => {
  it("with no agent chosen says how to choose one: the flag and the config key", async () => {
    const r = await runCli(["run", "--repo", freshRepo()]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/recordings folder \.skillgate\/recordings does not exist/);
    expect(r.stderr).toMatch(/--agent claude-code/);
    expect(r.stderr).toMatch(/agent: \{ ?adapter: claude-code/);
  });

  it.each(["anthropic", "openai"])(
    "with `--agent %s` and no model names `--model` and `agent.model`",
    async (adapter) => {
      const r = await runCli(["run", "--repo", freshRepo(), "--agent", adapter]);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/needs a model( \(.*\))?: `--model NAME`/);
      expect(r.stderr).toMatch(new RegExp(`agent: \\{adapter: ${adapter}, model: `));
    },
  );

  it("takes the model from `--model`", async () => {
    const r = await runCli(["plan", "--repo", freshRepo(), "--agent", "anthropic", "--model", "claude-x"]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/anthropic\/claude-x/);
  });

  it.each([
    ["claude-code", /npm install -g @anthropic-ai\/claude-code/],
    ["codex", /npm install -g @openai\/codex/],
  ])("with `--agent %s` and its CLI not installed says how to install it", async (adapter, install) => {
    vi.stubEnv("PATH", "/usr/bin:/bin");
    const r = await runCli(["run", "--repo", freshRepo(), "--agent", adapter]);
    expect(r.code).toBe(2);
    expect(r.stderr).not.toMatch(/spawn \w+ ENOENT$/m);
    expect(r.stderr).toMatch(install);
    expect(r.stderr).toMatch(/command:/);
  });
});
