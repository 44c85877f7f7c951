import { describe, expect, it } from "vitest";
import { declaredParams } from "../shared/params.js";
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
  // Parameters with default values (#20): fn.length is 1 for these, the source declares 2 and both are probed.
  { file: "good-offset-default.js" },
  {
    file: "bad-default-unchecked.js",
    fails: ["invalid-nonfinite", "invalid-outside", "invalid-type", "invalid-random"],
  },
  { file: "bad-default-power.ts", fails: ["valid-bounds", "valid-random", "invalid-nonfinite"] },
  // The null-returning module without the throw-or-null option: its nulls are results, not refusals.
  { file: "good-ratio-null.js", options: { domain: ratioDomain }, fails: ["invalid-nonfinite"] },
];

describe("boundary gate on reference modules (20 seeds for good ones, 5 for bad ones)", () => {
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

describe("declaredParams", () => {
  it("counts parameters after the first default value, which fn.length does not", () => {
    function f(a: number, b = 0, c?: number) {
      return a + b + (c ?? 0);
    }
    expect(f.length).toBe(1);
    expect(declaredParams(f.toString())).toEqual({ count: 3, defaults: [false, true, false], rest: false });
    expect(declaredParams("(a, b = 2) => a * b")).toEqual({ count: 2, defaults: [false, true], rest: false });
    expect(declaredParams("x => x")).toEqual({ count: 1, defaults: [false], rest: false });
    expect(declaredParams("async function g({ a } = {}, ...rest) {}")).toEqual({
      count: 1,
      defaults: [true],
      rest: true,
    });
  });
  it("reads methods, and gives up on what is not a function's source", () => {
    expect(declaredParams("scale(v, k = 1) { return v * k; }")).toEqual({
      count: 2,
      defaults: [false, true],
      rest: false,
    });
    expect(declaredParams("function () { [native code] }")).toBeUndefined();
    expect(declaredParams("class A { constructor(a) {} }")).toBeUndefined();
    expect(declaredParams(null)).toBeUndefined();
  });
});
