import { describe, expect, it } from "vitest";
import { type Reference, verdictProblems } from "../shared/reference-testing.js";

const references: Reference[] = [
  { file: "good-pool.ts" },
  { file: "good-class-cjs.js" },
  { file: "bad-unbounded.js", fails: ["concurrency-limit"] },
  { file: "bad-serial.js", fails: ["parallelism"] },
  { file: "bad-retry-off-by-one.js", fails: ["retry-storm"] },
  { file: "bad-mutating-dlq.js", fails: ["dead-letters"] },
  { file: "bad-drain-early.js", fails: ["drain"] },
  { file: "bad-drain-hangs.js", fails: ["drain"] },
];

describe("queue gate on reference modules (20 seeds each)", () => {
  it.each(references)("$file → fails $fails", async (ref) => {
    expect(await verdictProblems("queue", ref)).toBe("");
  });
});
