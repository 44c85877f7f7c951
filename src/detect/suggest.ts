/**
 * "Did you mean" for unknown keys: the closest known key by edit distance (a typo), or the key that holds what a
 * well-known wrong name means (`must_have` in a case: the checks go in `assertions`).
 */
import { editDistance } from "../util/edit-distance.js";

/** Keys people write for a case's checks, from other tools' vocabularies. */
const CHECK_SYNONYMS = new Set([
  "must_have",
  "must_not_have",
  "must_contain",
  "must_not_contain",
  "must_include",
  "should_contain",
  "expect",
  "expected",
  "expects",
  "expectation",
  "checks",
  "check",
  "asserts",
  "assert",
  "tests",
  "graders",
]);

/** The suggestion for unknown `key` among `known` keys, as a sentence fragment, or "" when none is close. */
export function didYouMean(key: string, known: readonly string[]): string {
  if (known.length === 0) return "";
  const norm = (s: string) => s.toLowerCase().replace(/[-_\s]/g, "");
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const k of known) {
    const distance = norm(k) === norm(key) ? 0 : editDistance(key.toLowerCase(), k.toLowerCase());
    if (distance < bestDistance) {
      best = k;
      bestDistance = distance;
    }
  }
  // Close: a third of the key's length at most (two edits for a short key).
  if (best !== undefined && bestDistance <= Math.max(2, Math.floor(key.length / 3)))
    return `; did you mean \`${best}\`?`;
  if (known.includes("assertions") && CHECK_SYNONYMS.has(key.toLowerCase()))
    return `; checks go in \`assertions\` (e.g. \`- {id: has-total, type: ${/not/i.test(key) ? "not-contains" : "contains"}, value: "…"}\`)`;
  return `; known keys: ${known.map((k) => `\`${k}\``).join(", ")}`;
}
