/**
 * "Did you mean" for unknown keys: the closest known key by edit distance (a typo), or the key that holds what a
 * well-known wrong name means (`must_have` in a case: the checks go in `assertions`).
 */
import { didYouMean } from "../util/edit-distance.js";

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

/** The hint for unknown `key` among `known` keys, as a sentence fragment, or "" when there are none. */
export function unknownKeyHint(key: string, known: readonly string[]): string {
  if (known.length === 0) return "";
  const best = didYouMean(key, known, { ignoreSeparators: true });
  if (best !== undefined) return `; did you mean \`${best}\`?`;
  if (known.includes("assertions") && CHECK_SYNONYMS.has(key.toLowerCase()))
    return `; checks go in \`assertions\` (e.g. \`- {id: has-total, type: ${/not/i.test(key) ? "not-contains" : "contains"}, value: "…"}\`)`;
  return `; known keys: ${known.map((k) => `\`${k}\``).join(", ")}`;
}
