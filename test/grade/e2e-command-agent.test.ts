/**
 * End to end through the real runner and `command` adapter: a deterministic agent script that answers correctly
 * only when the skill is installed in its workspace. Exact discriminator figures come out the other end, the same
 * as for the in-process deterministic agent (battery.test.ts).
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import "../../src/agents/index.js";
import { summariseDiscriminator } from "../../src/grade/discriminator.js";
import { gradeTrial } from "../../src/grade/grade-trial.js";
import type { CheckResult } from "../../src/model/check.js";
import type { TrialRequest } from "../../src/model/trial.js";
import { runTrials } from "../../src/run/runner.js";
import { makeRequest, recordingLogger, skill } from "../support/trials.js";
import { suite, TRIALS } from "./battery-fixture.js";

const AGENT = `import { existsSync, mkdirSync, writeFileSync } from "node:fs";
const withSkill = existsSync(".agents/skills/split-cents/SKILL.md");
const trial = Number(process.env.SKILLGATE_TRIAL);
const caseId = process.env.SKILLGATE_CASE;
let output;
if (caseId === "split-1000-3") {
  mkdirSync("src", { recursive: true });
  writeFileSync("src/split.ts", withSkill ? "const base = Math.floor(total / n);" : "Math.round(total / n)");
  output = withSkill ? "Parts: 334, 333, 333 (sum 1000)" : "Parts: 333, 333, 333 for the 1000 cents";
} else {
  output = withSkill ? "4 and 3: the sum is 7" + (trial % 2 === 0 ? " (note: first gets the extra cent)" : "") : "quick answer: 3 and 3, the sum is 6";
}
const calls = [{ name: "Write", input: { file_path: "src/split.ts" } }];
process.stdout.write(JSON.stringify({ output, skillsActivated: withSkill ? ["split-cents"] : [], toolCalls: calls }));
`;

let repo: string;

beforeAll(async () => {
  repo = await mkdtemp(path.join(os.tmpdir(), "skillgate-e2e-"));
  await mkdir(path.join(repo, ".claude/skills/split-cents"), { recursive: true });
  await writeFile(
    path.join(repo, ".claude/skills/split-cents/SKILL.md"),
    "---\nname: split-cents\ndescription: Split cents without losing one.\n---\nFloor, then hand out the remainder.\n",
  );
  await writeFile(path.join(repo, "agent.mjs"), AGENT);
});

afterAll(async () => {
  await rm(repo, { recursive: true, force: true });
});

describe("discriminator battery through the command adapter", () => {
  it("reproduces the exact figures", async () => {
    const installed = skill("split-cents", path.join(repo, ".claude/skills/split-cents"), ["SKILL.md"]);
    const requests: TrialRequest[] = [];
    for (const mode of ["skill", "baseline"] as const) {
      for (const c of suite.cases) {
        for (let t = 0; t < TRIALS; t++) {
          requests.push(
            makeRequest({
              prompt: c.prompt,
              caseId: c.id,
              mode,
              trial: t,
              install: mode === "skill" ? [installed] : [],
              ...(mode === "baseline" ? { constraints: ["Do NOT read any file under .claude/skills/"] } : {}),
            }),
          );
        }
      }
    }
    const run = await runTrials(requests, {
      agent: { adapter: "command", command: `node ${path.join(repo, "agent.mjs")}` },
      repoDir: repo,
      concurrency: 2,
      timeoutMs: 30_000,
      cache: { enabled: false, dir: path.join(repo, ".cache") },
      budget: {},
      logger: recordingLogger(),
      workspaceParent: repo,
    });
    expect(run.records.filter((r) => r.error)).toEqual([]);
    const checks: CheckResult[] = [];
    for (const record of run.records) {
      const caseDef = suite.cases.find((c) => c.id === record.caseId)!;
      checks.push(
        ...(await gradeTrial({ suite, caseDef, trial: record, vars: {}, repoDir: repo, gateSeed: 1 })),
      );
    }
    // The workspace files came back from the real adapter: the file assertion saw them.
    expect(checks.find((c) => c.checkId === "split-1000-3/D:uses-floor" && c.mode === "skill")!.status).toBe(
      "pass",
    );
    const s = summariseDiscriminator(checks);
    // Each case one vote: case A passes all its checks, case B 5 of 12 (the battery test's figures).
    expect(s.skill.passRate).toMatchObject({ units: 2, passing: 1, trials: 6 });
    expect(s.skill.passRate.rate).toBeCloseTo(17 / 24, 12);
    expect(s.baseline.passRate.rate).toBeCloseTo(0.25, 12);
    expect(s.skill.discriminatorPassRate).toMatchObject({ units: 2, passing: 2, rate: 1 });
    expect(s.baseline.discriminatorPassRate).toMatchObject({ units: 2, passing: 0, rate: 0 });
    expect(s.lift).toBeCloseTo(11 / 24, 12);
    expect(s.discriminatorLift).toBe(1);
    expect(Object.fromEntries(s.assertions.map((a) => [a.id, a.class]))).toEqual({
      "mentions-total": "non-discriminating",
      "D:no-lost-cent": "discriminating",
      activated: "discriminating",
      "D:uses-floor": "discriminating",
      "D:sum": "discriminating",
      explains: "flaky",
      terse: "skill-hurts",
      impossible: "broken",
    });
  });
});
