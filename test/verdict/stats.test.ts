import { describe, expect, it } from "vitest";
import { fisherOneSided, minAttainableP, seededRandom, wilson } from "../../src/verdict/stats.js";

describe("fisherOneSided", () => {
  it("gives 1/252 for the best case at 5 trials per arm (5/5 vs 0/5), not significant at 0.001", () => {
    expect(fisherOneSided(5, 5, 0, 5)).toBeCloseTo(1 / 252, 12);
    expect(minAttainableP(5, 5)).toBeCloseTo(1 / 252, 12);
  });

  it("matches hand-computed hypergeometric tails", () => {
    // 1 failure in 10 trials, 5 at head: P(X ≥ 1) = 1/2.
    expect(fisherOneSided(1, 5, 0, 5)).toBeCloseTo(0.5, 12);
    // 2 failures, both at head: C(5,2)/C(10,2) = 10/45.
    expect(fisherOneSided(2, 5, 0, 5)).toBeCloseTo(10 / 45, 12);
    // Head better than base: P(X ≥ 0) = 1.
    expect(fisherOneSided(0, 5, 3, 5)).toBe(1);
    // Unequal arms: 3/3 vs 0/4 → 1/C(7,3) = 1/35.
    expect(fisherOneSided(3, 3, 0, 4)).toBeCloseTo(1 / 35, 12);
  });

  it("rejects impossible counts", () => {
    expect(() => fisherOneSided(6, 5, 0, 5)).toThrow(/failures exceed trials/);
    expect(() => fisherOneSided(-1, 5, 0, 5)).toThrow(/non-negative integer/);
  });
});

describe("wilson", () => {
  it("matches the anchors: 3/3 → [0.44, 1], 5/5 → [0.57, 1]", () => {
    expect(wilson(3, 3).low).toBeCloseTo(0.4385, 3);
    expect(wilson(5, 5).low).toBeCloseTo(0.5655, 3);
    expect(wilson(5, 5).high).toBe(1);
  });
});

describe("seededRandom", () => {
  it("repeats for a seed and differs between seeds", () => {
    const a = seededRandom(42);
    const b = seededRandom(42);
    const c = seededRandom(43);
    const xs = [a(), a(), a()];
    expect([b(), b(), b()]).toEqual(xs);
    expect(c()).not.toBe(xs[0]);
    expect(xs.every((x) => x >= 0 && x < 1)).toBe(true);
  });
});
