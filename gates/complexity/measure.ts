/**
 * Measurements of the complexity gate, run in its sandbox child: deterministic operation counts per size and
 * the wall-clock minimum per call per size. Nothing here decides; the parent reads the points (growth.ts).
 */
import type { Builder } from "./builders.js";
import { CountCapReached, counted, OpCounter } from "./counting.js";
import type { Instruments } from "./instruments.js";

/** Counting stops at this many operations for one call (a quadratic shows itself long before). */
const COUNT_CAP = 1_000_000;
/** Timed rounds per size; the minimum per call is kept. */
export const WALL_ROUNDS = 5;
/** Rounds of each confirming re-measurement (more rounds, lower minimums). */
export const CONFIRM_ROUNDS = 10;
/** Calls are batched until a batch takes about this long (timer resolution, call overhead). */
const TARGET_BATCH_MS = 1;
const MAX_BATCH = 2000;
/** A single call slower than this stops the wall clock from trying larger sizes. */
const WALL_CALL_BUDGET_MS = 60;

type Fn = (...args: unknown[]) => unknown;

export interface CountPoint {
  n: number;
  ops: number;
  /** The call passed COUNT_CAP and was stopped: `ops` is a lower bound. */
  capped: boolean;
}

export interface WallPoint {
  n: number;
  /** Minimum over rounds of the mean time per call in a batch, milliseconds. */
  ms: number;
  batch: number;
}

/** Counts one call per size, ascending; stops after the first size that reaches the cap. */
export function measureCounts(
  instruments: Instruments,
  fn: Fn,
  build: Builder,
  sizes: readonly number[],
  seed: number,
  cap = COUNT_CAP,
): CountPoint[] {
  const points: CountPoint[] = [];
  for (const n of sizes) {
    const counter = new OpCounter(cap);
    const args = counted(build(n, seed), counter);
    instruments.attach(counter);
    try {
      fn(...args);
    } catch (err) {
      if (!(err instanceof CountCapReached) && !counter.capped) throw err;
    } finally {
      instruments.detach();
    }
    points.push({ n, ops: counter.ops, capped: counter.capped });
    if (counter.capped) break;
  }
  return points;
}

function copyArgs(args: unknown[]): unknown[] {
  return args.map((a) => (Array.isArray(a) ? a.slice() : a));
}

// Captured when the child loads this file, before the module can replace them.
const hrtime = process.hrtime.bigint;
const nowMs = () => Number(hrtime()) / 1e6;
const gc = (globalThis as unknown as { gc?: (o?: { type: "minor" | "major" }) => void }).gc;

/**
 * Wall clock: every size warmed the same way, then WALL_ROUNDS interleaved rounds (alternating direction) of
 * batched calls on fresh shallow copies (in-place sorts must not get sorted input), a GC before each batch
 * (full once, then young-generation scavenges),
 * the minimum time per call kept. Minimums are what contention cannot inflate.
 */
export function measureWall(
  fn: Fn,
  build: Builder,
  sizes: readonly number[],
  seed: number,
  rounds = WALL_ROUNDS,
): WallPoint[] {
  const inputs: unknown[][] = [];
  const batches: number[] = [];
  for (const n of sizes) {
    const args = build(n, seed);
    fn(...copyArgs(args)); // warm-up
    const t0 = nowMs();
    fn(...copyArgs(args));
    const once = nowMs() - t0;
    inputs.push(args);
    batches.push(Math.min(MAX_BATCH, Math.max(1, Math.ceil(TARGET_BATCH_MS / Math.max(once, 1e-4)))));
    if (once > WALL_CALL_BUDGET_MS) break;
  }
  const best = inputs.map(() => Number.POSITIVE_INFINITY);
  gc?.({ type: "major" });
  for (let r = 0; r < rounds; r++) {
    const order = inputs.map((_, i) => i);
    if (r % 2 === 1) order.reverse();
    for (const i of order) {
      const k = batches[i] as number;
      const copies = Array.from({ length: k }, () => copyArgs(inputs[i] as unknown[]));
      // A scavenge clears the previous batch's garbage (cheap); a full GC per batch would cost more than the calls.
      gc?.({ type: "minor" });
      const t0 = nowMs();
      for (let j = 0; j < k; j++) fn(...(copies[j] as unknown[]));
      const per = (nowMs() - t0) / k;
      if (per < (best[i] as number)) best[i] = per;
    }
  }
  return inputs.map((_, i) => ({
    n: sizes[i] as number,
    ms: best[i] as number,
    batch: batches[i] as number,
  }));
}
