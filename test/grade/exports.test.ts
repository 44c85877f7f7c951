import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { summariseDiscriminator } from "../../src/grade/discriminator.js";
import type { TrialRecord } from "../../src/model/trial.js";
import { buildBenchmark, buildGrading, writeSkillCreatorExports } from "../../src/report/exports.js";
import { runBattery, suite } from "./battery-fixture.js";

async function battery() {
  const records: TrialRecord[] = [];
  const checks = await runBattery(records);
  return { records, checks, discriminator: summariseDiscriminator(checks) };
}

describe("skill-creator exports", () => {
  it("grading.json uses exactly text / passed / evidence", async () => {
    const { records, checks } = await battery();
    const baseline0 = records.find(
      (r) => r.mode === "baseline" && r.caseId === "split-1000-3" && r.trial === 0,
    )!;
    const g = buildGrading(baseline0, checks, suite);
    expect(g.summary).toEqual({ passed: 1, failed: 3, total: 4, pass_rate: 0.25 });
    for (const e of g.expectations) expect(Object.keys(e).sort()).toEqual(["evidence", "passed", "text"]);
    const lost = g.expectations.find((e) => e.text.startsWith("D:no-lost-cent"))!;
    expect(lost.passed).toBe(false);
    expect(lost.evidence).toContain("saw first number 333");
    expect(g.timing.total_duration_seconds).toBe(1);
  });

  it("benchmark.json: runs with configuration and nested result, summary, delta, analyst notes", async () => {
    const input = {
      skill: { name: "split-cents", path: ".claude/skills/split-cents" },
      suite,
      timestamp: "2026-11-29T12:00:00Z",
      ...(await battery()),
    };
    const b = buildBenchmark(input);
    expect(b.runs).toHaveLength(12);
    expect(b.runs[0]).toMatchObject({
      eval_id: 1,
      eval_name: "split-1000-3",
      configuration: "with_skill",
      run_number: 1,
    });
    expect(b.runs[3]).toMatchObject({ eval_id: 1, configuration: "without_skill", run_number: 1 });
    expect(b.runs[0]!.result).toMatchObject({
      pass_rate: 1,
      passed: 4,
      failed: 0,
      total: 4,
      time_seconds: 1,
    });
    expect(b.metadata).toMatchObject({
      skill_name: "split-cents",
      evals_run: [1, 2],
      runs_per_configuration: 3,
    });
    // with skill: case A runs 1.0 ×3; case B runs 0.5, 0.25, 0.5 → mean 0.7083; without: 0.25 × 6.
    expect(b.run_summary.with_skill!.pass_rate.mean).toBeCloseTo(0.7083, 4);
    expect(b.run_summary.without_skill!.pass_rate).toEqual({ mean: 0.25, stddev: 0, min: 0.25, max: 0.25 });
    expect(b.run_summary.delta.pass_rate).toBe("+0.46");
    expect(b.run_summary.delta.time_seconds).toBe("+0.0");
    expect(b.notes.join("\n")).toContain("split-7-2/explains");
    expect(b.notes.join("\n")).toContain("flaky");
    expect(b.notes.join("\n")).toContain("passes only without the skill");
  });

  it("writes the workspace layout skill-creator's aggregator reads", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), "skillgate-export-"));
    try {
      const written = await writeSkillCreatorExports(dir, {
        skill: { name: "split-cents", path: ".claude/skills/split-cents" },
        suite,
        timestamp: "2026-11-29T12:00:00Z",
        ...(await battery()),
      });
      expect(written).toHaveLength(2 + 12 + 1);
      const g = JSON.parse(await readFile(path.join(dir, "eval-2/without_skill/run-3/grading.json"), "utf8"));
      expect(g.summary.total).toBe(4);
      const meta = JSON.parse(await readFile(path.join(dir, "eval-1/eval_metadata.json"), "utf8"));
      expect(meta).toEqual({ eval_id: 1, eval_name: "split-1000-3", prompt: "prompt of split-1000-3" });
      const b = JSON.parse(await readFile(path.join(dir, "benchmark.json"), "utf8"));
      expect(b.runs).toHaveLength(12);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
