/**
 * What any schedule of the verdict's looks can reach under the latency bench's long tail (#38 item 8). The warm
 * long-tail regression PR waits for the first batch (every case's head trials) and for the regressed case's
 * confirmation trials, which the sequential design fixes in advance: head 5 → 9 → 22 → 60 and base kept at 1.5×
 * head (30 stored; 3 and 57 more at the last two looks). A 0.9 → 0.5 case is new only at the last look at the
 * default α (p ≈ 0.001 at look 3 against a threshold near 0.0003), so the PR pays every look.
 *
 * Simulated here with the bench's tail (L 70 %, 2 L 20 %, 4 L 8 %, 8 L 2 %) and the runner's calls at once:
 * - `rounds`: each look one round after the one before (what the pipeline does);
 * - `allAtOnce`: every trial the PR will need started at t = 0 (a clairvoyant schedule no sequential test can
 *   beat: it knows in advance which case regressed and that it reaches the last look).
 * Both exclude skillgate's own time (the latency-0 column). Seeded: the same inputs give the same figures.
 */
import { DEFAULT_BASE_DEPTH } from "../src/settings/defaults.js";
import { confirmationSchedule } from "../src/verdict/new-roots.js";
import { BASE_TRIALS_PER_HEAD_TRIAL } from "../src/verdict/policy.js";
import { seededRandom } from "../src/verdict/stats.js";

/** The bench's long tail, in units of L (the median). */
function tailDraw(random: () => number): number {
  const t = random();
  return t >= 0.98 ? 8 : t >= 0.9 ? 4 : t >= 0.7 ? 2 : 1;
}

/** Wall time of `n` trials over `slots` calls at once, each starting when a slot frees (list scheduling). */
function roundTime(n: number, slots: number, random: () => number): number {
  const free = Array<number>(Math.min(slots, n)).fill(0);
  for (let i = 0; i < n; i++) {
    let k = 0;
    for (let j = 1; j < free.length; j++) if (free[j]! < free[k]!) k = j;
    free[k]! += tailDraw(random);
  }
  return free.length ? Math.max(...free) : 0;
}

/** New trials (head + base) of each confirmation look of one warm case (`stored` base trials read from main). */
export function confirmationRounds(
  startTrials: number,
  maxExtra: number,
  stored = DEFAULT_BASE_DEPTH,
): number[] {
  let head = startTrials;
  let base = stored;
  return confirmationSchedule(startTrials, maxExtra).map((target) => {
    const baseTarget = Math.max(base, Math.ceil(BASE_TRIALS_PER_HEAD_TRIAL * target));
    const added = target - head + (baseTarget - base);
    head = target;
    base = baseTarget;
    return added;
  });
}

export interface LatencyBound {
  rounds: number;
  allAtOnce: number;
  trials: number;
}

/** Mean wall time in L of the first batch plus the regressed case's looks, over `samples` simulated PRs. */
export function latencyBound(opts: {
  firstBatch: number;
  looks: number[];
  slots: number;
  samples?: number;
  seed?: number;
}): LatencyBound {
  const random = seededRandom(opts.seed ?? 1);
  const samples = opts.samples ?? 4000;
  const trials = opts.firstBatch + opts.looks.reduce((x, y) => x + y, 0);
  let rounds = 0;
  let allAtOnce = 0;
  for (let i = 0; i < samples; i++) {
    rounds += [opts.firstBatch, ...opts.looks].reduce((t, n) => t + roundTime(n, opts.slots, random), 0);
    allAtOnce += roundTime(trials, opts.slots, random);
  }
  const mean = (x: number) => Number((x / samples).toFixed(1));
  return { rounds: mean(rounds), allAtOnce: mean(allAtOnce), trials };
}
