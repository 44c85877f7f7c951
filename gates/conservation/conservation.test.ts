import { describe, expect, it } from "vitest";
import { runGateSeeds } from "../registry.js";
import { fixture, type Reference, verdictProblems } from "../shared/reference-testing.js";

const count = { mode: "count" };
const references: Reference[] = [
  { file: "good-largest-remainder.ts", options: count },
  { file: "good-largest-remainder.ts", options: { mode: "weights" } },
  { file: "good-cjs-count.js" },
  { file: "bad-round-each.ts", fails: ["sum"] },
  { file: "bad-remainder-to-last.ts", fails: ["fair"] },
  { file: "bad-no-validation.ts", fails: ["invalid"] },
  { file: "bad-exit-at-import.js", fails: ["load"] },
  // Realistic misses (#20): unsafe integer totals accepted, unfair only above 50 parts, float drift ≥ 1e12.
  { file: "bad-isinteger-total.ts", fails: ["invalid"] },
  { file: "bad-unfair-above-50.ts", fails: ["fair"] },
  { file: "bad-float-drift.ts", fails: ["sum"] },
];

describe("conservation gate on reference modules (20 seeds for good ones, 5 for bad ones)", () => {
  it.each(references)("$file $options → fails $fails", async (ref) => {
    expect(await verdictProblems("conservation", ref)).toBe("");
  });
});

describe("messages name the user's export", () => {
  it("a failing splitCents is called splitCents, not allocate", async () => {
    const [r] = await runGateSeeds("conservation", fixture("conservation", "bad-split-cents.ts"), [7], {
      export: "splitCents",
    });
    const sum = r?.checks.find((c) => c.id === "sum");
    expect(sum?.passed).toBe(false);
    expect(sum?.message).toMatch(/splitCents\(\d+, \d+\) shares sum to/);
    expect(JSON.stringify(r?.checks)).not.toContain("allocate(");
  });
});
