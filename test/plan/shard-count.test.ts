import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { shardCount, shardMatrix } from "../../src/plan/shard.js";
import { runCli } from "../support/run-cli.js";

const lines = (calls: number[]) => calls.map((c, i) => ({ skill: `s${i}`, agentCalls: c }));

describe("shardCount", () => {
  it("gives each shard's first batch about `rounds` rounds of agent calls", () => {
    // 300 calls at 8 at once: 10 shards of ~30 calls (4 rounds each).
    expect(shardCount({ lines: lines(Array(10).fill(30)) }, { concurrency: 8, rounds: 4 })).toBe(10);
    expect(shardCount({ lines: lines(Array(10).fill(30)) }, { concurrency: 32, rounds: 4 })).toBe(3);
  });

  it("never splits a skill, and never asks for a shard with nothing to run", () => {
    expect(shardCount({ lines: lines([5000, 4000]) }, { concurrency: 4 })).toBe(2);
    expect(shardCount({ lines: lines([0, 0, 0]) }, { concurrency: 4 })).toBe(1);
    // Two batteries of one skill are one skill.
    expect(
      shardCount(
        {
          lines: [
            { skill: "a", agentCalls: 400 },
            { skill: "a", agentCalls: 400 },
          ],
        },
        { concurrency: 4 },
      ),
    ).toBe(1);
  });

  it("writes the matrix a workflow reads", () => {
    expect(shardMatrix(3)).toEqual({ shard: ["1/3", "2/3", "3/3"] });
  });
});

describe("skillgate plan --matrix", () => {
  const root = mkdtempSync(join(tmpdir(), "sg-matrix-"));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it("chooses the shard count from the forecast", async () => {
    const put = (rel: string, text: string) => {
      mkdirSync(join(root, rel, ".."), { recursive: true });
      writeFileSync(join(root, rel), text);
    };
    put(".skillgate.yml", "agent:\n  adapter: command\n  command: agent.sh\nconcurrency: 2\n");
    put("agent.sh", "#!/bin/sh\necho 42\n");
    for (let i = 0; i < 6; i++) {
      put(`skills/s${i}/SKILL.md`, `---\nname: s${i}\ndescription: Skill ${i}.\n---\nBody.\n`);
      put(`skills/s${i}/evals/meta.json`, JSON.stringify({ trials: 3 }));
      for (const c of ["a", "b"])
        put(
          `skills/s${i}/evals/prompts/${c}.yaml`,
          `id: ${c}\nprompt: Case ${c}.\nassertions:\n  - id: x\n    type: contains\n    value: "42"\n`,
        );
    }
    // A sweep of 6 skills: each 2 cases × 3 trials with the skill (36), and 3 without, shared by all (the same
    // prompts without a skill are one trial): 42 calls at 2 at once, 9 rounds a shard → 3 shards.
    const matrix = join(root, "matrix.json");
    const few = await runCli(["plan", "--repo", root, "--no-cache", "--matrix", matrix, "--rounds", "36"]);
    expect(few.code).toBe(0);
    expect(JSON.parse(readFileSync(matrix, "utf8"))).toEqual({ shard: ["1/1"] });
    const many = await runCli(["plan", "--repo", root, "--no-cache", "--matrix", matrix, "--rounds", "9"]);
    expect(many.stdout).toMatch(/fan out over 3 shard\(s\): 42 agent call\(s\) at 2 at once/);
    expect(JSON.parse(readFileSync(matrix, "utf8")).shard).toEqual(["1/3", "2/3", "3/3"]);
    const bad = await runCli(["plan", "--repo", root, "--matrix", matrix, "--rounds", "0"]);
    expect(bad.code).toBe(2);
  });
});
