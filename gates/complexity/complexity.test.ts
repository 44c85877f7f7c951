import { afterAll, describe, expect, it } from "vitest";
import { type Reference, verdictProblems } from "../shared/reference-testing.js";
import { BUILDERS } from "./builders.js";
import { confirmationsNeeded, countSlope, decide, logLogSlope, SIZES } from "./growth.js";
import { installInstruments } from "./instruments.js";
import { measureCounts } from "./measure.js";

const join = { input: "events-users" };
const references: Reference[] = [
  { file: "good-map-join.js", options: join },
  { file: "good-sort-merge.js", options: { ...join, maxClass: "linearithmic" } },
  { file: "good-set-dedupe.ts", options: { input: "strings" } },
  { file: "bad-find-join.js", options: join, fails: ["growth"] },
  {
    file: "bad-copied-primitives.ts",
    options: { input: "numbers", maxClass: "linearithmic" },
    fails: ["growth"],
  },
  { file: "bad-sort-when-linear.js", options: { input: "numbers" }, fails: ["growth"] },
  { file: "bad-includes-dedupe.js", options: { input: "strings" }, fails: ["growth"] },
  { file: "good-sort-merge.js", options: join, fails: ["growth"] },
  // #20: unshift in a loop moves the whole array each time; counted as elements moved.
  { file: "bad-unshift-reverse.js", options: { input: "numbers" }, fails: ["growth"] },
];

// Timing is slow: 3 seeds per module here; the verdict's stability is measured in `npm run bench`.
const SEEDS = [11, 12, 13];

describe("complexity gate on reference modules", () => {
  it.each(references)("$file $options → fails $fails", async (ref) => {
    expect(await verdictProblems("complexity", ref, SEEDS)).toBe("");
  });
});

describe("operation counters", () => {
  // In this process for the test's length (the sandbox child preloads them for good).
  const { instruments, restore } = installInstruments();
  afterAll(restore);
  const mapJoin = (events: { userId: string }[], users: { id: string }[]) => {
    const m = new Map(users.map((u) => [u.id, u]));
    return events.map((e) => m.get(e.userId));
  };
  const findJoin = (events: { userId: string }[], users: { id: string }[]) =>
    events.map((e) => users.find((u) => u.id === e.userId));
  const build = BUILDERS["events-users"]!;

  it("are deterministic and give slope 1 for a Map join, ≥ 1.9 for a find join", () => {
    const a = measureCounts(instruments, mapJoin as never, build, SIZES, 5);
    const b = measureCounts(instruments, mapJoin as never, build, SIZES, 5);
    expect(a).toEqual(b);
    expect(countSlope(a)).toBeCloseTo(1, 2);
    expect(countSlope(measureCounts(instruments, findJoin as never, build, SIZES, 5))).toBeGreaterThan(1.9);
  });

  it("see work on elements of copied arrays", () => {
    const viaCopy = (events: { userId: string }[], users: { id: string }[]) => {
      const us = [...users];
      return events.map((e) => us.filter((u) => u.id === e.userId).length);
    };
    expect(countSlope(measureCounts(instruments, viaCopy as never, build, SIZES, 5))).toBeGreaterThan(1.9);
  });

  it("let the wall clock overrule only when re-measurement confirms", () => {
    const counts = SIZES.map((n: number) => ({ n, ops: n, capped: false }));
    const wall = SIZES.map((n: number) => ({ n, ms: n * n * 1e-6, batch: 1 }));
    expect(confirmationsNeeded(counts, wall, [])).toBe(2);
    expect(confirmationsNeeded(counts, wall, [2])).toBe(1);
    expect(decide(counts, wall, [2, 2]).decidedBy).toBe("wall");
    // Tempting: any wall slope ≥ 1.5 overrules. A counted-linear Map join times at ~1.5 (allocation, caches).
    const mildWall = SIZES.map((n: number) => ({ n, ms: n ** 1.6 * 1e-6, batch: 1 }));
    expect(confirmationsNeeded(counts, mildWall, [])).toBe(0);
    expect(decide(counts, mildWall)).toMatchObject({ class: "linear", decidedBy: "counters" });
    expect(confirmationsNeeded(counts, wall, [1])).toBe(0);
    const unconfirmed = decide(counts, wall, [1]);
    expect(unconfirmed).toMatchObject({ class: "linear", decidedBy: "counters" });
    expect(
      logLogSlope([
        { x: 10, y: 100 },
        { x: 100, y: 10000 },
      ]),
    ).toBeCloseTo(2);
  });
});
