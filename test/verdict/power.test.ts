/**
 * Power planning (#38 item 7): `skillgate plan` says what a run of the skill's shape can detect, by simulating the
 * real decision. The figures must move the way the design says: more first-batch trials and a stored base find
 * more; the same shape and seed give the same figure.
 */
import { describe, expect, it } from "vitest";
import { DEFAULT_VERDICT_POLICY } from "../../src/settings/defaults.js";
import { simulatePower } from "../../src/verdict/power.js";
import { runCli } from "../support/run-cli.js";

const shape = { cases: 10, queries: 6, trialsPerCase: 5, triggerRuns: 3, storedBase: 30 };

describe("power planning", () => {
  it("finds the documented regressions at the defaults, and less with three trials and a cold base", async () => {
    const warm5 = await simulatePower(shape, DEFAULT_VERDICT_POLICY, { prs: 300 });
    const cold3 = await simulatePower({ ...shape, trialsPerCase: 3, storedBase: 0 }, DEFAULT_VERDICT_POLICY, {
      prs: 300,
    });
    expect(warm5.caseDrop).toBeGreaterThanOrEqual(0.85);
    expect(warm5.queryDrop).toBeGreaterThanOrEqual(0.9);
    expect(cold3.caseDrop!).toBeLessThan(warm5.caseDrop!);
    // A case at 0.5 passes all three first-batch trials one PR in eight and is never looked at again.
    expect(cold3.caseDrop!).toBeLessThanOrEqual(0.875 + 0.05);
    expect(await simulatePower(shape, DEFAULT_VERDICT_POLICY, { prs: 300 })).toEqual(warm5);
  }, 240_000);

  it("plan prints it per compared skill, with the fix when it misses the goal", async () => {
    const r = await runCli([
      "plan",
      "--repo",
      "examples/demo-repo",
      "--base-dir",
      "examples/demo-repo-base",
      "--no-color",
    ]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(
      /split-cents: 3 case\(s\) × 3 trial\(s\), \d+ queries × 3 run\(s\), against a cold base \(none stored\): a case 0\.9 → 0\.5 found in \d+ %; a should-fire query 1\.0 → 0\.3 in \d+ %/,
    );
    expect(r.stdout).toMatch(/under 90 %: more first-batch trials/);
  });
});
