/**
 * leakage (seed domain 08, ML): `split(rows: [{id, group, ts}], {testFraction, seed}) → {train, test}` with
 * `mode: group` (default: no group on both sides) or `temporal` (every train row strictly earlier than every
 * test row, so equal timestamps stay together). Both: every row exactly once, the test share within the
 * largest indivisible block's share + 0.05 of `testFraction`, and the same seed gives the same split.
 */
import fc from "fast-check";
import { functionExport } from "../shared/input.js";
import { enumOption } from "../shared/options.js";
import { attempt, holds, invariantChecks, propertyParams, show } from "../shared/property.js";
import type { Gate, GateCheck, GateInput } from "../types.js";

type Split = (rows: unknown[], opts: { testFraction: number; seed: number }) => unknown;
type Mode = "group" | "temporal";
interface Row {
  id: string;
  group: string;
  ts: number;
}
/** Allowed distance of the test share from testFraction beyond the largest indivisible block's share. */
export const SHARE_SLACK = 0.05;

const scenarioArb = fc
  .record({
    n: fc.integer({ min: 10, max: 100 }),
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

interface Sides {
  train: Row[];
  test: Row[];
}

function call(fn: Split, rows: Row[], testFraction: number, seed: number): Sides {
  const r = attempt(() =>
    fn(
      rows.map((x) => ({ ...x })),
      { testFraction, seed },
    ),
  );
  const what = `split(${rows.length} rows, {testFraction: ${testFraction.toFixed(3)}, seed: ${seed}})`;
  if (r.threw) throw new Error(`${what} threw: ${r.error}`);
  const v = r.value as Partial<Sides> | null;
  if (!v || !Array.isArray(v.train) || !Array.isArray(v.test))
    throw new Error(`${what} returned ${show(v)}, not {train, test}`);
  return { train: v.train as Row[], test: v.test as Row[] };
}

function largestBlockShare(rows: Row[], mode: Mode): number {
  const sizes = new Map<string | number, number>();
  for (const r of rows) {
    const k = mode === "group" ? r.group : r.ts;
    sizes.set(k, (sizes.get(k) ?? 0) + 1);
  }
  return Math.max(...sizes.values()) / rows.length;
}

export const leakage: Gate = {
  id: "leakage",
  defaultExports: ["split"],
  async run(input: GateInput, ctx) {
    const target = functionExport<Split>(input);
    if ("failed" in target) return target.failed;
    const fn = target.fn;
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
    const property = (on: ReadonlySet<string>) =>
      fc.property(scenarioArb, ({ rows, testFraction, seed }) => {
        const { train, test } = call(fn, rows, testFraction, seed);
        const seen = new Map<string, number>();
        for (const r of [...train, ...test]) seen.set(r?.id, (seen.get(r?.id) ?? 0) + 1);
        const ids = new Set(rows.map((r) => r.id));
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
          const trainGroups = new Set(train.map((r) => r?.group));
          const both = [...new Set(test.map((r) => r?.group))].filter((g) => trainGroups.has(g));
          holds(on, sideRule.id, both.length === 0, () => `groups on both sides: ${show(both)}`);
        } else if (train.length > 0 && test.length > 0) {
          const lastTrain = Math.max(...train.map((r) => r?.ts));
          const firstTest = Math.min(...test.map((r) => r?.ts));
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
        const a = test.map((r) => r?.id).sort();
        const b = call(fn, rows, testFraction, seed)
          .test.map((r) => r?.id)
          .sort();
        holds(
          on,
          "deterministic",
          a.length === b.length && a.every((x, i) => x === b[i]),
          () => `seed ${seed}: test ids ${show(a.slice(0, 6))} then ${show(b.slice(0, 6))}`,
        );
      });
    checks.push(...(await invariantChecks(invariants, property, params)));
    return { checks, metrics: { mode, runs: params.numRuns } };
  },
};
