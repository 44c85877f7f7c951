/** Comparison rules shared by the gates: float sums with a relative tolerance, everything else exact. */

/** Relative tolerance for sums of floats (summation order legitimately changes the last bits). */
const FLOAT_SUM_RELATIVE_TOLERANCE = 1e-9;

/**
 * |actual − expected| ≤ 1e-9 · scale, where scale is the magnitude of the summands (Σ|v|, at least 1): relative
 * to the sum itself would reject correct code whenever positive and negative values cancel.
 */
export function sumClose(actual: unknown, expected: number, scale: number): boolean {
  return (
    typeof actual === "number" &&
    Math.abs(actual - expected) <= FLOAT_SUM_RELATIVE_TOLERANCE * Math.max(1, scale)
  );
}

/** Exact equality of numbers (treating −0 as 0). */
export function sameNumber(a: unknown, b: number): boolean {
  return typeof a === "number" && a === b;
}
