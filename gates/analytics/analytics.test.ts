import { describe, expect, it } from "vitest";
import { type Reference, verdictProblems } from "../shared/reference-testing.js";
import { percentile } from "./index.js";

const references: Reference[] = [
  { file: "good-nearest-rank.ts" },
  { file: "good-linear-cjs.js", options: { percentile: "linear" } },
  { file: "bad-counts-duplicates.ts", fails: ["count", "sum"] },
  { file: "bad-lexicographic-sort.js", fails: ["percentiles"] },
  { file: "bad-floor-index.js", fails: ["percentiles"] },
  { file: "bad-empty-crash.js", fails: ["empty"] },
  // A correct linear-interpolation module is not a nearest-rank one.
  { file: "good-linear-cjs.js", fails: ["percentiles"] },
];

describe("analytics gate on reference modules (20 seeds each)", () => {
  it.each(references)("$file $options → fails $fails", async (ref) => {
    expect(await verdictProblems("analytics", ref)).toBe("");
  });
});

describe("percentile", () => {
  it("nearest rank is the ⌈p·n/100⌉-th value; linear interpolates", () => {
    const xs = [15, 20, 35, 40, 50];
    expect(percentile(xs, 30, "nearest-rank")).toBe(20);
    expect(percentile(xs, 40, "nearest-rank")).toBe(20);
    expect(percentile(xs, 50, "nearest-rank")).toBe(35);
    expect(percentile(xs, 100, "nearest-rank")).toBe(50);
    expect(percentile(xs, 40, "linear")).toBe(29);
    expect(percentile([7], 99, "linear")).toBe(7);
  });
});
