/**
 * Issue #38 item 7, end to end through the bundled CLI: `plan --noise` reads the default branch's stored trials
 * (what the main workflow's sweep stored) and reports the repository's noise floor before a team makes the check
 * required — flaky units with their counts, units too flaky to gate, units that fail every stored trial — without
 * a single agent call.
 */
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { StoredNoise } from "../../src/verdict/noise.js";
import { scratchFolders } from "../support/action-pr.js";
import { bundledDist } from "../support/dist.js";

const scratch = scratchFolders();
const temp = scratch.temp;
afterAll(() => scratch.cleanup());

let dist: string;
beforeAll(async () => {
  dist = await bundledDist();
}, 180_000);

const DEPTH = 12;

/** Steady passes, broken never does, flaky passes every other call (numbered slots, so the test itself is not flaky). */
function agentSource(calls: string, counter: string): string {
  return `import { appendFileSync, closeSync, openSync, readFileSync } from "node:fs";
appendFileSync(${JSON.stringify(calls)}, "call\\n");
const prompt = readFileSync(0, "utf8");
const skill = process.env.SKILLGATE_MODE === "skill";
let answer = "a guess";
if (skill && prompt.includes("steady")) answer = "ANSWER-OK";
if (skill && prompt.includes("flaky")) {
  // The first free slot, claimed atomically: trials run concurrently.
  let n = 0;
  for (;;) { try { closeSync(openSync(${JSON.stringify(counter)} + "." + n, "wx")); break; } catch { n++; } }
  answer = n % 2 === 0 ? "ANSWER-OK" : "a guess";
}
process.stdout.write(answer);
`;
}

function repository(calls: string): string {
  const dir = temp("sg-noise-repo-");
  const files: Record<string, string> = {
    ".skillgate.yml": `agent:\n  adapter: command\n  command: ${JSON.stringify(`${process.execPath} agents/agent.mjs`)}\ncache:\n  dir: ${JSON.stringify(temp("sg-noise-cache-"))}\nverdict:\n  baseDepth: ${DEPTH}\n`,
    "agents/agent.mjs": agentSource(calls, join(temp("sg-noise-counter-"), "n")),
    ".claude/skills/notes/SKILL.md":
      "---\nname: notes\ndescription: Writes release notes.\n---\nAnswer ANSWER-OK.\n",
    ".agent/evals/notes/meta.json": JSON.stringify({ skillVersion: "1", suiteVersion: "1" }),
  };
  for (const id of ["steady", "flaky", "broken"])
    files[`.agent/evals/notes/prompts/${id}.yaml`] =
      `id: ${id}\nprompt: Write the ${id} note.\nassertions:\n  - {id: D:ok, type: contains, value: ANSWER-OK}\n`;
  for (const [p, c] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, p)), { recursive: true });
    writeFileSync(join(dir, p), c);
  }
  return dir;
}

async function cli(dir: string, args: string[]) {
  const json = join(temp("sg-noise-out-"), "out.json");
  const r = await execa(
    process.execPath,
    [join(dist, "cli.js"), ...args, "--repo", dir, "--no-color", "--json", json],
    {
      reject: false,
      env: { ...process.env, SKILLGATE_ISOLATION: "none" },
    },
  );
  return { code: r.exitCode, out: r.stdout + r.stderr, json: JSON.parse(readFileSync(json, "utf8")) };
}

const callCount = (file: string) => {
  try {
    return readFileSync(file, "utf8").split("\n").filter(Boolean).length;
  } catch {
    return 0;
  }
};

describe("plan --noise: the repository's noise floor from the stored trials", () => {
  it("says nothing is stored before the default branch's run, then lists flaky and failing units, with no agent call", async () => {
    const calls = join(temp("sg-noise-calls-"), "calls");
    appendFileSync(calls, "");
    const dir = repository(calls);
    const cold = await cli(dir, ["plan", "--noise"]);
    expect(cold.code, cold.out).toBe(0);
    expect(cold.out).toMatch(/notes: nothing stored for the default branch/);
    expect(callCount(calls)).toBe(0);

    // The sweep itself fails (the broken case fails at head with no base), and stores every trial it ran.
    const sweep = await cli(dir, ["run"]);
    expect(sweep.code, sweep.out).toBe(1);
    const paid = callCount(calls);
    expect(paid).toBeGreaterThanOrEqual(3 * DEPTH);

    const plan = await cli(dir, ["plan", "--noise"]);
    expect(plan.code, plan.out).toBe(0);
    expect(callCount(calls)).toBe(paid);
    const noise = (plan.json as { noise: Record<string, StoredNoise> }).noise.notes!;
    expect(noise.arm).toBe("head");
    expect(noise.storedPerCase).toBe(DEPTH);
    expect(noise.flaky.map((u) => [u.checkId, u.passes, u.trials])).toEqual([
      ["flaky/D:ok", DEPTH / 2, DEPTH],
    ]);
    expect(noise.alwaysFail.map((u) => u.checkId)).toEqual(["broken/D:ok"]);
    const flaky = noise.flaky[0]!;
    expect(flaky.droppedTo).toBeCloseTo(0.1);
    expect(flaky.power).toBeGreaterThanOrEqual(0);
    expect(noise.tooFlaky.length).toBe((flaky.power ?? 0) < 0.9 ? 1 : 0);
    expect(plan.out).toContain(`flaky/D:ok ${DEPTH / 2}/${DEPTH}`);
    expect(plan.out).toMatch(/fail every stored trial \(no PR can make them worse\): broken\/D:ok/);
    expect(plan.out).not.toContain("steady/D:ok");
  }, 600_000);
});
