import { describe, expect, it } from "vitest";
import { type Reference, verdictProblems } from "../shared/reference-testing.js";
import { phaseSizes } from "./scenario.js";

const references: Reference[] = [
  { file: "good-pool.ts" },
  { file: "good-class-cjs.js" },
  { file: "bad-unbounded.js", fails: ["concurrency-limit"] },
  { file: "bad-serial.js", fails: ["parallelism"] },
  { file: "bad-retry-off-by-one.js", fails: ["retry-storm"] },
  { file: "bad-mutating-dlq.js", fails: ["dead-letters"] },
  { file: "bad-drain-early.js", fails: ["drain"] },
  { file: "bad-drain-hangs.js", fails: ["drain"] },
  // #20: slow attempts against a per-attempt timeout, pushes to a queue that went idle.
  { file: "good-timeout-late.ts" },
  { file: "bad-timeout-retry.js", fails: ["exactly-once"] },
  { file: "bad-no-restart.js", fails: ["drain"] },
  // #27: a timeout of the module's own (10 s, its own option name), only reached on a virtual clock.
  { file: "good-own-timeout.ts" },
  { file: "bad-own-timeout.js", fails: ["exactly-once"] },
];

// A good module must pass on every one of 20 seeds (a false failure is what a user pays for); a bad one must fail
// its check on each of 5. A bad module fails several properties, each shrunk per seed: 20 seeds of those took
// over 120 s alone on this 2-core machine.
describe("queue gate on reference modules (20 seeds for good ones, 5 for bad ones)", () => {
  it.each(references)(
    "$file → fails $fails",
    async (ref) => {
      expect(await verdictProblems("queue", ref)).toBe("");
      // 20 seeds of 500 scenarios in one child, a tenth of them timed with attempts that sleep a few ms, and
      // for a failing module one probe per shrink step: 10–25 s each on a loaded 2-core machine.
    },
    120_000,
  );
});

describe("phaseSizes", () => {
  it("splits the jobs into nearly equal pushes, never an empty one", () => {
    expect(phaseSizes(4)).toEqual([4]);
    expect(phaseSizes(4, 2)).toEqual([2, 2]);
    expect(phaseSizes(7, 3)).toEqual([3, 2, 2]);
    expect(phaseSizes(2, 3)).toEqual([1, 1]);
  });
});
