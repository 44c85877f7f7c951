import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { InputError } from "../../src/model/diagnostics.js";
import { assignShard } from "../../src/plan/shard.js";
import { parseShard } from "../../src/settings/shard-spec.js";

const SEED = 20261129;

function allShards<T extends { name: string; expectedCost: number }>(items: T[], total: number): T[][] {
  return Array.from({ length: total }, (_, i) => assignShard(items, i + 1, total));
}

describe("assignShard", () => {
  it("balances by cost, not by count (the tempting round-robin puts both heavy skills together)", () => {
    const items = [
      { name: "a", expectedCost: 10 },
      { name: "b", expectedCost: 1 },
      { name: "c", expectedCost: 10 },
      { name: "d", expectedCost: 1 },
    ];
    const shards = allShards(items, 2);
    expect(shards.map((s) => s.map((i) => i.name))).toEqual([
      ["a", "b"],
      ["c", "d"],
    ]);
    expect(shards.map((s) => s.reduce((t, i) => t + i.expectedCost, 0))).toEqual([11, 11]);
  });

  it("covers every item exactly once, independent of input order, near-optimal balance", () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(
          fc.record({ name: fc.string({ minLength: 1, maxLength: 8 }), expectedCost: fc.nat(100) }),
          {
            selector: (i) => i.name,
            maxLength: 40,
          },
        ),
        fc.integer({ min: 1, max: 7 }),
        (items, total) => {
          const shards = allShards(items, total);
          const names = shards.flat().map((i) => i.name);
          expect([...names].sort()).toEqual(items.map((i) => i.name).sort());
          const reversed = allShards([...items].reverse(), total);
          expect(reversed).toEqual(shards);
          const loads = shards.map((s) => s.reduce((t, i) => t + i.expectedCost, 0));
          const sum = items.reduce((t, i) => t + i.expectedCost, 0);
          const biggest = Math.max(0, ...items.map((i) => i.expectedCost));
          // LPT bound: the heaviest shard exceeds the mean load by at most one item.
          expect(Math.max(...loads)).toBeLessThanOrEqual(sum / total + biggest);
        },
      ),
      { seed: SEED, numRuns: 200 },
    );
  });

  it("rejects out-of-range shards with a clear error", () => {
    expect(() => assignShard([], 0, 2)).toThrow(/index must be an integer from 1 to 2, got 0/);
    expect(() => assignShard([], 3, 2)).toThrow(InputError);
    expect(() => assignShard([{ name: "x", expectedCost: Number.NaN }], 1, 1)).toThrow(/expected cost of x/);
  });
});

describe("parseShard", () => {
  it("parses i/n and refuses everything else", () => {
    expect(parseShard("2/4")).toEqual({ index: 2, total: 4 });
    expect(parseShard(" 1 / 1 ")).toEqual({ index: 1, total: 1 });
    expect(() => parseShard("0/4", "input shard")).toThrow(/input shard: shard index must be .* got 0/);
    expect(() => parseShard("2", "input shard")).toThrow(/input shard: expected "i\/n"/);
    expect(() => parseShard("5/4")).toThrow(InputError);
  });
});
