import { describe, expect, it } from "vitest";
import { f1Score, rate, stddev, wilson } from "../../src/grade/stats.js";

describe("Wilson interval", () => {
  it("matches the published figures (ANCHORS.md): 3/3 → [0.44, 1], 5/5 → [0.57, 1]", () => {
    expect(wilson(3, 3).low).toBeCloseTo(0.4385, 4);
    expect(wilson(3, 3).high).toBeCloseTo(1, 12);
    expect(wilson(5, 5).low).toBeCloseTo(0.5655, 4);
  });
  it("is not the normal (Wald) interval, which collapses to [1, 1] at 3/3", () => {
    expect(wilson(3, 3).low).toBeLessThan(0.5);
    expect(wilson(17, 24).low).toBeCloseTo(0.508323, 5);
    expect(wilson(17, 24).high).toBeCloseTo(0.850854, 5);
    expect(wilson(0, 9)).toEqual({ low: 0, high: expect.closeTo(0.299145, 5) });
  });
  it("an empty sample says nothing: [0, 1]", () => {
    expect(wilson(0, 0)).toEqual({ low: 0, high: 1 });
    expect(rate(0, 0)).toEqual({ passed: 0, total: 0, rate: 0, low: 0, high: 1 });
    expect(rate(0, 0, 1).rate).toBe(1);
  });
  it("F1 and the sample standard deviation skill-creator uses", () => {
    expect(f1Score(2 / 3, 0.8)).toBeCloseTo(0.727273, 5);
    expect(f1Score(0, 0)).toBe(0);
    expect(stddev([1, 0.5, 0])).toBeCloseTo(0.5, 12);
    expect(stddev([1])).toBe(0);
  });
});
