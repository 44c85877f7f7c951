import { describe, expect, it } from "vitest";
import { gradeTrial } from "../../src/grade/grade-trial.js";
import { decomposeLevels, levelsOf, sumLevels } from "../../src/grade/levels.js";
import type { CheckLevel, CheckResult, CheckStatus } from "../../src/model/index.js";
import { asrt, mkCase, mkSuite, mkTrial } from "./helpers.js";

/** One run's checks: trial-ok plus `[id, level, status, skipReason?]`. */
function run(
  trial: number,
  checks: [string, CheckLevel, CheckStatus, string?][],
  opts: { mode?: "skill" | "baseline"; errored?: boolean } = {},
): CheckResult[] {
  const mode = opts.mode ?? "skill";
  const mk = (assertionId: string, status: CheckStatus, level?: CheckLevel, skipReason?: string) => ({
    checkId: `c/${assertionId}`,
    skill: "s",
    caseId: "c",
    assertionId,
    mode,
    trial,
    status,
    discriminator: false,
    ...(level ? { level } : {}),
    message: "",
    dependsOn: [],
    loc: { file: "f.yaml", line: 1, column: 1 },
    ...(skipReason ? { skipReason } : {}),
  });
  return [
    mk("trial-ok", opts.errored ? "error" : "pass"),
    ...checks.map(([id, level, status, why]) => mk(id, status, level, why)),
  ];
}

describe("decomposeLevels (seeds/002: passed on outcome, failed on process)", () => {
  it("counts, of the runs passing every outcome check, those failing final-state and process checks", () => {
    const checks = [
      // passes everything
      ...run(0, [
        ["answer", "outcome", "pass"],
        ["file", "final-state", "pass"],
        ["order", "process", "pass"],
      ]),
      // right answer, wrong process
      ...run(1, [
        ["answer", "outcome", "pass"],
        ["file", "final-state", "pass"],
        ["order", "process", "fail"],
      ]),
      // right answer, the file check skipped because its dependency failed: a final-state failure
      ...run(2, [
        ["answer", "outcome", "pass"],
        ["wrote", "process", "fail"],
        ["file", "final-state", "skipped", "dependency failed: wrote"],
      ]),
      // wrong answer
      ...run(3, [
        ["answer", "outcome", "fail"],
        ["file", "final-state", "pass"],
        ["order", "process", "pass"],
      ]),
      // errored check: never a pass
      ...run(4, [
        ["answer", "outcome", "error"],
        ["order", "process", "pass"],
      ]),
      // a check whose condition is false did not apply
      ...run(5, [
        ["answer", "outcome", "pass"],
        ["order", "process", "skipped", "condition false"],
      ]),
      // an errored trial gave no answer: left out
      ...run(6, [["answer", "outcome", "skipped", "trial error (crash)"]], { errored: true }),
    ];
    const d = decomposeLevels(checks, "skill")!;
    expect(d.runs).toBe(6);
    expect(d.erroredRuns).toBe(1);
    expect(d.checks).toEqual({ outcome: 1, "final-state": 1, process: 2 });
    // Tempting wrong answer: the skipped final-state check of run 2 passes (it never "failed").
    expect(d.outcomePass).toMatchObject({ passed: 4, total: 6 });
    expect(d.outcomePassFinalStateFail).toMatchObject({ passed: 1, total: 4 });
    expect(d.outcomePassProcessFail).toMatchObject({ passed: 2, total: 4 });
    expect(d.outcomePassAnyDeviation).toMatchObject({ passed: 2, total: 4 });
    expect(d.finalStatePass).toMatchObject({ passed: 3, total: 6 });
    expect(d.finalStatePassProcessFail).toMatchObject({ passed: 1, total: 3 });
    // Wilson 95 %: 2/4 is [15 %, 85 %]
    expect(d.outcomePassProcessFail.low).toBeCloseTo(0.15, 2);
    expect(d.outcomePassProcessFail.high).toBeCloseTo(0.85, 2);
    expect(decomposeLevels(checks, "baseline")).toBeUndefined();
  });

  it("follows a chain of skips: skipped under a skipped-by-condition check did not apply either", () => {
    const d = decomposeLevels(
      run(0, [
        ["answer", "outcome", "pass"],
        ["gate", "final-state", "skipped", "condition false"],
        ["after", "process", "skipped", "dependency skipped: gate"],
      ]),
      "skill",
    )!;
    expect(d.failedRuns).toEqual({ outcome: 0, "final-state": 0, process: 0 });
    const e = decomposeLevels(
      run(0, [
        ["answer", "outcome", "pass"],
        ["gate", "final-state", "fail"],
        ["after", "process", "skipped", "dependency failed: gate"],
        ["later", "process", "skipped", "dependency skipped: after"],
      ]),
      "skill",
    )!;
    expect(e.failedRuns).toEqual({ outcome: 0, "final-state": 1, process: 1 });
  });
});

describe("sumLevels (shards of one run)", () => {
  it("adds two skills' decompositions up to the decomposition of their runs together", () => {
    const a = run(0, [
      ["answer", "outcome", "pass"],
      ["order", "process", "fail"],
    ]);
    const b = run(
      1,
      [
        ["answer", "outcome", "fail"],
        ["file", "final-state", "pass"],
      ],
      { mode: "baseline" },
    ).map((c) => ({ ...c, skill: "t", checkId: `d/${c.assertionId}`, caseId: "d" }));
    const c = run(2, [
      ["answer", "outcome", "pass"],
      ["file", "final-state", "fail"],
    ]).map((x) => ({
      ...x,
      skill: "t",
      checkId: `d/${x.assertionId}`,
      caseId: "d",
    }));
    const whole = levelsOf([...a, ...b, ...c]);
    expect(sumLevels([...levelsOf(a), ...levelsOf([...b, ...c])])).toEqual(whole);
    expect(whole.map((d) => d.mode)).toEqual(["skill", "baseline"]);
  });
});

describe("a check's level", () => {
  it("defaults from its assertion type and follows the suite's `level`", async () => {
    const c = mkCase("c1", [
      asrt("answer", "not-one-of", { values: [333] }, { extract: "first-number" }),
      asrt("wrote", "file-exists", { value: "src/a.ts" }),
      asrt("order", "tool-order", { values: ["Read", "Write"] }),
      asrt("used", "skill-used"),
      asrt("stored", "contains", { value: "x" }, { level: "final-state" }),
    ]);
    const results = await gradeTrial({
      suite: mkSuite([c]),
      caseDef: c,
      trial: mkTrial({ output: "334 x" }),
      vars: {},
      repoDir: ".",
      gateSeed: 1,
    });
    expect(Object.fromEntries(results.map((r) => [r.assertionId, r.level]))).toEqual({
      "trial-ok": undefined,
      answer: "outcome",
      wrote: "final-state",
      order: "process",
      used: "process",
      stored: "final-state",
    });
  });
});
