/**
 * editDistance against a reference written from the definition of optimal string alignment (top-down, on
 * prefixes), over strings of a small alphabet so that swaps and repeats are frequent.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { editDistance } from "../../src/util/edit-distance.js";

/** OSA distance by its definition, memoised on the two prefix lengths. */
function reference(a: string, b: string): number {
  const memo = new Map<string, number>();
  const d = (i: number, j: number): number => {
    if (i === 0) return j;
    if (j === 0) return i;
    const key = `${i},${j}`;
    const known = memo.get(key);
    if (known !== undefined) return known;
    const options = [d(i - 1, j) + 1, d(i, j - 1) + 1, d(i - 1, j - 1) + (a[i - 1] === b[j - 1] ? 0 : 1)];
    if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) options.push(d(i - 2, j - 2) + 1);
    const best = Math.min(...options);
    memo.set(key, best);
    return best;
  };
  return d(a.length, b.length);
}

const SEED = 33;
const word = fc.string({ unit: fc.constantFrom("a", "b", "c", "-", "_"), maxLength: 9 });

describe("editDistance (optimal string alignment)", () => {
  it("equals the definition's value on random pairs (seed 33)", () => {
    fc.assert(
      fc.property(word, word, (a, b) => editDistance(a, b) === reference(a, b)),
      { seed: SEED, numRuns: 3000 },
    );
  });

  it("is zero only for equal strings, symmetric, and at most the longer length", () => {
    fc.assert(
      fc.property(word, word, (a, b) => {
        const d = editDistance(a, b);
        return (d === 0) === (a === b) && d === editDistance(b, a) && d <= Math.max(a.length, b.length);
      }),
      { seed: SEED, numRuns: 2000 },
    );
  });

  it("counts an adjacent swap as one edit, but never edits a swapped pair again", () => {
    expect(editDistance("trials", "trails")).toBe(1);
    expect(editDistance("discriminator", "discrimniator")).toBe(1);
    expect(editDistance("", "abc")).toBe(3);
    expect(editDistance("kitten", "sitting")).toBe(3);
    // Unrestricted Damerau–Levenshtein says 2 (swap, then insert between); OSA may not touch the pair again.
    expect(editDistance("ca", "abc")).toBe(3);
  });
});
