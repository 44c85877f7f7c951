/** Exact small-sample statistics for head-vs-base comparisons. Pure, no dependencies. */

const logFactorialCache: number[] = [0];

function logFactorial(n: number): number {
  for (let i = logFactorialCache.length; i <= n; i++)
    logFactorialCache[i] = logFactorialCache[i - 1]! + Math.log(i);
  return logFactorialCache[n]!;
}

function logChoose(n: number, k: number): number {
  return logFactorial(n) - logFactorial(k) - logFactorial(n - k);
}

function assertCount(name: string, value: number): void {
  if (!Number.isInteger(value) || value < 0)
    throw new RangeError(`${name} must be a non-negative integer, got ${value}`);
}

/**
 * One-sided Fisher exact test that head fails more often than base: P(X ≥ headFailed) where X is hypergeometric
 * with the observed margins (total failures spread over headTrials + baseTrials). Conditioning on the margins
 * makes it exact whatever the common failure rate is under the null.
 */
export function fisherOneSided(
  headFailed: number,
  headTrials: number,
  baseFailed: number,
  baseTrials: number,
): number {
  for (const [n, v] of Object.entries({ headFailed, headTrials, baseFailed, baseTrials })) assertCount(n, v);
  if (headFailed > headTrials || baseFailed > baseTrials) {
    throw new RangeError(
      `failures exceed trials: head ${headFailed}/${headTrials}, base ${baseFailed}/${baseTrials}`,
    );
  }
  const total = headTrials + baseTrials;
  const failures = headFailed + baseFailed;
  // The whole support: exactly 1, not a sum that rounds to 0.9999999999999969.
  if (headFailed <= Math.max(0, failures - baseTrials)) return 1;
  const denominator = logChoose(total, headTrials);
  let p = 0;
  for (let x = headFailed; x <= Math.min(failures, headTrials); x++) {
    if (failures - x > baseTrials) continue;
    p += Math.exp(logChoose(failures, x) + logChoose(total - failures, headTrials - x) - denominator);
  }
  return Math.min(1, p);
}

/** The smallest one-sided Fisher p-value any data could give with these arm sizes (all failures at head). */
export function minAttainableP(headTrials: number, baseTrials: number): number {
  return Math.exp(-logChoose(headTrials + baseTrials, headTrials));
}

export { wilson } from "../grade/stats.js";

export { seededRandom } from "../util/random.js";
