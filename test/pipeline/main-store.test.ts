/**
 * Issue #38 item 5, end to end through the bundled CLI: the default branch's run (a sweep, examples/workflows/
 * skillgate-main.yml) stores `verdict.baseDepth` trials per case for PRs to read. At the defaults (5 trials per
 * case, depth 30, a budget of 500 calls) a 20-case suite needs 200 first-batch calls and 500 more to store 30
 * trials of each case: the run used to plan all 700 and stop with exit 3, storing nothing. Now each push tops the
 * store up within the budget, evenly over the cases, and `plan` forecasts exactly what the run then pays.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Forecast, Report } from "../../src/model/index.js";
import { scratchFolders } from "../support/action-pr.js";
import { bundledDist } from "../support/dist.js";

const scratch = scratchFolders();
const temp = scratch.temp;
afterAll(() => scratch.cleanup());

let dist: string;
beforeAll(async () => {
  dist = await bundledDist();
}, 180_000);

// A shell script, not a Node one: the three pushes make 700 agent calls, and a Node start-up costs ~0.15 s of CPU each.
const AGENT = `if [ "$SKILLGATE_MODE" = skill ]; then printf ANSWER-OK; else printf 'a guess'; fi\n`;
const CASES = 20;

function repository(): string {
  const dir = temp("sg-store-repo-");
  const files: Record<string, string> = {
    // The defaults but the agent and the cache's folder: trials, baseDepth and the budget are what users get.
    ".skillgate.yml": `agent:\n  adapter: command\n  command: "sh agents/agent.sh"\ncache:\n  dir: ${JSON.stringify(temp("sg-store-cache-"))}\n`,
    "agents/agent.sh": AGENT,
    ".claude/skills/notes/SKILL.md":
      "---\nname: notes\ndescription: Writes release notes.\n---\nAnswer ANSWER-OK.\n",
    ".agent/evals/notes/meta.json": JSON.stringify({ skillVersion: "1", suiteVersion: "1" }),
  };
  for (let i = 0; i < CASES; i++)
    files[`.agent/evals/notes/prompts/c${i}.yaml`] =
      `id: c${i}\nprompt: Write note ${i}.\nassertions:\n  - {id: D:ok, type: contains, value: ANSWER-OK}\n`;
  for (const [p, c] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, p)), { recursive: true });
    writeFileSync(join(dir, p), c);
  }
  return dir;
}

async function cli(dir: string, command: "run" | "plan") {
  const json = join(temp("sg-store-out-"), "out.json");
  const r = await execa(
    process.execPath,
    [join(dist, "cli.js"), command, "--repo", dir, "--no-color", "--json", json],
    { reject: false, env: { ...process.env, SKILLGATE_ISOLATION: "none" } },
  );
  return {
    code: r.exitCode,
    stdout: r.stdout,
    stderr: r.stderr,
    json: JSON.parse(readFileSync(json, "utf8")),
  };
}

/** Per case, the trials the sweep's first batch held (what PRs will read as stored). */
const depths = (r: Report) => Object.values(r.skills[0]!.evidence?.firstBatch.headPerCase ?? {});

describe("the default branch's store fits its budget at defaults", () => {
  it("tops the store up push by push, never over the budget, and plan forecasts what the run pays", async () => {
    const dir = repository();
    const seen: number[][] = [];
    for (let push = 0; push < 3; push++) {
      const plan = await cli(dir, "plan");
      expect(plan.code, plan.stdout + plan.stderr).toBe(0);
      const forecast = (plan.json as { forecast: Forecast }).forecast ?? (plan.json as Forecast);
      const run = await cli(dir, "run");
      expect(run.code, run.stdout + run.stderr).toBe(0);
      const report = run.json as Report;
      expect(report.cost.agentCalls).toBeLessThanOrEqual(500);
      expect(forecast.total.agentCalls).toBe(report.cost.agentCalls);
      seen.push(depths(report));
    }
    // First push: 200 first-batch calls, 300 more spread evenly: every case 5 + 15 = 20 trials.
    expect(seen[0]).toEqual(Array.from({ length: CASES }, () => 20));
    // Second push: the 20 stored are free; 10 more per case reach the depth of 30 (200 calls).
    expect(seen[1]).toEqual(Array.from({ length: CASES }, () => 30));
    // Third push: everything stored, nothing paid.
    expect(seen[2]).toEqual(Array.from({ length: CASES }, () => 30));
  }, 600_000);
});
