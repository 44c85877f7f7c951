/**
 * "Did you mean" for unknown keys: the closest known key by edit distance (a typo), or the key that holds what a
 * well-known wrong name means (`must_have` in a case: the checks go in `assertions`).
 */

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

/** Optimal string alignment distance (an adjacent swap is one edit). */
function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i]);
  for (let j = 1; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        v = Math.min(v, d[i - 2]![j - 2]! + 1);
      d[i]![j] = v;
    }
  return d[a.length]![b.length]!;
}

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
