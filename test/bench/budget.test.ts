import { describe, expect, it } from "vitest";
import { countFlag, keepSampling, SECTION_SHARES, sectionDeadline } from "../../bench/budget.js";

describe("the bench's time allotment", () => {
  it("gives each section its share of the time left, so time a section leaves goes to the ones after it", () => {
    const now = 1_000_000;
    const left = ["verdict-e2e", "discovery", "fuzz"];
    const total = left.reduce((a, s) => a + SECTION_SHARES[s]!, 0);
    expect(sectionDeadline("verdict-e2e", left, 300_000, now)).toBeCloseTo(
      now + (300_000 * SECTION_SHARES["verdict-e2e"]!) / total,
    );
    // The last section gets all that is left; an overrun leaves nothing (sections then take their minimums).
    expect(sectionDeadline("fuzz", ["fuzz"], 42_000, now)).toBe(now + 42_000);
    expect(sectionDeadline("fuzz", ["fuzz"], -5_000, now)).toBe(now);
    expect(sectionDeadline("fuzz", ["fuzz"], Number.POSITIVE_INFINITY, now)).toBe(Number.POSITIVE_INFINITY);
  });

  it("samples up to the minimum whatever the time, never past the maximum, and stops when one more would end late", () => {
    const past = { deadline: Date.now() - 1 };
    expect(keepSampling(past, 0, 2, 5, Date.now())).toBe(true);
    expect(keepSampling(past, 1, 2, 5, Date.now())).toBe(true);
    expect(keepSampling(past, 2, 2, 5, Date.now())).toBe(false);
    const endless = { deadline: Number.POSITIVE_INFINITY };
    expect(keepSampling(endless, 4, 2, 5, Date.now())).toBe(true);
    expect(keepSampling(endless, 5, 2, 5, Date.now())).toBe(false);
    // Two samples took 10 s: a third (5 s) would end after a deadline 4 s away, and before one 6 s away.
    const soon = { deadline: Date.now() + 4_000 };
    expect(keepSampling(soon, 2, 1, 10, Date.now() - 10_000)).toBe(false);
    expect(keepSampling({ deadline: Date.now() + 6_000 }, 2, 1, 10, Date.now() - 10_000)).toBe(true);
  });

  it("reads a sample-count flag as a positive integer and refuses anything else", () => {
    expect(countFlag({ flags: { fuzzRuns: "300" } }, "fuzzRuns")).toBe(300);
    expect(countFlag({ flags: {} }, "fuzzRuns")).toBeUndefined();
    for (const bad of ["0", "-3", "2.5", "many"])
      expect(() => countFlag({ flags: { fuzzRuns: bad } }, "fuzzRuns")).toThrow(
        /--fuzz-runs must be a positive integer/,
      );
    expect(() => countFlag({ flags: { fuzzRuns: true } }, "fuzzRuns")).toThrow(/--fuzz-runs/);
  });
});
