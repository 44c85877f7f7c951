import { describe, expect, it } from "vitest";
import { type Reference, verdictProblems } from "../shared/reference-testing.js";

const count = { mode: "count" };
const references: Reference[] = [
  { file: "good-largest-remainder.ts", options: count },
  { file: "good-largest-remainder.ts", options: { mode: "weights" } },
  { file: "good-cjs-count.js" },
  { file: "bad-round-each.ts", fails: ["sum"] },
  { file: "bad-remainder-to-last.ts", fails: ["fair"] },
  { file: "bad-no-validation.ts", fails: ["invalid"] },
  { file: "bad-exit-at-import.js", fails: ["load"] },
];

describe("conservation gate on reference modules (20 seeds each)", () => {
  it.each(references)("$file $options → fails $fails", async (ref) => {
    expect(await verdictProblems("conservation", ref)).toBe("");
  });
});
