/**
 * The one edit distance of "did you mean" suggestions (unknown keys, options, commands, gate options): optimal
 * string alignment, where an adjacent swap (`teh` → `the`) is one edit, as people's typos are. Computed by the
 * `damerau-levenshtein` package (its OSA variant); each caller keeps its own idea of "close".
 */
import damerauLevenshtein from "damerau-levenshtein";

/** Edits (insert, delete, substitute, swap two adjacent characters, no substring edited twice) from `a` to `b`. */
export function editDistance(a: string, b: string): number {
  return damerauLevenshtein(a, b).steps;
}
