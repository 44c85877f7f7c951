import { describe, expect, it } from "vitest";
import { AdaptiveLimit } from "../../src/run/adaptive-limit.js";

/** Runs `n` calls through `limit`; `rateLimited(i)` says which answer 429. Returns the most in flight at once. */
async function drive(limit: AdaptiveLimit, n: number, rateLimited: (i: number) => boolean) {
  let inFlight = 0;
  let most = 0;
  const seen: number[] = [];
  await Promise.all(
    Array.from({ length: n }, (_, i) =>
      limit.run(async () => {
        inFlight++;
        most = Math.max(most, inFlight);
        seen.push(limit.limit);
        await new Promise((r) => setTimeout(r, 2));
        inFlight--;
        return { value: i, rateLimited: rateLimited(i) };
      }),
    ),
  );
  return { most, seen };
}

describe("AdaptiveLimit", () => {
  it("never runs more than the limit at once, and the configured limit is reached", async () => {
    const limit = new AdaptiveLimit(4);
    const { most } = await drive(limit, 40, () => false);
    expect(most).toBe(4);
    expect(limit.limit).toBe(4);
  });

  it("halves on a rate-limit answer, once per burst, and climbs back by one per round of good answers", async () => {
    const limit = new AdaptiveLimit(16);
    // The first 16 calls all answer 429: they started in one generation, so the limit is cut once, to 8.
    await drive(limit, 16, () => true);
    expect(limit.limit).toBe(8);
    expect(limit.cuts).toBe(1);
    // 8 good answers raise it to 9, 9 more to 10 …
    await drive(limit, 8, () => false);
    expect(limit.limit).toBe(9);
    await drive(limit, 200, () => false);
    expect(limit.limit).toBe(16);
    expect(limit.lowest).toBe(8);
  });

  it("keeps at least one call going", async () => {
    const limit = new AdaptiveLimit(2);
    for (let k = 0; k < 5; k++) await drive(limit, 1, () => true);
    expect(limit.limit).toBe(1);
    const { most } = await drive(limit, 5, () => true);
    expect(most).toBe(1);
  });

  it("rejects a limit below one", () => {
    expect(() => new AdaptiveLimit(0)).toThrow(/positive integer/);
  });
});
