/**
 * complexity (seed domain 06, performance): `fn(...args)` on inputs from a builder (`events-users`,
 * `numbers`, `strings`, `records`, or a module export `(n, seed) → args`) at sizes 100…5,000 must not grow
 * faster than `maxClass` (`linear` default, `linearithmic`, `quadratic`). Growth is judged by deterministic
 * operation counters where they see the work and by the wall clock (confirmed by re-measurement) where they
 * cannot; the JSON reports both slopes and which one decided.
 */
import { ObservationError } from "../judging.js";
import { enumOption } from "../shared/options.js";
import type { GateJudge, GateOutput } from "../types.js";
import { BUILDERS } from "./builders.js";
import {
  CLASS_RANK,
  type CountPoint,
  confirmationsNeeded,
  decide,
  type GrowthClass,
  SIZES,
  WALL_SIZES,
  type WallPoint,
  wallSlope,
} from "./growth.js";
import { CONFIRM_ROUNDS, WALL_ROUNDS } from "./measure.js";
import type { ComplexityObservation, ComplexityProbe } from "./probe.js";

const CLASSES: readonly GrowthClass[] = ["linear", "linearithmic", "quadratic"];

const POINT_COUNT = {
  type: "object",
  required: ["n", "ops", "capped"],
  additionalProperties: false,
  properties: {
    n: { type: "integer", minimum: 1 },
    ops: { type: "integer", minimum: 0 },
    capped: { type: "boolean" },
  },
};
const POINT_WALL = {
  type: "object",
  required: ["n", "ms", "batch"],
  additionalProperties: false,
  properties: {
    n: { type: "integer", minimum: 1 },
    ms: { type: "number", exclusiveMinimum: 0 },
    batch: { type: "integer", minimum: 1 },
  },
};
const one = (key: string, schema: Record<string, unknown>) => ({
  type: "object",
  required: [key],
  additionalProperties: false,
  properties: { [key]: schema },
});

const COMPLEXITY_OBSERVATION_SCHEMA = {
  oneOf: [
    one("ok", { const: true }),
    one("points", { type: "array", items: POINT_COUNT }),
    one("wall", { type: "array", items: POINT_WALL }),
    one("threw", { type: "string" }),
    one("unusable", { type: "string" }),
  ],
};

/** A check that failed before any growth could be measured. */
class NotMeasured extends Error {
  constructor(
    readonly check: string,
    message: string,
  ) {
    super(message);
  }
}

async function ask(
  session: Parameters<GateJudge["judge"]>[0],
  probe: ComplexityProbe,
): Promise<ComplexityObservation> {
  const [obs] = await session.observe([probe]);
  const o = obs as ComplexityObservation;
  if ("unusable" in o) throw new NotMeasured("runs", o.unusable);
  return o;
}

/** The count points, checked to be the sizes asked for, in order, only the last one capped. */
function countPoints(obs: ComplexityObservation, sizes: readonly number[]): CountPoint[] {
  if ("threw" in obs) throw new NotMeasured("runs", `fn threw while counting: ${obs.threw}`);
  if (!("points" in obs)) throw new ObservationError("a counts probe was answered with something else");
  const ps = obs.points;
  const expectedSizes = ps.every((p, i) => p.n === sizes[i]);
  const cappedOnlyLast = ps.every((p, i) => !p.capped || i === ps.length - 1);
  const complete = ps.length === sizes.length || ps[ps.length - 1]?.capped === true;
  if (ps.length === 0 || !expectedSizes || !cappedOnlyLast || !complete)
    throw new ObservationError(
      `operation counts for sizes ${ps.map((p) => p.n).join(", ")} do not answer sizes ${sizes.join(", ")}`,
    );
  return ps;
}

/** The wall points: a prefix of the sizes asked for (a slow call stops the larger sizes). */
function wallPoints(obs: ComplexityObservation, sizes: readonly number[]): WallPoint[] {
  if ("threw" in obs) throw new NotMeasured("runs", `fn threw while timed: ${obs.threw}`);
  if (!("wall" in obs)) throw new ObservationError("a wall-clock probe was answered with something else");
  const ps = obs.wall;
  if (ps.length === 0 || !ps.every((p, i) => p.n === sizes[i]))
    throw new ObservationError(
      `wall-clock points for sizes ${ps.map((p) => p.n).join(", ")} do not answer sizes ${sizes.join(", ")}`,
    );
  return ps;
}

export const complexity: GateJudge = {
  id: "complexity",
  observationSchema: COMPLEXITY_OBSERVATION_SCHEMA,
  async judge(session, ctx): Promise<GateOutput> {
    const maxClass = enumOption(ctx.options, "maxClass", CLASSES, "linear");
    const builder = typeof ctx.options.input === "string" ? ctx.options.input : "numbers";
    const sizes = Array.isArray(ctx.options.sizes)
      ? [...(ctx.options.sizes as number[])].sort((a, b) => a - b)
      : [...SIZES];
    const wallSizes = ctx.options.sizes === undefined ? [...WALL_SIZES] : sizes;
    const seed = ctx.seed;
    let counts: CountPoint[];
    let wall: WallPoint[];
    const confirmations: (number | undefined)[] = [];
    try {
      const smoke = await ask(session, { kind: "smoke", builder, n: sizes[0] as number, seed });
      if ("threw" in smoke)
        throw new NotMeasured(
          "runs",
          `${ctx.callee} threw on a valid ${builder} input of size ${sizes[0]}: ${smoke.threw}`,
        );
      counts = countPoints(await ask(session, { kind: "counts", builder, sizes, seed }), sizes);
      const wallProbe = (rounds: number): ComplexityProbe => ({
        kind: "wall",
        builder,
        sizes: wallSizes,
        seed,
        rounds,
      });
      wall = wallPoints(await ask(session, wallProbe(WALL_ROUNDS)), wallSizes);
      while (confirmationsNeeded(counts, wall, confirmations) > 0)
        confirmations.push(wallSlope(wallPoints(await ask(session, wallProbe(CONFIRM_ROUNDS)), wallSizes)));
    } catch (err) {
      if (err instanceof NotMeasured)
        return { checks: [{ id: err.check, passed: false, message: err.message }] };
      throw err;
    }
    const verdict = decide(counts, wall, confirmations);
    const passed = verdict.decidedBy !== "none" && CLASS_RANK[verdict.class] <= CLASS_RANK[maxClass];
    return {
      checks: [
        {
          id: "growth",
          passed,
          message:
            verdict.decidedBy === "none"
              ? `no verdict for ${ctx.callee}: ${verdict.reason}`
              : `${verdict.class} growth ${passed ? "within" : "exceeds"} maxClass ${maxClass}, decided by ${verdict.decidedBy}: ${verdict.reason}`,
        },
      ],
      metrics: {
        input: builder,
        builders: Object.keys(BUILDERS),
        maxClass,
        class: verdict.class,
        decidedBy: verdict.decidedBy,
        countSlope: round(verdict.countSlope),
        wallSlope: verdict.wallSlope === undefined ? null : round(verdict.wallSlope),
        countClass: verdict.countClass,
        countersBlind: verdict.countersBlind,
        confirmations: verdict.confirmations.map((c) => round(c)),
        counts: counts.map((p) => ({ n: p.n, ops: p.ops, capped: p.capped })),
        wallMs: wall.map((p) => ({ n: p.n, ms: round(p.ms, 6), batch: p.batch })),
        countRatio: ratio(
          counts[0]?.ops,
          counts.find((p) => p.n === sizes[sizes.length - 1] && !p.capped)?.ops,
        ),
        wallRatio: ratio(wall[0]?.ms, wall.find((p) => p.n === wallSizes[wallSizes.length - 1])?.ms),
      },
    };
  },
};

function round(x: number, digits = 3): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}

function ratio(small: number | undefined, large: number | undefined): number | null {
  return small && large ? round(large / small, 2) : null;
}
