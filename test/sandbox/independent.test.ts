import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runGate } from "../../gates/registry.js";

// Written apart from the gates' reference modules, in other styles (semaphore queue, pg-style $1 parameters,
// Hamilton apportionment on float quotas, reduce-based dedupe): correct code must pass, whatever its shape.
const fx = (f: string) => join(import.meta.dirname, "fixtures", "independent", f);
const cases: [string, string, Record<string, unknown>?][] = [
  ["queue", "queue-semaphore.mjs"],
  ["leakage", "split-temporal.ts", { mode: "temporal" }],
  ["analytics", "aggregate.js"],
  ["conservation", "allocate-hamilton.ts", { mode: "weights" }],
  ["tenant-isolation", "invoice-pg.ts"],
  [
    "boundary",
    "clamp.js",
    {
      domain: [
        { min: 0, max: 1_000_000 },
        { min: 0, max: 100 },
      ],
    },
  ],
];

describe("independently written correct modules pass", () => {
  it.each(cases)("%s %s", async (gate, file, options) => {
    const r = await runGate(gate, fx(file), { options, seed: 99 });
    expect(r.checks.filter((c) => !c.passed)).toEqual([]);
    expect(r.passed).toBe(true);
  });
});
