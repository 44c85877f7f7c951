/**
 * leakage (seed domain 08, ML): `split(rows: [{id, group, ts}], {testFraction, seed}) → {train, test}` with
 * `mode: group` (default: no group on both sides) or `temporal` (every train row strictly earlier than every
 * test row, so equal timestamps stay together). Both: every row exactly once, the test share within the
 * largest indivisible block's share + 0.05 of `testFraction`, and the same seed gives the same split.
 */
import fc from "fast-check";
import {
  CALLS_OBSERVATION_SCHEMA,
  type CallsProbe,
  callsProbe,
  exportCheck,
  functionShape,
  NotAFunction,
  outcomesOf,
  type Result,
} from "../shared/calls.js";
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
import { ROW_FIELDS, type RowsObservation } from "./rows.js";

type Mode = "group" | "temporal";
interface Row {
  id: string;
  group: string;
  ts: number;
}
/** Allowed distance of the test share from testFraction beyond the largest indivisible block's share. */
const SHARE_SLACK = 0.05;

/** Row counts of the large cases: above 1,000, where implementations switch strategy. */
const LARGE_ROWS = { min: 1001, max: 3000 } as const;
const LARGE_RUNS = 3;

const scenarioArbOf = (minRows: number, maxRows: number) =>
  fc
    .record({
      n: fc.integer({ min: minRows, max: maxRows }),
      groups: fc.integer({ min: 2, max: 20 }),
      testFraction: fc.double({ min: 0.1, max: 0.5, noNaN: true }),
      seed: fc.integer({ min: 0, max: 2 ** 31 - 1 }),
    })
    .chain(({ n, groups, testFraction, seed }) =>
      fc
        .array(fc.tuple(fc.nat({ max: groups - 1 }), fc.nat({ max: Math.max(2, Math.floor(n / 3)) })), {
          minLength: n,
          maxLength: n,
        })
        .map((cells) => ({
          rows: cells.map(([g, ts], i): Row => ({ id: `r${i}`, group: `g${g}`, ts })),
          testFraction,
          seed,
        })),
    );
const scenarioArb = scenarioArbOf(10, 100);

interface Sides {
  train: Row[];
  test: Row[];
}

interface Scenario {
  rows: Row[];
  testFraction: number;
  seed: number;
}

/** Two calls with the same arguments (fresh copies): the second checks determinism. */
function scenarioProbe({ rows, testFraction, seed }: Scenario): CallsProbe {
  return callsProbe([[rows, { testFraction, seed }]], 2);
}

/** A row as the child observed it (`[id, group, ts]`, see probe.ts) back as an object; anything else as is. */
function rowOf(t: unknown): unknown {
  if (!Array.isArray(t) || t.length !== ROW_FIELDS.length) return t;
  return { id: t[0], group: t[1], ts: t[2] };
}

/** The `{train, test}` a call returned, or the error that fails the property. */
function sidesOf(callee: string, r: Result, s: Scenario): Sides {
  const what = `${callee}(${s.rows.length} rows, {testFraction: ${s.testFraction.toFixed(3)}, seed: ${s.seed}})`;
  if (r.threw !== undefined) throw new Error(`${what} threw: ${r.threw}`);
  const v = r.value as Partial<RowsObservation> | null;
  if (
    !v ||
    typeof v !== "object" ||
    v.rows !== ROW_FIELDS.join(",") ||
    !Array.isArray(v.train) ||
    !Array.isArray(v.test)
  )
    throw new Error(`${what} returned ${show(v)}, not {train, test}`);
  return { train: v.train.map(rowOf) as Row[], test: v.test.map(rowOf) as Row[] };
}

/** Field `k` of a returned row (rows are whatever the module returned: maybe not objects). */
function field(r: unknown, k: keyof Row): unknown {
  return r !== null && typeof r === "object" ? (r as Record<string, unknown>)[k] : undefined;
}

function largestBlockShare(rows: Row[], mode: Mode): number {
  const sizes = new Map<string | number, number>();
  for (const r of rows) {
    const k = mode === "group" ? r.group : r.ts;
    sizes.set(k, (sizes.get(k) ?? 0) + 1);
  }
  return Math.max(...sizes.values()) / rows.length;
}

export const leakage: GateJudge = {
  id: "leakage",
  observationSchema: CALLS_OBSERVATION_SCHEMA,
  async judge(session, ctx) {
    const shape = await functionShape(session);
    if (shape instanceof NotAFunction) return exportCheck(shape);
    const callee = ctx.callee;
    const mode = enumOption(ctx.options, "mode", ["group", "temporal"] as const, "group");
    const params = propertyParams(ctx.seed, ctx.options);
    const checks: GateCheck[] = [];

    const sideRule =
      mode === "group"
        ? { id: "groups-disjoint", what: "no group has rows on both sides" }
        : { id: "time-order", what: "every train row is strictly earlier than every test row" };
    const invariants = [
      { id: "partition", what: "every row lands on exactly one side, none invented" },
      sideRule,
      {
        id: "test-share",
        what: `the test share is within the largest ${mode === "group" ? "group" : "timestamp block"}'s share + ${SHARE_SLACK} of testFraction`,
      },
      { id: "deterministic", what: "the same seed gives the same split" },
    ];
    const observed = new Observed<Scenario, CallsProbe>(session, scenarioProbe);
    const judgeCase = (on: ReadonlySet<string>, scenario: Scenario, obs: unknown) => {
      const { rows, testFraction } = scenario;
      const [first, second] = outcomesOf(obs, 2) as [Result, Result];
      const { train, test } = sidesOf(callee, first, scenario);
      const seen = new Map<unknown, number>();
      for (const r of [...train, ...test]) seen.set(field(r, "id"), (seen.get(field(r, "id")) ?? 0) + 1);
      const ids = new Set<unknown>(rows.map((r) => r.id));
      const lost = rows.filter((r) => !seen.has(r.id)).map((r) => r.id);
      const doubled = [...seen].filter(([, c]) => c > 1).map(([id]) => id);
      const extra = [...seen.keys()].filter((id) => !ids.has(id));
      holds(
        on,
        "partition",
        lost.length === 0,
        () => `rows lost: ${show(lost.slice(0, 5))} (${lost.length})`,
      );
      holds(
        on,
        "partition",
        doubled.length === 0,
        () => `rows on both sides or twice: ${show(doubled.slice(0, 5))}`,
      );
      holds(on, "partition", extra.length === 0, () => `rows not in the input: ${show(extra.slice(0, 5))}`);
      if (mode === "group") {
        const trainGroups = new Set(train.map((r) => field(r, "group")));
        const both = [...new Set(test.map((r) => field(r, "group")))].filter((g) => trainGroups.has(g));
        holds(on, sideRule.id, both.length === 0, () => `groups on both sides: ${show(both)}`);
      } else if (train.length > 0 && test.length > 0) {
        const lastTrain = Math.max(...train.map((r) => Number(field(r, "ts"))));
        const firstTest = Math.min(...test.map((r) => Number(field(r, "ts"))));
        holds(
          on,
          sideRule.id,
          lastTrain < firstTest,
          () => `latest train ts ${lastTrain} ≥ earliest test ts ${firstTest}`,
        );
      }
      const share = test.length / rows.length;
      const allowed = largestBlockShare(rows, mode) + SHARE_SLACK;
      holds(
        on,
        "test-share",
        Math.abs(share - testFraction) <= allowed,
        () =>
          `test share ${share.toFixed(3)} vs testFraction ${testFraction.toFixed(3)}: off by more than ${allowed.toFixed(3)}`,
      );
      const a = test.map((r) => String(field(r, "id"))).sort();
      const again = sidesOf(callee, second, scenario);
      const b = again.test.map((r) => String(field(r, "id"))).sort();
      holds(
        on,
        "deterministic",
        a.length === b.length && a.every((x, i) => x === b[i]),
        () => `seed ${scenario.seed}: test ids ${show(a.slice(0, 6))} then ${show(b.slice(0, 6))}`,
      );
    };
    const usual = await observedInvariantChecks(invariants, scenarioArb, observed, judgeCase, params);
    const large = await largeInvariantChecks(
      usual,
      invariants,
      scenarioArbOf(LARGE_ROWS.min, LARGE_ROWS.max),
      new Observed<Scenario, CallsProbe>(session, scenarioProbe),
      judgeCase,
      { ...params, numRuns: LARGE_RUNS },
    );
    checks.push(
      ...mergeChecks(usual, large, `${LARGE_RUNS} cases of ${LARGE_ROWS.min}–${LARGE_ROWS.max} rows`),
    );
    return { checks, metrics: { mode, runs: params.numRuns } };
  },
};
