import type { RateWithInterval } from "../model/report.js";

/** Two-sided 95 % normal quantile. */
const Z_95 = 1.959963984540054;

/**
 * Wilson score interval for `passed` successes out of `total` trials. Weighted (non-integer) counts are
 * accepted: trigger queries of waza `medium` confidence count 0.5. With no trials the interval is [0, 1].
 */
export function wilson(passed: number, total: number, z = Z_95): { low: number; high: number } {
  if (total <= 0) return { low: 0, high: 1 };
  const p = passed / total;
  const z2 = z * z;
  const denom = 1 + z2 / total;
  const centre = p + z2 / (2 * total);
  const half = z * Math.sqrt((p * (1 - p)) / total + z2 / (4 * total * total));
  return { low: clamp01((centre - half) / denom), high: clamp01((centre + half) / denom) };
}

/**
 * A rate with its Wilson interval. `emptyRate` is what an empty sample reports as its rate (0 unless a
 * vacuous value is meant, e.g. precision when nothing fired); the interval of an empty sample is [0, 1].
 */
export function rate(passed: number, total: number, emptyRate = 0): RateWithInterval {
  const { low, high } = wilson(passed, total);
  return { passed, total, rate: total > 0 ? passed / total : emptyRate, low, high };
}

export function f1Score(precision: number, recall: number): number {
  return precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0;
}

export function mean(xs: readonly number[]): number {
  return xs.length === 0 ? 0 : xs.reduce((a, b) => a + b, 0) / xs.length;
}

/** Sample standard deviation (n − 1), 0 for fewer than two values: what skill-creator's aggregator reports. */
export function stddev(xs: readonly number[]): number {
  if (xs.length < 2) return 0;
  const m = mean(xs);
  return Math.sqrt(xs.reduce((a, x) => a + (x - m) * (x - m), 0) / (xs.length - 1));
}

function clamp01(x: number): number {
  return Math.min(1, Math.max(0, x));
}
