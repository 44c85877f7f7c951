/**
 * The example agents of docs/agent-protocol.md (examples/agents/: Node and POSIX sh) as agents of a whole
 * `skillgate run`, named the way a user names them: `command: node agents/agent.mjs`, a script path relative to the
 * repository. And a command whose first trials all fail the same way stops there, saying what failed and the fix.
 */
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Report } from "../../src/model/index.js";
import { writeRepo } from "../support/repo-files.js";
import { runCli } from "../support/run-cli.js";

const EXAMPLES = join(import.meta.dirname, "..", "..", "examples", "agents");
const RUN_TIMEOUT_MS = 120_000;

/** A repository with one skill, a case that checks the skill was used, a trigger battery, and `command`. */
function repoWith(command: string, trials = 2): string {
  const repo = writeRepo(
    {
      ".claude/skills/split-bill/SKILL.md":
        "---\nname: split-bill\ndescription: Splits a restaurant bill among people. Use when asked to split a bill.\n---\nSplit the bill evenly; give the remainder cents to the first people.\n",
      ".agent/evals/split-bill/meta.json": `{"trials": ${trials}}\n`,
      ".agent/evals/split-bill/prompts/dinner.yaml": [
        "id: dinner",
        "prompt: Please split bill of 100 dollars among 3 friends.",
        "assertions:",
        "  - id: activated",
        "    type: skill-used",
        "  - id: says-skill",
        "    type: contains",
        "    value: split-bill",
        "",
      ].join("\n"),
      ".agent/evals/split-bill/trigger-eval.json": JSON.stringify({
        shouldFire: ["split bill for our team lunch", "can you split bill between two of us"],
        shouldNotFire: ["write a haiku about autumn", "what is the capital of France"],
      }),
      // concurrency pinned: the early-stop test counts the trials in flight when the first three have failed
      ".skillgate.yml": `agent:\n  adapter: command\n  command: ${command}\ntriggerRuns: 1\ntimeoutSeconds: 30\nconcurrency: 4\n`,
    },
    "sg-example-agent-",
  );
  mkdirSync(join(repo, "agents"));
  for (const f of ["agent.mjs", "agent.sh"]) copyFileSync(join(EXAMPLES, f), join(repo, "agents", f));
  return repo;
}

async function run(repo: string) {
  const json = join(repo, "out", "report.json");
  const r = await runCli(["run", "--repo", repo, "--json", json, "--no-cache", "--quiet"]);
  return { ...r, report: JSON.parse(readFileSync(json, "utf8")) as Report };
}

describe("the example agents, named by a path relative to the repository", () => {
  it.each([["node agents/agent.mjs"], ["sh agents/agent.sh"], ["sh ./agents/agent.sh"]])(
    "`%s` runs every trial of a sweep and passes",
    async (command) => {
      const { code, report, stdout, stderr } = await run(repoWith(command));
      if (code !== 0) console.log(stdout, stderr, JSON.stringify(report.skills[0]?.errors));
      expect(report.verdict).toBe("pass");
      expect(code).toBe(0);
      const skill = report.skills.find((s) => s.name === "split-bill")!;
      expect(skill.errors).toEqual([]);
      expect(skill.trigger?.recall.rate).toBe(1);
      expect(skill.trigger?.precision.rate).toBe(1);
      expect(skill.discriminator?.skill.passRate.units).toBeGreaterThan(0);
    },
    RUN_TIMEOUT_MS,
  );
});

describe("an operator's own config file outside the repository", () => {
  it(
    "resolves its relative command paths from its own folder",
    async () => {
      const repo = repoWith("node agents/not-in-the-repo.mjs");
      const operator = writeRepo({}, "sg-operator-");
      mkdirSync(join(operator, "tools"));
      copyFileSync(join(EXAMPLES, "agent.mjs"), join(operator, "tools", "my-agent.mjs"));
      writeFileSync(
        join(operator, "live.yml"),
        "agent:\n  adapter: command\n  command: node tools/my-agent.mjs\ntriggerRuns: 1\ntimeoutSeconds: 30\n",
      );
      const json = join(repo, "out", "report.json");
      const r = await runCli([
        "run",
        "--repo",
        repo,
        "--config",
        join(operator, "live.yml"),
        "--json",
        json,
        "--no-cache",
        "--quiet",
      ]);
      const report = JSON.parse(readFileSync(json, "utf8")) as Report;
      if (r.code !== 0) console.log(r.stdout, r.stderr);
      expect(report.verdict).toBe("pass");
      expect(r.code).toBe(0);
    },
    RUN_TIMEOUT_MS,
  );
});

describe("a run whose first trials all fail the same way", () => {
  it(
    "stops there with the failure and the fix, instead of failing every trial",
    async () => {
      // The script exists (the check before any trial passes) but fails the way a missing module does.
      const repo = repoWith("node agents/broken.mjs", 8);
      writeFileSync(
        join(repo, "agents", "broken.mjs"),
        "process.stderr.write(\"Error: Cannot find module 'agent-helpers'\\n\");\nprocess.exit(1);\n",
      );
      const { code, report, stdout, stderr } = await run(repo);
      expect(code).toBe(3);
      expect(report.verdict).toBe("error");
      // 8 trials × (skill + baseline) + 4 trigger trials were planned: the first 3 failed while at most 3 more
      // started (concurrency 4), and nothing after.
      expect(report.cost.agentCalls).toBeLessThanOrEqual(6);
      const said = `${stdout}\n${stderr}\n${(report.errors ?? []).join("\n")}`;
      expect(said).toMatch(/the first 3 trials all failed the same way/);
      expect(said).toMatch(/Cannot find module/);
      expect(said).toMatch(/agent\.command.*resolve.*from .*sg-example-agent-/);
    },
    RUN_TIMEOUT_MS,
  );

  it("a script that does not exist is a configuration error before any trial, at its line", async () => {
    const r = await runCli(["run", "--repo", repoWith("node agents/no-such-agent.mjs"), "--no-cache"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /\.skillgate\.yml:3:3: agent\.command .*`agents\/no-such-agent\.mjs` names no file/,
    );
    expect(r.stdout).not.toMatch(/trials \d+\/\d+/);
  });
});
