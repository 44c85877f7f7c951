/**
 * conservation (seed domain 02, testing): `allocate(total, parts) → number[]` splits an integer amount (cents)
 * into integer shares — `parts` is a count (`mode: count`, default) or a list of weights (`mode: weights`).
 * Invariants, each over ≥ 500 random cases: Σ shares = total exactly; shares are non-negative integers, one
 * per part; fair (count: max − min ≤ 1; weights: every share strictly within one unit of its exact quota,
 * decided in exact rational arithmetic); deterministic; invalid input refused.
 */
import fc from "fast-check";
import {
  CALLS_OBSERVATION_SCHEMA,
  type CallsProbe,
  callsProbe,
  exportCheck,
  functionShape,
  NotAFunction,
  observeCalls,
  outcomesOf,
} from "../shared/calls.js";
import { enumOption, invalidPolicy } from "../shared/options.js";
import {
  holds,
  Observed,
  observedInvariantChecks,
  type PropertyParams,
  propertyParams,
  show,
} from "../shared/property.js";
import type { GateCheck, GateJudge, ProbeSession } from "../types.js";

const MAX_PARTS = 50;
/** Largest part count probed (a fifth of the cases are above MAX_PARTS). */
const MAX_BULK_PARTS = 1000;
const MAX_WEIGHTS = 20;
const MAX_WEIGHT = 1000;
/** Totals in weights mode stay below 2^53 / MAX_WEIGHT so an implementation may multiply before dividing. */
const MAX_WEIGHTED_TOTAL = 1_000_000_000;

/**
 * Totals: small, large, up to 2^53 (float shares drift above 1e12), and 2^53 − 1 itself. Every range starts at 0
 * and the first is the small one (cross-shrinking), so a failure found on a large total shrinks to a small one:
 * `allocate(1, 2)`, not `allocate(1003224832336, 3)`. One found on the constant 2^53 − 1 alone stays there.
 */
const totalArb = fc.oneof(
  { withCrossShrink: true },
  { arbitrary: fc.integer({ min: 0, max: 1000 }), weight: 4 },
  { arbitrary: fc.integer({ min: 0, max: 1_000_000_000_000 }), weight: 2 },
  { arbitrary: fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }), weight: 2 },
  { arbitrary: fc.constant(Number.MAX_SAFE_INTEGER), weight: 1 },
);
/** Part counts: mostly up to 50, some up to 1,000 (bulk paths that switch above 50 parts). */
const countArb = fc.oneof(
  { withCrossShrink: true },
  { arbitrary: fc.integer({ min: 1, max: MAX_PARTS }), weight: 4 },
  { arbitrary: fc.integer({ min: MAX_PARTS + 1, max: MAX_BULK_PARTS }), weight: 1 },
);
const weightsArb = fc
  .array(fc.integer({ min: 0, max: MAX_WEIGHT }), { minLength: 1, maxLength: MAX_WEIGHTS })
  .filter((ws) => ws.some((w) => w > 0));

function validCase(mode: "count" | "weights"): fc.Arbitrary<[number, number | number[]]> {
  return mode === "count"
    ? fc.tuple(totalArb, countArb)
    : fc.tuple(fc.integer({ min: 0, max: MAX_WEIGHTED_TOTAL }), weightsArb);
}

function partsCount(parts: number | number[]): number {
  return Array.isArray(parts) ? parts.length : parts;
}

function invalidCases(mode: "count" | "weights"): [unknown, unknown][] {
  const badTotals: unknown[] = [
    -1,
    -100,
    1.5,
    // Integers, but not safe ones: no split of them is exact (Number.isInteger accepts them).
    2 ** 53,
    2 ** 53 + 2,
    1e20,
    Number.MAX_VALUE,
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

const ALLOCATE_INVARIANTS = [
  { id: "shape", what: "one non-negative integer share per part" },
  { id: "sum", what: "the shares add up to the total exactly" },
  {
    id: "fair",
    what: "shares are fair (count: max − min ≤ 1; weights: each strictly within one unit of its quota)",
  },
  { id: "deterministic", what: "the same input gives the same shares" },
] as const;

function isShare(s: unknown): s is number {
  return typeof s === "number" && Number.isInteger(s) && s >= 0 && !Object.is(s, -0);
}

/** Fairness violation message, or undefined if fair. Weights: |s − total·w/W| < 1 ⇔ |s·W − total·w| < W, exactly. */
function unfair(
  callee: string,
  total: number,
  parts: number | number[],
  shares: number[],
): string | undefined {
  if (!Array.isArray(parts)) {
    const spread = Math.max(...shares) - Math.min(...shares);
    return spread <= 1
      ? undefined
      : `${callee}(${total}, ${parts}) = ${show(shares)}: max − min = ${spread} > 1`;
  }
  const W = BigInt(parts.reduce((a, b) => a + b, 0));
  for (let i = 0; i < parts.length; i++) {
    const diff = BigInt(shares[i] as number) * W - BigInt(total) * BigInt(parts[i] as number);
    if ((diff < 0n ? -diff : diff) >= W)
      return `${callee}(${total}, ${show(parts)}) share ${i} = ${shares[i]} is ≥ 1 away from its quota ${(total * (parts[i] as number)) / Number(W)}`;
  }
  return undefined;
}

type Case = [number, number | number[]];

/** Each valid case is called twice with fresh copies of its arguments: the second call checks determinism. */
function caseProbe([total, parts]: Case): CallsProbe {
  return callsProbe([[total, parts]], 2);
}

async function checkAllocate(
  session: ProbeSession,
  callee: string,
  mode: "count" | "weights",
  options: Record<string, unknown>,
  params: PropertyParams,
): Promise<GateCheck[]> {
  const cases = validCase(mode);
  const observed = new Observed<Case, CallsProbe>(session, caseProbe);
  const judgeCase = (on: ReadonlySet<string>, [total, parts]: Case, obs: unknown) => {
    const what = `${callee}(${total}, ${show(parts)})`;
    const [r, again] = outcomesOf(obs, 2) as [
      ReturnType<typeof outcomesOf>[number],
      ReturnType<typeof outcomesOf>[number],
    ];
    const ok = r.threw === undefined && Array.isArray(r.value);
    holds(on, "shape", ok, () =>
      r.threw !== undefined
        ? `${what} threw on valid input: ${r.threw}`
        : `${what} returned ${show(r.value)}, not an array`,
    );
    if (!ok || r.threw !== undefined) return;
    const shares = r.value as unknown[];
    const n = partsCount(parts);
    holds(on, "shape", shares.length === n, () => `${what} returned ${shares.length} shares, expected ${n}`);
    const bad = shares.find((x) => !isShare(x));
    holds(
      on,
      "shape",
      bad === undefined,
      () => `${what} returned share ${show(bad)}: not a non-negative integer`,
    );
    const integers = shares.every((x) => typeof x === "number" && Number.isInteger(x));
    const sum = integers ? shares.reduce((a: bigint, x) => a + BigInt(x as number), 0n) : undefined;
    holds(
      on,
      "sum",
      sum === BigInt(total),
      () => `${what} shares sum to ${sum ?? "a non-integer"}, not ${total} (${show(shares)})`,
    );
    if (integers && shares.length === n) {
      const why = unfair(callee, total, parts, shares as number[]);
      holds(on, "fair", why === undefined, () => why as string);
    }
    const same =
      again.threw === undefined &&
      Array.isArray(again.value) &&
      again.value.length === shares.length &&
      shares.every((x, i) => Object.is(x, (again.value as unknown[])[i]));
    holds(
      on,
      "deterministic",
      same,
      () =>
        `${what} gave ${show(shares)}, then ${again.threw !== undefined ? `threw ${again.threw}` : show(again.value)}`,
    );
  };
  const checks: GateCheck[] = await observedInvariantChecks(
    ALLOCATE_INVARIANTS,
    cases,
    observed,
    judgeCase,
    params,
  );
  const policy = invalidPolicy(options);
  const invalid = invalidCases(mode);
  const [outcomes] = await observeCalls(session, [invalid.map(([t, p]) => [t, p])]);
  const accepted: string[] = [];
  invalid.forEach(([total, parts], i) => {
    const r = (outcomes as ReturnType<typeof outcomesOf>)[i] as ReturnType<typeof outcomesOf>[number];
    if (r.threw === undefined && !(policy === "throw-or-null" && r.value === null))
      accepted.push(`${callee}(${show(total)}, ${show(parts)}) returned ${show(r.value)}`);
  });
  checks.push({
    id: "invalid",
    passed: accepted.length === 0,
    message: accepted.length
      ? `invalid input accepted (must ${policy === "throw" ? "throw" : "throw or return null"}): ${accepted.slice(0, 5).join("; ")}${accepted.length > 5 ? ` … (${accepted.length} in all)` : ""}`
      : `refused all ${invalid.length} invalid inputs`,
  });
  return checks;
}

export const conservation: GateJudge = {
  id: "conservation",
  observationSchema: CALLS_OBSERVATION_SCHEMA,
  async judge(session, ctx) {
    const shape = await functionShape(session);
    if (shape instanceof NotAFunction) return exportCheck(shape);
    const mode = enumOption(ctx.options, "mode", ["count", "weights"] as const, "count");
    const params = propertyParams(ctx.seed, ctx.options);
    return {
      checks: await checkAllocate(session, ctx.callee, mode, ctx.options, params),
      metrics: { mode, runs: params.numRuns },
    };
  },
};
