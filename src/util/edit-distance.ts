/**
 * The one edit distance of "did you mean" suggestions (unknown keys, options, commands, gate options): optimal
 * string alignment, where an adjacent swap (`teh` → `the`) is one edit, as people's typos are. Computed by the
 * `damerau-levenshtein` package (its OSA variant); `didYouMean` below picks the suggestion, each caller saying
 * how it reads "close" (`Closeness`).
 */
import damerauLevenshtein from "damerau-levenshtein";

/** Edits (insert, delete, substitute, swap two adjacent characters, no substring edited twice) from `a` to `b`. */
export function editDistance(a: string, b: string): number {
  return damerauLevenshtein(a, b).steps;
}

/** How a caller reads "close" (the defaults: case-blind, bounded by the given name's length). */
export interface Closeness {
  /** Case counts (an option `--Seed` is not `--seed`). */
  caseSensitive?: boolean;
  /** Names equal but for case, `-`, `_` and spaces are the same name (`max-tokens`, `max_tokens`). */
  ignoreSeparators?: boolean;
  /** A name that begins the other (an abbreviated option) is one edit away. */
  prefixIsOneEdit?: boolean;
  /** Whose length bounds "close": the given name's or the suggestion's. */
  limitBy?: "given" | "suggestion";
}

/**
 * The known name closest to `given` when it is close enough to be a typo (a third of the length at most, two edits
 * for a short name; the first of equally close ones), else undefined. The one "did you mean" of unknown keys,
 * options, commands and gate options; each caller words the hint its own way.
 */
export function didYouMean(given: string, known: readonly string[], how: Closeness = {}): string | undefined {
  const fold = (s: string) => (how.caseSensitive ? s : s.toLowerCase());
  const bare = (s: string) => s.toLowerCase().replace(/[-_\s]/g, "");
  const distance = (k: string) => {
    if (how.ignoreSeparators && bare(k) === bare(given)) return 0;
    if (how.prefixIsOneEdit && (k.startsWith(given) || given.startsWith(k))) return 1;
    return editDistance(fold(given), fold(k));
  };
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const k of known) {
    const d = distance(k);
    if (d < bestDistance) [best, bestDistance] = [k, d];
  }
  if (best === undefined) return undefined;
  const length = how.limitBy === "suggestion" ? best.length : given.length;
  return bestDistance <= Math.max(2, Math.floor(length / 3)) ? best : undefined;
}
