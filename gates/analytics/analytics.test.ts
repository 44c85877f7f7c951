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
  // #20: a plain object as the dedupe set drops ids like "constructor"; sampling above 1,000 events.
  { file: "bad-object-dedupe.js", fails: ["count"] },
  { file: "bad-sampled-percentiles.js", fails: ["percentiles"] },
];

describe("analytics gate on reference modules (20 seeds for good ones, 5 for bad ones)", () => {
  it.each(references)(
    "$file $options → fails $fails",
    async (ref) => {
      expect(await verdictProblems("analytics", ref)).toBe("");
      // 20 seeds (5 for a bad module) in one child, each with a few cases of thousands of rows or events, and for a failing module
      // one probe per shrink step: minutes on a loaded 2-core machine.
    },
    240_000,
  );
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
