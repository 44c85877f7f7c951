import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Report } from "../../src/model/index.js";
import { DEFAULT_VERDICT_POLICY } from "../../src/settings/defaults.js";
import { evidenceDisagreements } from "../../src/verdict/recompute.js";
import { runCli } from "../support/run-cli.js";

// The default branch pays for the base once (#29 item 2): its run stores `verdict.baseDepth` trials per case, and a
// PR's base arm reads them all, paying only for its head arm.

let root: string;
const DEPTH = 8;

function writeRepo(dir: string, body: string, cacheDir: string, agent: string): void {
  const put = (rel: string, text: string) => {
    mkdirSync(join(dir, rel, ".."), { recursive: true });
    writeFileSync(join(dir, rel), text);
  };
  put(
    ".skillgate.yml",
    `agent:\n  adapter: command\n  command: ${JSON.stringify(agent)}\nconcurrency: 4\nverdict:\n  baseDepth: ${DEPTH}\ncache:\n  dir: ${JSON.stringify(cacheDir)}\n`,
  );
  put(".claude/skills/tally/SKILL.md", `---\nname: tally\ndescription: Adds numbers.\n---\n${body}\n`);
  put(".agent/evals/tally/meta.json", JSON.stringify({ trials: 3 }));
  for (const id of ["a", "b"])
    put(
      `.agent/evals/tally/prompts/${id}.yaml`,
      `id: ${id}\nprompt: Case ${id}, answer 42.\nassertions:\n  - id: is-42\n    type: contains\n    value: "42"\n`,
    );
}

async function run(args: string[]): Promise<Report> {
  const out = join(root, `r-${Math.random().toString(36).slice(2)}.json`);
  const r = await runCli(["run", ...args, "--json", out, "--quiet"]);
  expect([0, 1]).toContain(r.code);
  return JSON.parse(readFileSync(out, "utf8")) as Report;
}

beforeAll(() => {
  vi.stubEnv("SKILLGATE_ISOLATION", "none");
  root = mkdtempSync(join(tmpdir(), "sg-stored-"));
  writeFileSync(join(root, "agent.sh"), "#!/bin/sh\ncat >/dev/null\necho 42\n", { mode: 0o755 });
});
afterAll(() => {
  vi.unstubAllEnvs();
  rmSync(root, { recursive: true, force: true });
});

describe("stored base trials", () => {
  it("the default branch's run stores baseDepth trials per case; a PR's base arm reads them for free", async () => {
    const agent = join(root, "agent.sh");
    const mainCache = join(root, "main-cache");
    writeRepo(join(root, "main"), "Add them.", mainCache, agent);
    const main = await run(["--repo", join(root, "main")]);
    // 2 cases × 8 skill-mode trials, and the first batch's 3 baseline trials each.
    expect(main.cost.agentCalls).toBe(2 * DEPTH + 2 * 3);
    expect(main.skills[0]!.evidence!.firstBatch.headPerCase).toEqual({ a: DEPTH, b: DEPTH });

    // The PR reads a copy of main's store (it cannot write what main reads); its base checkout is elsewhere.
    const prCache = join(root, "pr-cache");
    cpSync(mainCache, prCache, { recursive: true });
    writeRepo(join(root, "pr-base"), "Add them.", prCache, agent);
    writeRepo(join(root, "pr-head"), "Add them, carefully.", prCache, agent);
    const pr = await run(["--repo", join(root, "pr-head"), "--base-dir", join(root, "pr-base")]);
    expect(pr.verdict).toBe("pass");
    // Paid: the head arm's first batch only. Served: every stored base trial and the shared baselines.
    expect(pr.cost.agentCalls).toBe(2 * 3);
    expect(pr.cost.cacheHits).toBe(2 * DEPTH + 2 * 3);
    const skill = pr.skills[0]!;
    expect(skill.evidence!.firstBatch.basePerCase).toEqual({ a: DEPTH, b: DEPTH });
    const baseTrialsOfA = new Set(
      skill.evidence!.base!.filter((c) => c.caseId === "a" && c.mode === "skill").map((c) => c.trial),
    );
    expect(baseTrialsOfA.size).toBe(DEPTH);
    expect(evidenceDisagreements(pr, DEFAULT_VERDICT_POLICY)).toEqual([]);
    // The report says how long the PR waited, in rounds of agent calls.
    expect(pr.rounds?.map((r) => r.label)).toEqual(["first batch"]);
    expect(pr.rounds![0]).toMatchObject({
      trials: 2 * DEPTH + 4 * 3,
      agentCalls: 6,
      cacheHits: 2 * DEPTH + 6,
    });
  });

  it("a cold PR runs only its first batch in the base arm (no stored trials to read)", async () => {
    const agent = join(root, "agent.sh");
    const cache = join(root, "cold-cache");
    writeRepo(join(root, "cold-base"), "Add them.", cache, agent);
    writeRepo(join(root, "cold-head"), "Add them, carefully.", cache, agent);
    const pr = await run(["--repo", join(root, "cold-head"), "--base-dir", join(root, "cold-base")]);
    expect(pr.cost.agentCalls).toBe(2 * 3 * 3);
    expect(pr.skills[0]!.evidence!.firstBatch.basePerCase).toBeUndefined();
  });
});
