/**
 * The PR's effect per agent-matrix cell and the interaction between cells, as the process-evaluation document
 * (seeds/002, §6) computes its specification × harness interactions: a trial's score is the share of its checks
 * that passed (the suite score), the effect of a cell is the mean score at head minus the mean at base, the
 * interaction of two cells is the difference of their effects (difference in differences), and each comes with a
 * 95 % nonparametric percentile bootstrap interval over 20,000 resamples of the trials. Trials are resampled within
 * each case and arm (the arms run the same cases, so a resample keeps the design); only cases both arms ran count.
 * Seeded: the same reports give the same intervals. Pure.
 */
import type { CellEffect, EvidenceCheck } from "../model/index.js";

export const BOOTSTRAP_RESAMPLES = 20_000;
export const BOOTSTRAP_LEVEL = 0.95;
export const BOOTSTRAP_UNIT = "skill-mode trial (case × trial), resampled within its case and arm";

/** Per case, the score of each of its skill-mode trials: passed checks / graded checks (skipped ones aside). */
export type CaseScores = Map<string, number[]>;

export function trialScores(checks: readonly EvidenceCheck[]): CaseScores {
  const units = new Map<string, { caseId: string; passed: number; graded: number }>();
  for (const c of checks) {
    if (c.mode !== "skill" || c.status === "skipped") continue;
    const key = `${c.caseId}\0${c.trial}`;
    const u = units.get(key) ?? { caseId: c.caseId, passed: 0, graded: 0 };
    u.graded++;
    if (c.status === "pass") u.passed++;
    units.set(key, u);
  }
  const out: CaseScores = new Map();
  for (const u of units.values()) {
    const list = out.get(u.caseId) ?? [];
    list.push(u.passed / u.graded);
    out.set(u.caseId, list);
  }
  return out;
}

/** mulberry32 seeded from a string: a small, fast, reproducible stream (never `Math.random`). */
export function seededRandom(seed: string): () => number {
  let h = 1779033703 ^ seed.length;
  for (let i = 0; i < seed.length; i++) {
    h = Math.imul(h ^ seed.charCodeAt(i), 3432918353);
    h = (h << 13) | (h >>> 19);
  }
  let a = h >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function mean(scores: CaseScores): { mean: number; trials: number } {
  let sum = 0;
  let n = 0;
  for (const list of scores.values())
    for (const x of list) {
      sum += x;
      n++;
    }
  return { mean: n ? sum / n : 0, trials: n };
}

/** The arm's mean score in each of `resamples` stratified resamples (trials drawn with replacement per case). */
export function bootstrapMeans(scores: CaseScores, random: () => number, resamples: number): Float64Array {
  const lists = [...scores.values()].filter((l) => l.length > 0);
  const n = lists.reduce((t, l) => t + l.length, 0);
  const out = new Float64Array(resamples);
  for (let r = 0; r < resamples; r++) {
    let sum = 0;
    for (const l of lists) for (let k = 0; k < l.length; k++) sum += l[Math.floor(random() * l.length)]!;
    out[r] = n ? sum / n : 0;
  }
  return out;
}

/** The `q` quantile of `xs` (linear interpolation between order statistics, as R's type 7). */
export function quantile(sorted: Float64Array, q: number): number {
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.min(sorted.length - 1, lo + 1);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (pos - lo);
}

function interval(draws: Float64Array): { low: number; high: number } {
  const sorted = Float64Array.from(draws).sort();
  const tail = (1 - BOOTSTRAP_LEVEL) / 2;
  return { low: quantile(sorted, tail), high: quantile(sorted, 1 - tail) };
}

/** One cell's effect on one skill, with the bootstrap draws kept for the interactions. */
export interface EffectEstimate {
  effect: CellEffect;
  draws: Float64Array;
}

/**
 * Head minus base for one cell and skill; undefined when the arms share no case with a graded skill-mode trial.
 * `seed` names the stream (run seed, cell, skill), so every estimate is reproducible on its own.
 */
export function estimateEffect(
  head: readonly EvidenceCheck[],
  base: readonly EvidenceCheck[],
  seed: string,
  resamples = BOOTSTRAP_RESAMPLES,
): EffectEstimate | undefined {
  const h = trialScores(head);
  const b = trialScores(base);
  for (const c of [...h.keys()]) if (!b.has(c)) h.delete(c);
  for (const c of [...b.keys()]) if (!h.has(c)) b.delete(c);
  if (h.size === 0) return undefined;
  const random = seededRandom(seed);
  const hm = bootstrapMeans(h, random, resamples);
  const bm = bootstrapMeans(b, random, resamples);
  const draws = hm.map((x, i) => x - bm[i]!);
  const headMean = mean(h);
  const baseMean = mean(b);
  return {
    effect: {
      head: headMean,
      base: baseMean,
      effect: headMean.mean - baseMean.mean,
      ...interval(draws),
    },
    draws,
  };
}

/** effect(a) − effect(b) with its interval, from the two cells' independent draws. */
export function estimateInteraction(
  a: EffectEstimate,
  b: EffectEstimate,
): { difference: number; low: number; high: number; excludesZero: boolean } {
  const draws = a.draws.map((x, i) => x - b.draws[i]!);
  const { low, high } = interval(draws);
  return { difference: a.effect.effect - b.effect.effect, low, high, excludesZero: low > 0 || high < 0 };
}
