import { describe, expect, it } from "vitest";
import { type Reference, verdictProblems } from "../shared/reference-testing.js";
import { nextDouble } from "./index.js";

const score = { domain: [{ min: 0, max: 100, integer: true }] };
const ratioDomain = [
  { min: 0, max: 1000 },
  { min: 1, max: 1000 },
];
const references: Reference[] = [
  { file: "good-score.ts", options: score },
  { file: "good-ratio-null.js", options: { domain: ratioDomain, invalid: "throw-or-null" } },
  {
    file: "bad-range-only.ts",
    options: score,
    fails: ["invalid-nonfinite", "invalid-type", "invalid-fraction"],
  },
  { file: "bad-exclusive-bounds.ts", options: score, fails: ["valid-bounds"] },
  { file: "bad-global-isnan.js", options: score, fails: ["invalid-type", "invalid-fraction"] },
  // Same domain as the good one, but b may be 0 here: (0, 0) is inside its own check, yet yields NaN.
  {
    file: "bad-division-nan.js",
    options: {
      domain: [
        { min: 0, max: 1000 },
        { min: 0, max: 1000 },
      ],
    },
    fails: ["valid-bounds"],
  },
  // The null-returning module without the throw-or-null option: its nulls are results, not refusals.
  { file: "good-ratio-null.js", options: { domain: ratioDomain }, fails: ["invalid-nonfinite"] },
];

describe("boundary gate on reference modules (20 seeds each)", () => {
  it.each(references)("$file $options → fails $fails", async (ref) => {
    expect(await verdictProblems("boundary", ref)).toBe("");
  });
});

describe("nextDouble", () => {
  it("is the adjacent double, not a rounded neighbour", () => {
    expect(nextDouble(1, 1)).toBe(1 + Number.EPSILON);
    expect(nextDouble(0, -1)).toBe(-Number.MIN_VALUE);
    expect(nextDouble(-1, -1)).toBeLessThan(-1);
    expect(nextDouble(100, 1) > 100 && nextDouble(100, 1) - 100 < 1e-13).toBe(true);
  });
});
