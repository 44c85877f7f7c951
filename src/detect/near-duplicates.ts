/**
 * Near-duplicate descriptions: skills whose descriptions' TF-IDF vectors (the lexical router's terms) have a cosine
 * at or above a threshold, found exactly without comparing every pair, so a registry of 60,000 skills costs what
 * its shared rare words cost (docs/performance.md, "Catalogues").
 */
import type { Diagnostic } from "../model/diagnostics.js";
import type { CatalogueEntry, Skill } from "../model/skill.js";
import { buildIndex, type LexicalIndex } from "./lexical-router.js";

/** Cosine similarity of TF-IDF vectors above which two descriptions are reported as near-duplicates. */
const NEAR_DUPLICATE_SIMILARITY = 0.5;

/** A skill whose description is a near-duplicate of others': the most similar one, and how many there are. */
export interface NearDuplicate {
  name: string;
  /** The most similar other skill (ties: the first name in sort order). */
  nearest: string;
  similarity: number;
  /** Other skills at or above the threshold, `nearest` included. */
  others: number;
}

/**
 * Every skill whose description is a near-duplicate (cosine of the descriptions' TF-IDF vectors ≥ threshold) of
 * another's, most similar first. Linear in the skills where descriptions repeat: identical descriptions (a
 * catalogue's boilerplate "Use when this capability is needed.", thousands of times) are compared once, as one
 * vector with its members.
 */
export function nearDuplicateDescriptions(
  catalogue: readonly CatalogueEntry[],
  threshold = NEAR_DUPLICATE_SIMILARITY,
): NearDuplicate[] {
  const index = buildIndex(catalogue, (e) => e.description);
  const members = identicalDocs(index);
  const vectors = members.map((m) => unitVector(index, index.docs[m[0]!]!));
  // For each group of identical descriptions, the groups it is near (itself at cosine 1 when it has two members
  // and its description weighs anything).
  const near = members.map((m, r) =>
    m.length > 1 && vectors[r]!.size > 0 ? [{ rep: r, similarity: 1 }] : [],
  );
  for (const { i, j, similarity } of similarPairs(vectors, threshold)) {
    near[i]!.push({ rep: j, similarity });
    near[j]!.push({ rep: i, similarity });
  }
  const names = members.map((m) => m.map((x) => index.names[x]!).sort());
  const out: NearDuplicate[] = [];
  names.forEach((group, r) => {
    if (near[r]!.length > 0) for (const name of group) out.push(nearestTo(name, r, near[r]!, names));
  });
  return out.sort((x, y) => y.similarity - x.similarity || (x.name < y.name ? -1 : 1));
}

/** The documents' indices grouped by identical term counts, in order of first appearance. */
function identicalDocs(index: LexicalIndex): number[][] {
  const groups = new Map<string, number[]>();
  index.docs.forEach((d, i) => {
    const key = [...d].sort((a, b) => (a[0] < b[0] ? -1 : 1)).join(" ");
    const members = groups.get(key);
    if (members) members.push(i);
    else groups.set(key, [i]);
  });
  return [...groups.values()];
}

/** `self` (of group `own`)'s most similar other skill, and how many others reach the threshold. */
function nearestTo(
  self: string,
  own: number,
  near: readonly { rep: number; similarity: number }[],
  names: readonly string[][],
): NearDuplicate {
  let best = { name: "", similarity: -1 };
  let others = 0;
  for (const { rep, similarity } of near) {
    others += names[rep]!.length - (rep === own ? 1 : 0);
    // A group's names are sorted: its first one but `self` is its best at this similarity.
    const name = names[rep]![0] === self ? names[rep]![1] : names[rep]![0];
    if (name === undefined) continue;
    if (similarity > best.similarity || (similarity === best.similarity && name < best.name))
      best = { name, similarity };
  }
  return { name: self, nearest: best.name, similarity: best.similarity, others };
}

/** A document's TF-IDF vector scaled to length 1 (empty when no term weighs anything), so a cosine is a dot product. */
function unitVector(index: LexicalIndex, doc: Map<string, number>): Map<string, number> {
  const v = new Map<string, number>();
  for (const [t, tf] of doc) v.set(t, tf * (index.idf.get(t) ?? 0));
  const norm = Math.sqrt([...v.values()].reduce((a, x) => a + x * x, 0));
  if (norm === 0) return new Map();
  for (const [t, x] of v) v.set(t, x / norm);
  return v;
}

/**
 * The pairs of vectors whose dot product reaches the threshold, without comparing all pairs (10,000 skills are 50
 * million): All-Pairs (Bayardo, Ma and Srikant, WWW 2007) with L2AP's prefix-norm bounds (Anastasiu and Karypis,
 * ICDE 2014). Terms are ordered common first. Each vector is indexed under its rarer terms only: its common terms
 * (a prefix of that order) are left out while a bound on what they add to any dot product stays below the
 * threshold. A later vector probes the index with its terms rarest first, and stops once what its own remaining
 * (commoner) terms could add is below the threshold: a pair reaching it shares a term past both prefixes, which
 * the probe reads. So the common words every description uses are never scanned, and the work follows the pairs
 * that share rare words, not all pairs. Each candidate's dot product is then computed whole.
 */
function similarPairs(
  vectors: readonly Map<string, number>[],
  threshold: number,
): { i: number; j: number; similarity: number }[] {
  const m = packed(vectors);
  const { start, term, weight, maxWeight, largest } = m;
  // term → the vectors indexed under it
  const index: number[][] = Array.from({ length: m.terms }, () => []);
  const out: { i: number; j: number; similarity: number }[] = [];
  // Vectors with the largest weight first: a later vector weighs no term more than an earlier one's largest
  // weight, which tightens each vector's bound, so fewer of its terms are indexed.
  const order = vectors.map((_, i) => i).sort((a, b) => largest[b]! - largest[a]! || a - b);
  const weightOf = new Float64Array(m.terms);
  const seen = new Uint8Array(vectors.length);
  const candidates: number[] = [];
  for (const i of order) {
    const [from, to] = [start[i]!, start[i + 1]!];
    for (let k = from; k < to; k++) weightOf[term[k]!] = weight[k]!;
    const probed = prefixBounds(m, i, (t) => maxWeight[t]!);
    // Rarest first, down to the common prefix whose bound is below the threshold.
    for (let k = to - 1; k >= from && probed[k - from]! >= threshold; k--)
      for (const j of index[term[k]!]!)
        if (!seen[j]) {
          seen[j] = 1;
          candidates.push(j);
        }
    for (const j of candidates) {
      seen[j] = 0;
      let dot = 0;
      for (let k = start[j]!; k < start[j + 1]!; k++) dot += weight[k]! * weightOf[term[k]!]!;
      if (dot >= threshold) out.push(j < i ? { i: j, j: i, similarity: dot } : { i, j, similarity: dot });
    }
    candidates.length = 0;
    for (let k = from; k < to; k++) weightOf[term[k]!] = 0;
    // Indexed from the first term whose prefix bound reaches the threshold, against a later vector: it weighs no
    // term more than this one's largest weight.
    const kept = prefixBounds(m, i, (t) => Math.min(maxWeight[t]!, largest[i]!));
    for (let k = from; k < to; k++) if (kept[k - from]! >= threshold) index[term[k]!]!.push(i);
  }
  return out;
}

/**
 * The vectors packed flat (vector i's terms at `start[i]` to `start[i + 1]`, numbered, common first: by document
 * frequency, ties by number), each term's largest weight, and each vector's.
 */
interface Packed {
  terms: number;
  start: Int32Array;
  term: Int32Array;
  weight: Float64Array;
  maxWeight: Float64Array;
  largest: Float64Array;
}

function packed(vectors: readonly Map<string, number>[]): Packed {
  const ids = new Map<string, number>();
  let size = 0;
  for (const v of vectors)
    for (const t of v.keys()) {
      size++;
      if (!ids.has(t)) ids.set(t, ids.size);
    }
  const df = new Int32Array(ids.size);
  const maxWeight = new Float64Array(ids.size);
  for (const v of vectors)
    for (const [t, w] of v) {
      const id = ids.get(t)!;
      df[id]!++;
      if (w > maxWeight[id]!) maxWeight[id] = w;
    }
  const start = new Int32Array(vectors.length + 1);
  const term = new Int32Array(size);
  const weight = new Float64Array(size);
  const largest = new Float64Array(vectors.length);
  let k = 0;
  vectors.forEach((v, i) => {
    start[i] = k;
    const entries = [...v].map(([t, w]) => ({ t: ids.get(t)!, w }));
    for (const { t, w } of entries.sort((a, b) => df[b.t]! - df[a.t]! || a.t - b.t)) {
      term[k] = t;
      weight[k++] = w;
      if (w > largest[i]!) largest[i] = w;
    }
  });
  start[vectors.length] = k;
  return { terms: ids.size, start, term, weight, maxWeight, largest };
}

/**
 * For each term of vector `i` (in order), a bound on what it and the commoner terms before it add to a dot
 * product with another unit vector whose weight of a term t is at most `cap(t)`: the smaller of their weights
 * times those caps, and (Cauchy–Schwarz) their length, the other vector's being 1. Non-decreasing.
 */
function prefixBounds(m: Packed, i: number, cap: (t: number) => number): Float64Array {
  const out = new Float64Array(m.start[i + 1]! - m.start[i]!);
  let byWeight = 0;
  let squares = 0;
  for (let k = m.start[i]!; k < m.start[i + 1]!; k++) {
    const w = m.weight[k]!;
    byWeight += w * cap(m.term[k]!);
    squares += w * w;
    out[k - m.start[i]!] = Math.min(byWeight, Math.sqrt(squares));
  }
  return out;
}

/**
 * A warning at the description of each skill that has near-duplicates: the router (any router) will struggle to
 * choose between them. One per skill, naming the nearest and counting the rest. Measured with the lexical proxy,
 * and labelled so.
 */
export function nearDuplicateWarnings(
  skills: readonly Skill[],
  threshold = NEAR_DUPLICATE_SIMILARITY,
): Diagnostic[] {
  const byName = new Map(skills.map((s) => [s.name, s]));
  return nearDuplicateDescriptions(skills, threshold).map((d) => {
    const s = byName.get(d.name)!;
    const more = d.others > 1 ? ` and of ${d.others - 1} other skill(s)'` : "";
    return {
      ...(s.loc.description ?? s.loc.frontmatter),
      severity: "warning" as const,
      code: "skill/near-duplicate-description",
      message: `description of ${d.name} is a near-duplicate of ${d.nearest}'s${more} (lexical similarity ${d.similarity.toFixed(2)} ≥ ${threshold}, BM25 proxy): the router may pick either; make the trigger conditions distinct`,
    };
  });
}
