/**
 * complexity (seed domain 06, performance): `fn(...args)` on inputs from a builder (`events-users`,
 * `numbers`, `strings`, `records`, or a module export `(n, seed) → args`) at sizes 100…5,000 must not grow
 * faster than `maxClass` (`linear` default, `linearithmic`, `quadratic`). Growth is judged by deterministic
 * operation counters where they see the work and by the wall clock (confirmed by re-measurement) where they
 * cannot; the JSON reports both slopes and which one decided.
 */
import { functionExport } from "../shared/input.js";
import { enumOption, GateOptionError } from "../shared/options.js";
import { describe } from "../shared/runtime.js";
import type { Gate, GateInput, GateOutput } from "../types.js";
import { BUILDERS, type Builder } from "./builders.js";
import {
  CLASS_RANK,
  CONFIRM_ROUNDS,
  decide,
  type GrowthClass,
  measureCounts,
  measureWall,
  SIZES,
  WALL_SIZES,
  wallSlope,
} from "./measure.js";

type Fn = (...args: unknown[]) => unknown;
const CLASSES: readonly GrowthClass[] = ["linear", "linearithmic", "quadratic"];

function pickBuilder(
  options: Record<string, unknown>,
  input: Extract<GateInput, { kind: "export" }>,
): { name: string; build: Builder } {
  const name = options.input ?? "numbers";
  if (typeof name !== "string")
    throw new GateOptionError("option 'input' must be a builder name or an export name");
  const builtin = BUILDERS[name];
  if (builtin) return { name, build: builtin };
  const custom = input.module[name] ?? (input.module.default as Record<string, unknown> | undefined)?.[name];
  if (typeof custom !== "function")
    throw new GateOptionError(
      `option 'input': '${name}' is neither a builder (${Object.keys(BUILDERS).join(", ")}) nor a function export of the module`,
    );
  return {
    name,
    build: (n, seed) => {
      const args = (custom as (n: number, seed: number) => unknown)(n, seed);
      return Array.isArray(args) ? args : [args];
    },
  };
}

function parseSizes(options: Record<string, unknown>): readonly number[] {
  const v = options.sizes;
  if (v === undefined) return SIZES;
  if (
    !Array.isArray(v) ||
    v.length < 3 ||
    !v.every((n) => Number.isInteger(n) && n > 0) ||
    new Set(v).size !== v.length
  )
    throw new GateOptionError("option 'sizes' must list at least 3 distinct positive integers");
  return [...(v as number[])].sort((a, b) => a - b);
}

export const complexity: Gate = {
  id: "complexity",
  defaultExports: [],
  async run(input: GateInput, ctx): Promise<GateOutput> {
    const target = functionExport<Fn>(input);
    if ("failed" in target || input.kind !== "export")
      return "failed" in target ? target.failed : { checks: [] };
    const fn = target.fn;
    const maxClass = enumOption(ctx.options, "maxClass", CLASSES, "linear");
    const { name: builderName, build } = pickBuilder(ctx.options, input);
    const sizes = parseSizes(ctx.options);
    try {
      fn(...build(sizes[0] as number, ctx.seed));
    } catch (err) {
      return {
        checks: [
          {
            id: "runs",
            passed: false,
            message: `fn threw on a valid ${builderName} input of size ${sizes[0]}: ${describe(err)}`,
          },
        ],
      };
    }
    let counts: ReturnType<typeof measureCounts>;
    try {
      counts = measureCounts(fn, build, sizes, ctx.seed);
    } catch (err) {
      return {
        checks: [{ id: "runs", passed: false, message: `fn threw while counting: ${describe(err)}` }],
      };
    }
    const wallSizes = ctx.options.sizes === undefined ? WALL_SIZES : sizes;
    const wall = measureWall(fn, build, wallSizes, ctx.seed);
    const verdict = decide(counts, wall, () =>
      wallSlope(measureWall(fn, build, wallSizes, ctx.seed, CONFIRM_ROUNDS)),
    );
    const passed = CLASS_RANK[verdict.class] <= CLASS_RANK[maxClass];
    return {
      checks: [
        {
          id: "growth",
          passed,
          message: `${verdict.class} growth ${passed ? "within" : "exceeds"} maxClass ${maxClass}, decided by ${verdict.decidedBy}: ${verdict.reason}`,
        },
      ],
      metrics: {
        input: builderName,
        maxClass,
        class: verdict.class,
        decidedBy: verdict.decidedBy,
        countSlope: round(verdict.countSlope),
        wallSlope: verdict.wallSlope === undefined ? null : round(verdict.wallSlope),
        countClass: verdict.countClass,
        countersBlind: verdict.countersBlind,
        confirmations: verdict.confirmations.map(round),
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
