/**
 * conservation (seed domain 02, testing): `allocate(total, parts) → number[]` splits an integer amount (cents)
 * into integer shares — `parts` is a count (`mode: count`, default) or a list of weights (`mode: weights`).
 * Invariants, each over ≥ 500 random cases: Σ shares = total exactly; shares are non-negative integers, one
 * per part; fair (count: max − min ≤ 1; weights: every share strictly within one unit of its exact quota,
 * decided in exact rational arithmetic); deterministic; invalid input refused.
 */
import fc from "fast-check";
import { functionExport } from "../shared/input.js";
import { enumOption, invalidPolicy } from "../shared/options.js";
import {
  attempt,
  expect,
  type PropertyParams,
  propertyCheck,
  propertyParams,
  show,
} from "../shared/property.js";
import type { Gate, GateCheck, GateInput } from "../types.js";

type Allocate = (total: unknown, parts: unknown) => unknown;

const MAX_PARTS = 50;
const MAX_WEIGHTS = 20;
const MAX_WEIGHT = 1000;
/** Totals in weights mode stay below 2^53 / MAX_WEIGHT so an implementation may multiply before dividing. */
const MAX_WEIGHTED_TOTAL = 1_000_000_000;

const totalArb = fc.oneof(
  { arbitrary: fc.integer({ min: 0, max: 1000 }), weight: 4 },
  { arbitrary: fc.integer({ min: 0, max: 1_000_000_000_000 }), weight: 2 },
  { arbitrary: fc.constant(Number.MAX_SAFE_INTEGER), weight: 1 },
);
const countArb = fc.integer({ min: 1, max: MAX_PARTS });
const weightsArb = fc
  .array(fc.integer({ min: 0, max: MAX_WEIGHT }), { minLength: 1, maxLength: MAX_WEIGHTS })
  .filter((ws) => ws.some((w) => w > 0));

function validCase(mode: "count" | "weights"): fc.Arbitrary<[number, number | number[]]> {
  return mode === "count"
    ? fc.tuple(totalArb, countArb)
    : fc.tuple(fc.integer({ min: 0, max: MAX_WEIGHTED_TOTAL }), weightsArb);
}

/** Calls allocate; throws (a property failure) unless it returned an array. */
function call(fn: Allocate, total: number, parts: number | number[]): unknown[] {
  const r = attempt(() => fn(total, Array.isArray(parts) ? [...parts] : parts));
  if (r.threw) throw new Error(`allocate(${total}, ${show(parts)}) threw on valid input: ${r.error}`);
  if (!Array.isArray(r.value))
    throw new Error(`allocate(${total}, ${show(parts)}) returned ${show(r.value)}, not an array`);
  return r.value;
}

function partsCount(parts: number | number[]): number {
  return Array.isArray(parts) ? parts.length : parts;
}

function invalidCases(mode: "count" | "weights"): [unknown, unknown][] {
  const badTotals: unknown[] = [
    -1,
    -100,
    1.5,
    Number.NaN,
    Number.POSITIVE_INFINITY,
    Number.NEGATIVE_INFINITY,
    "100",
    null,
  ];
  const goodParts: unknown = mode === "count" ? 3 : [1, 2];
  const badParts: unknown[] =
    mode === "count"
      ? [0, -1, 2.5, Number.NaN, Number.POSITIVE_INFINITY, "3", null]
      : [[], [-1, 2], [0, 0], [Number.NaN, 1], [Number.POSITIVE_INFINITY, 1], ["1", 2], null];
  return [
    ...badTotals.map((t): [unknown, unknown] => [t, goodParts]),
    ...badParts.map((p): [unknown, unknown] => [100, p]),
  ];
}

export function checkAllocate(
  fn: Allocate,
  mode: "count" | "weights",
  options: Record<string, unknown>,
  params: PropertyParams,
): GateCheck[] {
  const cases = validCase(mode);
  const checks: GateCheck[] = [];
  checks.push(
    propertyCheck(
      "shape",
      "one non-negative integer share per part",
      fc.property(cases, ([total, parts]) => {
        const shares = call(fn, total, parts);
        const n = partsCount(parts);
        expect(
          shares.length === n,
          () => `allocate(${total}, ${show(parts)}) returned ${shares.length} shares, expected ${n}`,
        );
        const bad = shares.find(
          (s) => typeof s !== "number" || !Number.isInteger(s) || s < 0 || Object.is(s, -0),
        );
        expect(
          bad === undefined,
          () => `allocate(${total}, ${show(parts)}) returned share ${show(bad)}: not a non-negative integer`,
        );
      }),
      params,
    ),
  );
  checks.push(
    propertyCheck(
      "sum",
      "the shares add up to the total exactly",
      fc.property(cases, ([total, parts]) => {
        const shares = call(fn, total, parts);
        let sum = 0n;
        for (const s of shares) {
          if (typeof s !== "number" || !Number.isInteger(s))
            throw new Error(`share ${show(s)} is not an integer`);
          sum += BigInt(s);
        }
        expect(
          sum === BigInt(total),
          () => `allocate(${total}, ${show(parts)}) shares sum to ${sum}, not ${total} (${show(shares)})`,
        );
      }),
      params,
    ),
  );
  checks.push(
    propertyCheck(
      "fair",
      mode === "count"
        ? "shares differ by at most one unit"
        : "every share is within one unit of its exact quota",
      fc.property(cases, ([total, parts]) => {
        const shares = call(fn, total, parts) as number[];
        if (mode === "count") {
          const spread = Math.max(...shares) - Math.min(...shares);
          expect(
            spread <= 1,
            () => `allocate(${total}, ${parts}) = ${show(shares)}: max − min = ${spread} > 1`,
          );
          return;
        }
        const ws = parts as number[];
        const W = BigInt(ws.reduce((a, b) => a + b, 0));
        ws.forEach((w, i) => {
          const s = shares[i];
          if (typeof s !== "number" || !Number.isInteger(s))
            throw new Error(`share ${show(s)} is not an integer`);
          // |s − total·w/W| < 1  ⇔  |s·W − total·w| < W, exactly in integers.
          const diff = BigInt(s) * W - BigInt(total) * BigInt(w);
          const abs = diff < 0n ? -diff : diff;
          expect(
            abs < W,
            () =>
              `allocate(${total}, ${show(ws)}) share ${i} = ${s} is ≥ 1 away from its quota ${(total * w) / Number(W)}`,
          );
        });
      }),
      params,
    ),
  );
  checks.push(
    propertyCheck(
      "deterministic",
      "the same input gives the same shares",
      fc.property(cases, ([total, parts]) => {
        const a = call(fn, total, parts);
        const b = call(fn, total, parts);
        expect(
          a.length === b.length && a.every((x, i) => Object.is(x, b[i])),
          () => `allocate(${total}, ${show(parts)}) gave ${show(a)}, then ${show(b)}`,
        );
      }),
      params,
    ),
  );
  const policy = invalidPolicy(options);
  const accepted: string[] = [];
  for (const [total, parts] of invalidCases(mode)) {
    const r = attempt(() => fn(total, parts));
    if (!r.threw && !(policy === "throw-or-null" && r.value === null)) {
      accepted.push(`allocate(${show(total)}, ${show(parts)}) returned ${show(r.value)}`);
    }
  }
  checks.push({
    id: "invalid",
    passed: accepted.length === 0,
    message: accepted.length
      ? `invalid input accepted (must ${policy === "throw" ? "throw" : "throw or return null"}): ${accepted.slice(0, 5).join("; ")}${accepted.length > 5 ? ` … (${accepted.length} in all)` : ""}`
      : `refused all ${invalidCases(mode).length} invalid inputs`,
  });
  return checks;
}

export const conservation: Gate = {
  id: "conservation",
  defaultExports: ["allocate"],
  async run(input: GateInput, ctx) {
    const target = functionExport<Allocate>(input);
    if ("failed" in target) return target.failed;
    const mode = enumOption(ctx.options, "mode", ["count", "weights"] as const, "count");
    const params = propertyParams(ctx.seed, ctx.options);
    return {
      checks: checkAllocate(target.fn, mode, ctx.options, params),
      metrics: { mode, runs: params.numRuns },
    };
  },
};
