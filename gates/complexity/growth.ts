/**
 * The complexity gate's decision, in the parent: log-log slopes of the points the child measured and the
 * rule that combines counters and wall clock. Pure; a point set it cannot decide from fails, never passes.
 */
import type { CountPoint, WallPoint } from "./measure.js";

export type { CountPoint, WallPoint };

/** Input sizes of the operation counts (≥ 3 from 100 to 5,000). */
export const SIZES: readonly number[] = [100, 200, 500, 1000, 2000, 5000];
/** Input sizes of the wall clock: fewer, log-spaced, because every size costs rounds × a batch. */
export const WALL_SIZES: readonly number[] = [100, 300, 1000, 5000];
/** Slope at or above which growth is quadratic (both measures); measured O(n log n) stays ≤ 1.21. */
const QUADRATIC_CUT = 1.5;
/** Count slope at or above which growth is linearithmic: O(n) counts give 1.00, n·log n from 100 to 5,000 ≈ 1.16. */
const LINEARITHMIC_CUT = 1.08;
/**
 * The wall clock may only overrule the counters when it grows this much faster than the counts (log-log
 * slope difference): the counters then evidently missed work. Measured on this kind of machine: a Map join
 * counted at 1.00 times at 1.42–1.55 (allocation and cache effects grow with n), a quadratic loop over
 * primitives copied out of the input (counted at 0.99) times at 1.90–2.38.
 */
const HIDDEN_WORK_GAP = 0.75;
/** Fewer counted operations than elements at the largest size: the counters did not see the work. */
const BLIND_OPS_PER_ELEMENT = 1;

export type GrowthClass = "linear" | "linearithmic" | "quadratic";
export const CLASS_RANK: Record<GrowthClass, number> = { linear: 0, linearithmic: 1, quadratic: 2 };

/** Least-squares slope of log(y) over log(x). */
export function logLogSlope(points: readonly { x: number; y: number }[]): number | undefined {
  const ps = points.filter((p) => p.x > 0 && p.y > 0);
  if (ps.length < 2) return undefined;
  const xs = ps.map((p) => Math.log(p.x));
  const ys = ps.map((p) => Math.log(p.y));
  const mx = xs.reduce((a, b) => a + b, 0) / xs.length;
  const my = ys.reduce((a, b) => a + b, 0) / ys.length;
  let num = 0;
  let den = 0;
  xs.forEach((x, i) => {
    num += (x - mx) * ((ys[i] as number) - my);
    den += (x - mx) ** 2;
  });
  return den === 0 ? undefined : num / den;
}

/**
 * Slope of the counts. Capped points are lower bounds: when fewer than two sizes finished under the cap, the
 * work per element at the smallest sizes is already huge, which only super-linear code does — reported as
 * quadratic (slope = QUADRATIC_CUT).
 */
export function countSlope(points: readonly CountPoint[]): number {
  const full = points.filter((p) => !p.capped);
  if (full.length < 2) return QUADRATIC_CUT;
  return logLogSlope(full.map((p) => ({ x: p.n, y: p.ops }))) as number;
}

function countClass(slope: number): GrowthClass {
  return slope >= QUADRATIC_CUT ? "quadratic" : slope >= LINEARITHMIC_CUT ? "linearithmic" : "linear";
}

export function wallSlope(points: readonly WallPoint[]): number | undefined {
  return logLogSlope(points.map((p) => ({ x: p.n, y: p.ms })));
}

interface Verdict {
  class: GrowthClass;
  /** `none`: nothing measured could decide (counted as quadratic, so it fails). */
  decidedBy: "counters" | "wall" | "none";
  countSlope: number;
  wallSlope: number | undefined;
  countClass: GrowthClass;
  countersBlind: boolean;
  /** Wall slopes of the confirmation re-measurements (only when the wall disagreed with the counters). */
  confirmations: number[];
  /** Human sentence. */
  reason: string;
}

/** Wall-clock confirmations asked before the wall clock may overrule the counters. */
const CONFIRM_RUNS = 2;

/** Work the counters cannot see shows as wall-clock growth well beyond the counted growth. */
function hiddenWork(wall: number | undefined, counted: number): boolean {
  return wall !== undefined && wall >= QUADRATIC_CUT && wall - counted >= HIDDEN_WORK_GAP;
}

/**
 * How many more wall-clock measurements `decide` needs: none when the counters decide on their own,
 * else until one fails to confirm the hidden work or CONFIRM_RUNS confirmed it.
 */
export function confirmationsNeeded(
  counts: readonly CountPoint[],
  wall: readonly WallPoint[],
  confirmations: readonly (number | undefined)[],
): number {
  const cs = countSlope(counts);
  if (countClass(cs) === "quadratic" || !hiddenWork(wallSlope(wall), cs)) return 0;
  if (confirmations.some((c) => !hiddenWork(c, cs))) return 0;
  return Math.max(0, CONFIRM_RUNS - confirmations.length);
}

/**
 * Counters decide wherever they see the work (they cannot invent operations, and they do not jitter). The
 * wall clock can only raise the verdict to quadratic when the counters saw less — work on primitives copied
 * out of the input — and only if every re-measurement (`confirmations`, see `confirmationsNeeded`) confirms
 * it. When the counters saw nothing and the wall clock measured too little, there is no verdict: quadratic,
 * with the reason (never a pass by default).
 */
export function decide(
  counts: readonly CountPoint[],
  wall: readonly WallPoint[],
  confirmations: readonly (number | undefined)[] = [],
): Verdict {
  const cs = countSlope(counts);
  const ws = wallSlope(wall);
  const cClass = countClass(cs);
  const last = counts[counts.length - 1];
  const blind = !last || (!last.capped && last.ops < last.n * BLIND_OPS_PER_ELEMENT);
  const base = {
    countSlope: cs,
    wallSlope: ws,
    countClass: cClass,
    countersBlind: blind,
    confirmations: confirmations.map((c) => c ?? Number.NaN),
  };
  if (cClass !== "quadratic" && hiddenWork(ws, cs)) {
    const confirmed = confirmations.length === CONFIRM_RUNS && confirmations.every((c) => hiddenWork(c, cs));
    if (confirmed)
      return {
        ...base,
        class: "quadratic",
        decidedBy: "wall",
        reason: `wall-clock slope ${fmt(ws)} (confirmed: ${confirmations.map(fmt).join(", ")}) ≥ ${QUADRATIC_CUT} and ≥ ${HIDDEN_WORK_GAP} above the counted ${fmt(cs)}: work the counters cannot see (primitives copied out of the input) grows quadratically`,
      };
    return {
      ...base,
      class: cClass,
      decidedBy: "counters",
      reason: `counter slope ${fmt(cs)}; a wall-clock slope of ${fmt(ws)} was not confirmed on re-measurement (${confirmations.map(fmt).join(", ")})`,
    };
  }
  if (blind && cClass !== "quadratic") {
    if (ws === undefined)
      return {
        ...base,
        class: "quadratic",
        decidedBy: "none",
        reason: `cannot decide: the counters saw almost no work (${last?.ops ?? 0} operations at n=${last?.n}) and the wall clock measured fewer than two sizes`,
      };
    return {
      ...base,
      class: cClass,
      decidedBy: "wall",
      reason: `the counters saw almost no work (${last?.ops ?? 0} operations at n=${last?.n}); wall-clock slope ${fmt(ws)} is below ${QUADRATIC_CUT} (time cannot tell n from n·log n)`,
    };
  }
  return {
    ...base,
    class: cClass,
    decidedBy: "counters",
    reason: `operation-count slope ${fmt(cs)}${counts.some((p) => p.capped) ? " (counting stopped at the cap)" : ""}, wall-clock slope ${fmt(ws)}`,
  };
}

function fmt(x: number | undefined): string {
  return x === undefined || Number.isNaN(x) ? "n/a" : x.toFixed(3);
}
