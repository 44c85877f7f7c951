import { describe, expect, it } from "vitest";
import { summariseRobustness, tierOf } from "../../src/grade/robustness.js";
import type { CheckResult } from "../../src/model/check.js";
import type { Case } from "../../src/model/suite.js";

let n = 0;
function check(partial: Partial<CheckResult>): CheckResult {
  n++;
  return {
    checkId: `c/a${n}`,
    skill: "s",
    caseId: "c",
    assertionId: `a${n}`,
    mode: "skill",
    trial: 0,
    status: "pass",
    discriminator: false,
    message: "",
    dependsOn: [],
    loc: { file: "f", line: 1, column: 1 },
    ...partial,
  };
}

function gateRun(
  gate: string,
  passed: boolean,
  loaded = true,
  mode: CheckResult["mode"] = "skill",
): CheckResult {
  const checks = loaded
    ? [{ id: "sum", passed, message: "" }]
    : [{ id: "load", passed: false, message: "no export" }];
  return check({
    mode,
    status: passed && loaded ? "pass" : "fail",
    details: { gate: { gate, passed: passed && loaded, seed: 1, checks, metrics: {} } },
  });
}

describe("robustness summary", () => {
  it("maps untagged gates and discriminators onto dimensions, never inventing unmeasured ones", () => {
    const s = summariseRobustness({
      cases: [
        { id: "c", prompt: "p", files: [], assertions: [], vars: {}, loc: { file: "f", line: 1, column: 1 } },
      ],
      checks: [
        gateRun("conservation", true),
        gateRun("conservation", false),
        gateRun("boundary", true),
        gateRun("tenant-isolation", true),
        gateRun("tenant-isolation", false, false), // did not load: hallucination, not security
        check({ discriminator: true, status: "pass" }),
        check({ discriminator: true, status: "fail" }),
        check({ discriminator: false, status: "fail" }), // ordinary assertion: no dimension
        check({ discriminator: true, status: "fail", mode: "baseline" }), // baseline: not rated
        gateRun("complexity", false, true, "baseline"),
      ],
    });
    const d = Object.fromEntries(s.dimensions.map((x) => [x.id, x]));
    // adversarial: conservation 1/2 + boundary 1/1 + discriminators 1/2 = 3/5
    expect(d["adversarial-correctness"]).toMatchObject({ measured: true, passed: 3, total: 5, score: 60 });
    // tenant-isolation: one run passed, one did not load (a failed probe, not a pass)
    expect(d["security-awareness"]).toMatchObject({ measured: true, passed: 1, total: 2, score: 50 });
    // A gate module that failed to load is not a measure of hallucination (issue #32): that needs probes made for it.
    expect(d.hallucination!.measured).toBe(false);
    for (const id of [
      "spec-underspecification",
      "consistency-under-reformulation",
      "error-recovery",
      "refusal-calibration",
      "graceful-degradation",
    ]) {
      expect(d[id]!.measured).toBe(false);
      expect(d[id]!.score).toBeUndefined();
    }
    expect(s.dimensions).toHaveLength(8);
    // The tempting wrong answer: the mean of what was measured, labelled as if it were the whole audit.
    expect(s.composite).toBeUndefined();
    expect(s.tier).toBeUndefined();
    expect(s.partial).toEqual({ measured: 2, of: 8 });
    expect(s.label).toBe("partial, 2 of 8");
  });

  it("tiers: ≥85 robust, 70–84 adequate, 50–69 fragile, <50 unreliable; nothing measured → no composite", () => {
    expect([85, 84.9, 70, 69.9, 50, 49.9].map(tierOf)).toEqual([
      "robust",
      "adequate",
      "adequate",
      "fragile",
      "fragile",
      "unreliable",
    ]);
    const none = summariseRobustness({ checks: [check({})], cases: [] });
    expect(none.composite).toBeUndefined();
    expect(none.tier).toBeUndefined();
  });
});

describe("probes whose trials crashed", () => {
  const loc = { file: "f", line: 1, column: 1 };
  const refusal = {
    id: "refused",
    rawType: "icontains",
    type: "icontains",
    negate: false,
    discriminator: false,
    dependsOn: [],
    params: { value: "cannot" },
    rubric: "refusal" as const,
    loc,
  };
  const stated = { ...refusal, id: "stated", rubric: "stated" as const };
  const caseOf = (id: string, probe: Case["probe"], assertions: Case["assertions"] = [refusal]): Case => ({
    id,
    prompt: id,
    files: [],
    assertions,
    vars: {},
    loc,
    probe,
  });
  const crashed = (caseId: string, assertionId: string) => [
    check({
      caseId,
      assertionId: "trial-ok",
      checkId: `${caseId}/trial-ok`,
      status: "fail",
      message: "crash",
    }),
    // the rubric check is skipped on a crashed trial: an empty set of checks must not read as "refused"
    check({ caseId, assertionId, checkId: `${caseId}/${assertionId}`, status: "skipped" }),
  ];
  it("never pass a rubric (the tempting answer: every() of no checks is true)", () => {
    const s = summariseRobustness({
      cases: [
        caseOf("imp", { dimension: "refusal-calibration", expect: "refusal" }),
        caseOf("ctl", { dimension: "refusal-calibration" }),
        caseOf("und", { dimension: "spec-underspecification" }, [stated]),
      ],
      checks: [...crashed("imp", "refused"), ...crashed("ctl", "refused"), ...crashed("und", "stated")],
    });
    const d = Object.fromEntries(s.dimensions.map((x) => [x.id, x]));
    expect(d["refusal-calibration"]!.score).toBe(0);
    expect(d["spec-underspecification"]!.score).toBe(0);
  });
});
