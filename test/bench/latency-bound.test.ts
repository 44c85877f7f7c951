import { describe, expect, it } from "vitest";
import { confirmationRounds, latencyBound } from "../../bench/latency-bound.js";

describe("bench/latency-bound", () => {
  it("counts each look's new trials as the decider asks for them (warm: 30 base trials stored)", () => {
    // head 5 → 9 → 22 → 60; base 30 → 33 → 90 (1.5× head)
    expect(confirmationRounds(5, 55)).toEqual([4, 13 + 3, 38 + 57]);
    // three first-batch trials: head 3 → 5 → 13 → 36, base 30 → 30 → 30 → 54
    expect(confirmationRounds(3, 55)).toEqual([2, 8, 23 + 24]);
  });

  it("puts every trial at once below look by look, and is seeded", () => {
    const looks = confirmationRounds(5, 55);
    const a = latencyBound({ firstBatch: 50, looks, slots: 32, samples: 500, seed: 4 });
    expect(a).toEqual(latencyBound({ firstBatch: 50, looks, slots: 32, samples: 500, seed: 4 }));
    expect(a.trials).toBe(165);
    expect(a.allAtOnce).toBeLessThan(a.rounds);
    // 165 trials over 32 slots take at least ceil(165 / 32) = 6 L even when every trial takes L
    expect(a.allAtOnce).toBeGreaterThanOrEqual(6);
    // one slot: every trial in turn, the mean draw 1.58 L
    const serial = latencyBound({ firstBatch: 100, looks: [], slots: 1, samples: 200, seed: 4 });
    expect(serial.allAtOnce).toBeGreaterThan(140);
    expect(serial.allAtOnce).toBeLessThan(176);
  });
});
