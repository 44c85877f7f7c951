import { describe, expect, it } from "vitest";
import { type Reference, verdictProblems } from "../shared/reference-testing.js";

const temporal = { mode: "temporal" };
const references: Reference[] = [
  { file: "good-group-hash.ts" },
  { file: "good-temporal-cut.js", options: temporal },
  { file: "bad-row-shuffle.js", fails: ["groups-disjoint"] },
  { file: "bad-math-random.js", fails: ["deterministic"] },
  { file: "bad-temporal-index.js", options: temporal, fails: ["time-order"] },
  { file: "bad-temporal-unsorted.js", options: temporal, fails: ["time-order"] },
  // A correct temporal split still mixes groups: not a group split.
  { file: "good-temporal-cut.js", fails: ["groups-disjoint"] },
  // #20: group split up to 1,000 rows, row shuffle above.
  { file: "bad-leaks-above-1000.js", fails: ["groups-disjoint"] },
];

describe("leakage gate on reference modules (20 seeds for good ones, 5 for bad ones)", () => {
  it.each(references)(
    "$file $options → fails $fails",
    async (ref) => {
      expect(await verdictProblems("leakage", ref)).toBe("");
      // 20 seeds (5 for a bad module) in one child, each with a few cases of thousands of rows or events, and for a failing module
      // one probe per shrink step: minutes on a loaded 2-core machine.
    },
    240_000,
  );
});
