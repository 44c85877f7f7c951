import { describe, expect, it } from "vitest";
import { mapLimited, Slots } from "../../src/util/slots.js";

const tick = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("Slots", () => {
  it("never lets more than `size` run, serves waiters in arrival order, and frees a slot when work throws", async () => {
    const slots = new Slots(2);
    let running = 0;
    let peak = 0;
    const started: number[] = [];
    const job = (i: number) =>
      slots.run(async () => {
        started.push(i);
        running++;
        peak = Math.max(peak, running);
        await tick(5 + ((i * 7) % 11));
        running--;
        if (i === 3) throw new Error("boom");
        return i;
      });
    const results = await Promise.allSettled(Array.from({ length: 10 }, (_, i) => job(i)));
    expect(peak).toBe(2);
    // The first two start at once; every later one starts in the order it asked.
    expect(started).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(results[3]).toMatchObject({ status: "rejected" });
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(9);
    expect(slots.busy).toBe(0);
  });

  it("serves waiters by priority, highest first, in arrival order among equals", async () => {
    const slots = new Slots(1);
    const started: string[] = [];
    let release!: () => void;
    const holder = slots.run(() => new Promise<void>((r) => (release = r)));
    const job = (name: string, priority?: number) =>
      slots.run(async () => {
        started.push(name);
      }, priority);
    // All wait behind the holder; a later, dearer one goes before cheaper ones that came first.
    const jobs = [job("a"), job("b", 5), job("c", 1), job("d", 5), job("e")];
    release();
    await Promise.all([holder, ...jobs]);
    expect(started).toEqual(["b", "d", "c", "a", "e"]);
    expect(slots.busy).toBe(0);
  });

  it("refuses a size that is not a positive integer", () => {
    expect(() => new Slots(0)).toThrow(/positive integer/);
    expect(() => new Slots(1.5)).toThrow(/positive integer/);
  });
});

describe("mapLimited", () => {
  it("keeps the order of the items whatever order the work finishes in, at most `limit` at once", async () => {
    let running = 0;
    let peak = 0;
    const out = await mapLimited([50, 1, 30, 2, 20, 3], 3, async (ms, i) => {
      running++;
      peak = Math.max(peak, running);
      await tick(ms);
      running--;
      return `${i}:${ms}`;
    });
    expect(out).toEqual(["0:50", "1:1", "2:30", "3:2", "4:20", "5:3"]);
    expect(peak).toBe(3);
    expect(await mapLimited([], 4, async () => 1)).toEqual([]);
  });
});
