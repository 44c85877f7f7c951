/**
 * analytics (seed domain 07, data): `aggregate(events: [{id, ts, value}]) → {count, sum, p50, p95, p99}` over
 * unique ids (a repeated id is a redelivery of the same event). Exact percentiles: `nearest-rank` (default,
 * the ⌈p·n/100⌉-th smallest value) or `linear` (interpolation between closest ranks, numpy's default; compared
 * with the float-sum tolerance, since interpolation arithmetic may round differently). Catches duplicates
 * counted, order dependence, approximate or lexicographic percentiles, and a crash on empty input.
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
  type Result,
} from "../shared/calls.js";
import { sameNumber, sumClose } from "../shared/numeric.js";
import { enumOption } from "../shared/options.js";
import {
  holds,
  largeInvariantChecks,
  mergeChecks,
  Observed,
  observedInvariantChecks,
  propertyParams,
  show,
} from "../shared/property.js";
import type { GateCheck, GateJudge } from "../types.js";

type Method = "nearest-rank" | "linear";
interface Event {
  id: string;
  ts: number;
  value: number;
}
const PERCENTILES = [50, 95, 99] as const;
const MAX_EVENTS = 80;

export function percentile(sorted: readonly number[], p: number, method: Method): number {
  const n = sorted.length;
  if (method === "nearest-rank") return sorted[Math.max(1, Math.ceil((p / 100) * n)) - 1] as number;
  const h = ((n - 1) * p) / 100;
  const lo = Math.floor(h);
  const hi = Math.min(n - 1, lo + 1);
  return (sorted[lo] as number) + (h - lo) * ((sorted[hi] as number) - (sorted[lo] as number));
}

const valueArb = fc.oneof(
  fc.integer({ min: -1000, max: 100_000 }),
  fc.double({ min: -1e6, max: 1e6, noNaN: true, noDefaultInfinity: true }),
);

/**
 * Ids that are also names every object inherits: deduplicating with a plain object (`seen[id]`) takes
 * them for ids seen before.
 */
const INHERITED_IDS = [
  "constructor",
  "toString",
  "__proto__",
  "hasOwnProperty",
  "valueOf",
  "isPrototypeOf",
  "toLocaleString",
  "propertyIsEnumerable",
] as const;
const idArb = fc.oneof(
  { arbitrary: fc.string({ minLength: 1, maxLength: 6 }), weight: 9 },
  { arbitrary: fc.constantFrom(...INHERITED_IDS), weight: 1 },
);
/** Event counts of the large cases: above 1,000, where implementations switch to sampling. */
const LARGE_EVENTS = { min: 1001, max: 5000 } as const;
/** Large cases per run (each is thousands of events). */
const LARGE_RUNS = 3;

/** Unique events (between `min` and `max`), some redelivered (exact copies), in a random order. */
const scenarioArbOf = (min: number, max: number) =>
  fc
    .uniqueArray(
      fc.record({
        id: idArb,
        ts: fc.integer({ min: 0, max: 1e6 }),
        value: valueArb,
      }),
      {
        minLength: min,
        maxLength: max,
        selector: (e) => e.id,
      },
    )
    .chain((unique) =>
      fc.tuple(fc.subarray(unique), fc.nat()).map(([dups, salt]) => ({
        unique,
        events: shuffle([...unique, ...dups.map((d) => ({ ...d }))], salt),
      })),
    );
const scenarioArb = scenarioArbOf(1, MAX_EVENTS);

/** Deterministic permutation from a salt (fast-check supplies the salt; no Math.random in properties). */
function shuffle<T>(xs: T[], salt: number): T[] {
  let s = salt >>> 0 || 1;
  for (let i = xs.length - 1; i > 0; i--) {
    s = (Math.imul(s ^ (s >>> 15), 2246822519) + 0x9e3779b9) >>> 0;
    const j = s % (i + 1);
    [xs[i], xs[j]] = [xs[j] as T, xs[i] as T];
  }
  return xs;
}

function expected(unique: readonly Event[], method: Method) {
  const values = unique.map((e) => e.value).sort((a, b) => a - b);
  return {
    count: unique.length,
    sum: values.reduce((a, b) => a + b, 0),
    scale: values.reduce((a, b) => a + Math.abs(b), 0),
    ps: PERCENTILES.map((p) => percentile(values, p, method)),
  };
}

/** The object a call returned, or the error that fails the property (a throw, a non-object). */
function resultObject(callee: string, r: Result): Record<string, unknown> {
  if (r.threw !== undefined) throw new Error(`${callee} threw: ${r.threw}`);
  if (r.value === null || typeof r.value !== "object" || Array.isArray(r.value))
    throw new Error(`${callee} returned ${show(r.value)}, not an object`);
  return r.value as Record<string, unknown>;
}

interface Scenario {
  unique: Event[];
  events: Event[];
}

/** The events as given, then shuffled by `salt`: the second call checks order independence. */
function scenarioProbe({ events }: Scenario, salt: number): CallsProbe {
  return callsProbe([[events], [shuffle([...events], salt)]]);
}

export const analytics: GateJudge = {
  id: "analytics",
  observationSchema: CALLS_OBSERVATION_SCHEMA,
  async judge(session, ctx) {
    const shape = await functionShape(session);
    if (shape instanceof NotAFunction) return exportCheck(shape);
    const callee = ctx.callee;
    const method = enumOption(ctx.options, "percentile", ["nearest-rank", "linear"] as const, "nearest-rank");
    const params = propertyParams(ctx.seed, ctx.options);
    const pClose = (a: unknown, b: number) =>
      method === "linear" ? sumClose(a, b, Math.abs(b)) : sameNumber(a, b);
    const checks: GateCheck[] = [];

    const [[empty] = []] = await observeCalls(session, [[[[]]]]);
    const noValue = (v: unknown) => v === null || v === undefined || Number.isNaN(v);
    if (!empty || empty.threw !== undefined)
      checks.push({ id: "empty", passed: false, message: `${callee}([]) threw: ${empty?.threw}` });
    else {
      const o = (empty.value ?? {}) as Record<string, unknown>;
      const ok =
        typeof o === "object" &&
        o.count === 0 &&
        o.sum === 0 &&
        PERCENTILES.every((p) => noValue(o[`p${p}`]));
      checks.push({
        id: "empty",
        passed: ok,
        message: ok
          ? `${callee}([]) gives count 0, sum 0 and no percentiles`
          : `${callee}([]) returned ${show(empty.value)}; expected count 0, sum 0, percentiles null`,
      });
    }
    const invariants = [
      { id: "count", what: "count is the number of unique ids (redeliveries are not counted)" },
      { id: "sum", what: "sum is over unique ids (relative tolerance 1e-9)" },
      { id: "percentiles", what: `p50, p95, p99 are exact (${method})` },
      { id: "order", what: "the result does not depend on the order of events" },
    ];
    const arb = fc.tuple(scenarioArb, fc.nat());
    const observed = new Observed<[Scenario, number], CallsProbe>(session, ([sc, salt]) =>
      scenarioProbe(sc, salt),
    );
    const judgeCase = (on: ReadonlySet<string>, [scenario]: [Scenario, number], obs: unknown) => {
      const { unique, events } = scenario;
      const [first, second] = outcomesOf(obs, 2) as [Result, Result];
      const out = resultObject(callee, first);
      const e = expected(unique, method);
      holds(
        on,
        "count",
        out.count === unique.length,
        () => `count ${show(out.count)} for ${events.length} events with ${unique.length} unique ids`,
      );
      holds(on, "sum", sumClose(out.sum, e.sum, e.scale), () => `sum ${show(out.sum)}, expected ${e.sum}`);
      PERCENTILES.forEach((p, i) => {
        const want = e.ps[i] as number;
        holds(
          on,
          "percentiles",
          pClose(out[`p${p}`], want),
          () => `p${p} = ${show(out[`p${p}`])}, expected ${want}`,
        );
      });
      const b = resultObject(callee, second);
      const same =
        out.count === b.count &&
        sumClose(out.sum, typeof b.sum === "number" ? b.sum : Number.NaN, e.scale) &&
        PERCENTILES.every(
          (p) => Object.is(out[`p${p}`], b[`p${p}`]) || pClose(out[`p${p}`], b[`p${p}`] as number),
        );
      holds(on, "order", same, () => `one order gives ${show(out)}, another ${show(b)}`);
    };
    const usual = await observedInvariantChecks(invariants, arb, observed, judgeCase, params);
    const largeArb = fc.tuple(scenarioArbOf(LARGE_EVENTS.min, LARGE_EVENTS.max), fc.nat());
    const largeObserved = new Observed<[Scenario, number], CallsProbe>(session, ([sc, salt]) =>
      scenarioProbe(sc, salt),
    );
    const large = await largeInvariantChecks(usual, invariants, largeArb, largeObserved, judgeCase, {
      ...params,
      numRuns: LARGE_RUNS,
    });
    checks.push(
      ...mergeChecks(usual, large, `${LARGE_RUNS} cases of ${LARGE_EVENTS.min}–${LARGE_EVENTS.max} events`),
    );
    return { checks, metrics: { percentile: method, runs: params.numRuns } };
  },
};
