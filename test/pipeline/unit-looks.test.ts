import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Report } from "../../src/model/index.js";
import { DEFAULT_VERDICT_POLICY } from "../../src/settings/defaults.js";
import { evidenceDisagreements } from "../../src/verdict/recompute.js";
import { runCli } from "../support/run-cli.js";

// Issue #38 item 8: a unit is decided as its own trials arrive, not round by round, so one slow trial holds only its
// own unit. Two suspect cases, `a` and `b`, each fail head trial 0 only (never at base): 1/5 vs 0/5 is a suspect,
// 1/9 vs 0/30 still is (look 2), 1/22 is not new (look 3). Case a's look-2 head trials (5–8) are slow: they wait for
// case b's look-3 trials (9+) to start. Run round by round, b's look 3 waits for a's look 2 and a's trials wait in
// vain (the agent writes `a-stalled` when it gives up); run per unit, b moves on and releases a. No timing is
// asserted: only whether b's third look started while a's second was still running.

let root: string;

const AGENT = (dir: string, slow = true) => `#!/bin/sh
cat >/dev/null
f=.agents/skills/tally/SKILL.md
head=no; grep -q HEAD-ARM "$f" 2>/dev/null && head=yes
if [ "$head" = yes ] && [ "$SKILLGATE_TRIAL" = 0 ]; then echo 41; exit 0; fi
if [ "$head" = yes ] && [ "$SKILLGATE_CASE" = b ] && [ "$SKILLGATE_TRIAL" -ge 9 ]; then : > ${JSON.stringify(join(dir, "b-look3"))}; fi
if [ ${slow ? "yes" : "no"} = yes ] && [ "$head" = yes ] && [ "$SKILLGATE_CASE" = a ] && [ "$SKILLGATE_TRIAL" -ge 5 ] && [ "$SKILLGATE_TRIAL" -le 8 ]; then
  n=0
  while [ ! -e ${JSON.stringify(join(dir, "b-look3"))} ]; do
    n=$((n + 1))
    if [ "$n" -ge 150 ]; then : > ${JSON.stringify(join(dir, "a-stalled"))}; break; fi
    sleep 0.1
  done
fi
echo 42
`;

function writeRepo(dir: string, body: string, agent: string, budget?: number): void {
  const put = (rel: string, text: string) => {
    mkdirSync(join(dir, rel, ".."), { recursive: true });
    writeFileSync(join(dir, rel), text);
  };
  put(
    ".skillgate.yml",
    `agent:\n  adapter: command\n  command: ${JSON.stringify(agent)}\nconcurrency: 8\ncache:\n  enabled: false\n${budget ? `budget:\n  maxAgentCalls: ${budget}\n` : ""}`,
  );
  put(".claude/skills/tally/SKILL.md", `---\nname: tally\ndescription: Adds numbers.\n---\n${body}\n`);
  put(".agent/evals/tally/meta.json", JSON.stringify({ trials: 5 }));
  for (const id of ["a", "b"])
    put(
      `.agent/evals/tally/prompts/${id}.yaml`,
      `id: ${id}\nprompt: Case ${id}, answer 42.\nassertions:\n  - id: is-42\n    type: contains\n    value: "42"\n`,
    );
}

beforeAll(() => {
  vi.stubEnv("SKILLGATE_ISOLATION", "none");
  root = mkdtempSync(join(tmpdir(), "sg-unit-looks-"));
  writeFileSync(join(root, "agent.sh"), AGENT(root), { mode: 0o755 });
  writeFileSync(join(root, "fast.sh"), AGENT(join(root, "fast"), false), { mode: 0o755 });
});
afterAll(() => {
  vi.unstubAllEnvs();
  rmSync(root, { recursive: true, force: true });
});

describe("confirmation per unit", () => {
  it("a unit's next look starts while another unit's slow trials are still running", async () => {
    const agent = join(root, "agent.sh");
    writeRepo(join(root, "base"), "Add them.", agent);
    writeRepo(join(root, "head"), "Add them, carefully. HEAD-ARM", agent);
    const out = join(root, "report.json");
    const r = await runCli([
      "run",
      "--repo",
      join(root, "head"),
      "--base-dir",
      join(root, "base"),
      "--json",
      out,
      "--quiet",
    ]);
    expect(r.code).toBe(0);
    const report = JSON.parse(readFileSync(out, "utf8")) as Report;
    const roots = Object.fromEntries(report.skills[0]!.roots.map((x) => [x.id, x]));
    // Both went to their third look (22 head trials) and were found not new there.
    expect(roots["a/is-42"]).toMatchObject({ status: "not-significant", head: { failed: 1, trials: 22 } });
    expect(roots["b/is-42"]).toMatchObject({ status: "not-significant", head: { failed: 1, trials: 22 } });
    expect(existsSync(join(root, "b-look3"))).toBe(true);
    expect(existsSync(join(root, "a-stalled"))).toBe(false);
    // Each unit's looks are batches of their own; the PR waited for the first batch and two looks.
    expect(report.rounds!.map((x) => [x.label.replace(/: .*/, ""), x.look ?? 1])).toEqual(
      expect.arrayContaining([
        ["first batch", 1],
        ["confirmation look 2 of ≤4", 2],
        ["confirmation look 3 of ≤4", 3],
      ]),
    );
    expect(report.rounds).toHaveLength(5);
    // The decisions replay from the report's evidence in lockstep: the same per unit.
    expect(evidenceDisagreements(report, DEFAULT_VERDICT_POLICY)).toEqual([]);
  });

  it("units in flight together share one budget: the run never spends past it", async () => {
    const agent = join(root, "fast.sh");
    const run = async (name: string, budget?: number) => {
      writeRepo(join(root, `${name}-base`), "Add them.", agent, budget);
      writeRepo(join(root, `${name}-head`), "Add them, carefully. HEAD-ARM", agent, budget);
      const out = join(root, `${name}.json`);
      const r = await runCli([
        "run",
        "--repo",
        join(root, `${name}-head`),
        "--base-dir",
        join(root, `${name}-base`),
        "--json",
        out,
        "--quiet",
      ]);
      return { code: r.code, report: JSON.parse(readFileSync(out, "utf8")) as Report };
    };
    const free = await run("free");
    const firstBatch = free.report.rounds![0]!.agentCalls;
    // Room for a few confirmation trials, far fewer than the two units' looks ask for at once.
    const budget = firstBatch + 6;
    const { report } = await run("tight", budget);
    expect(report.cost.agentCalls).toBeLessThanOrEqual(budget);
    expect(report.cost.agentCalls).toBeGreaterThan(firstBatch);
    for (const id of ["a/is-42", "b/is-42"])
      expect(report.skills[0]!.roots.find((x) => x.id === id)?.status).toBe("inconclusive");
  });
});
