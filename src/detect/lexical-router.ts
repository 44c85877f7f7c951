/**
 * The offline `lexical` router: BM25 over each skill's name + description. A PROXY for dry runs and for spotting
 * near-duplicate descriptions; a real agent's router reads meaning, this one counts words.
 */
import type { Diagnostic } from "../model/diagnostics.js";
import type { CatalogueEntry, Skill } from "../model/skill.js";

const BM25_K1 = 1.2;
const BM25_B = 0.75;
/**
 * Empty pseudo-documents added to the catalogue when computing IDF, so a word found in one skill of a small
 * catalogue still counts as distinctive (with N = 1 the plain BM25 IDF of every word would be ~0.29).
 */
const LEXICAL_BACKGROUND_DOCS = 10;
/**
 * The top skill fires when its score reaches this. On the 12 anthropics/skills descriptions, prompts meant for a
 * skill scored 9–12 and the runner-up or an unrelated prompt at most ~4.
 */
export const LEXICAL_FIRE_THRESHOLD = 5;
/** Cosine similarity of TF-IDF vectors above which two descriptions are reported as near-duplicates. */
const NEAR_DUPLICATE_SIMILARITY = 0.5;

/** Words every skill description uses ("Use this skill when the user asks …"): no routing signal. */
const STOPWORDS = new Set(
  (
    "a an and are as at be by can do does for from has have how i if in into is it its me my of on or our so " +
    "that the their them then there these they this those to was we what when where which who will with you " +
    "your use used uses using skill skills user users ask asks asked want wants need needs should also any " +
    "about e g eg etc like such other via may must not no yes all each more most only own same than too very " +
    "just help helps please task tasks work working claude agent write make get new"
  ).split(" "),
);

export function tokenize(text: string): string[] {
  return (text.toLowerCase().match(/[a-z0-9]+/g) ?? [])
    .filter((t) => t.length > 1 && !STOPWORDS.has(t))
    .map(stem);
}

/** A light suffix stripper: enough to match "invoices"/"invoice", "splitting"/"split" without a dictionary. */
export function stem(t: string): string {
  if (t.length > 4 && t.endsWith("ies")) return `${t.slice(0, -3)}y`;
  if (t.length > 5 && t.endsWith("ing")) return undouble(t.slice(0, -3));
  if (t.length > 4 && t.endsWith("ed")) return undouble(t.slice(0, -2));
  if (t.length > 3 && t.endsWith("s") && !t.endsWith("ss") && !t.endsWith("us")) return t.slice(0, -1);
  return t;
}

function undouble(t: string): string {
  return t.length > 2 && t.at(-1) === t.at(-2) ? t.slice(0, -1) : t;
}

export interface LexicalIndex {
  names: string[];
  docs: Map<string, number>[];
  lengths: number[];
  avgLength: number;
  idf: Map<string, number>;
  /** Per term, the documents holding it (ascending): a query is scored against those alone. */
  postings: Map<string, number[]>;
}

function docText(e: CatalogueEntry): string {
  return `${e.name.replace(/[-_:]/g, " ")} ${e.description}`;
}

/** `text`: what of an entry is indexed (routing: its name and description). */
export function buildIndex(
  catalogue: readonly CatalogueEntry[],
  text: (e: CatalogueEntry) => string = docText,
): LexicalIndex {
  const docs = catalogue.map((e) => termCounts(tokenize(text(e))));
  const lengths = docs.map((d) => [...d.values()].reduce((a, b) => a + b, 0));
  const df = new Map<string, number>();
  const postings = new Map<string, number[]>();
  docs.forEach((d, i) => {
    for (const t of d.keys()) {
      df.set(t, (df.get(t) ?? 0) + 1);
      const list = postings.get(t);
      if (list) list.push(i);
      else postings.set(t, [i]);
    }
  });
  const n = docs.length + LEXICAL_BACKGROUND_DOCS;
  const idf = new Map<string, number>();
  for (const [t, f] of df) idf.set(t, Math.log(1 + (n - f + 0.5) / (f + 0.5)));
  const avgLength = lengths.length ? lengths.reduce((a, b) => a + b, 0) / lengths.length : 0;
  return { names: catalogue.map((e) => e.name), docs, lengths, avgLength, idf, postings };
}

function termCounts(tokens: string[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const t of tokens) m.set(t, (m.get(t) ?? 0) + 1);
  return m;
}

export function bm25Scores(index: LexicalIndex, query: string): { name: string; score: number }[] {
  const scores = bm25Matches(index, query);
  return index.names.map((name, i) => ({ name, score: scores.get(i) ?? 0 }));
}

/** The BM25 score of every document sharing a term with `query` (the others score 0), by document index. */
export function bm25Matches(index: LexicalIndex, query: string): Map<number, number> {
  const scores = new Map<number, number>();
  bm25Scorer(index)(query, (i, score) => scores.set(i, score));
  return scores;
}

/**
 * Scores queries against `index` through the postings of their terms only, so ranking 1,000 prompts against
 * 10,000 skills reads what they share, not ten million documents: `each(doc, score)` for every document sharing a
 * term (the others score 0). Each term's weight per document is computed once; terms add in query order, so a
 * score is the same number `bm25Scores` gives.
 */
export function bm25Scorer(
  index: LexicalIndex,
): (query: string, each: (doc: number, score: number) => void) => void {
  const n = index.names.length;
  const sums = new Float64Array(n);
  const seen = new Uint8Array(n);
  const touched: number[] = [];
  const weights = new Map<string, Float64Array>();
  const weightsOf = (t: string, docs: readonly number[]): Float64Array => {
    let w = weights.get(t);
    if (!w) {
      const idf = index.idf.get(t) ?? 0;
      w = new Float64Array(docs.length);
      docs.forEach((i, k) => {
        const tf = index.docs[i]!.get(t)!;
        const norm = tf + BM25_K1 * (1 - BM25_B + (BM25_B * index.lengths[i]!) / (index.avgLength || 1));
        w![k] = idf * ((tf * (BM25_K1 + 1)) / norm);
      });
      weights.set(t, w);
    }
    return w;
  };
  return (query, each) => {
    for (const t of new Set(tokenize(query))) {
      const docs = index.postings.get(t);
      if (!docs) continue;
      const w = weightsOf(t, docs);
      for (let k = 0; k < docs.length; k++) {
        const i = docs[k]!;
        if (!seen[i]) {
          seen[i] = 1;
          touched.push(i);
        }
        sums[i]! += w[k]!;
      }
    }
    for (const i of touched) {
      each(i, sums[i]!);
      sums[i] = 0;
      seen[i] = 0;
    }
    touched.length = 0;
  };
}

export interface RouteDecision {
  /** The skill that fires, or null. */
  fired: string | null;
  scores: { name: string; score: number }[];
}

/** The best-scoring skill fires when it reaches the threshold; ties go to the first name in sort order. */
export function routeLexical(
  prompt: string,
  catalogue: readonly CatalogueEntry[],
  threshold = LEXICAL_FIRE_THRESHOLD,
): RouteDecision {
  const scores = bm25Scores(buildIndex(catalogue), prompt).sort(
    (a, b) => b.score - a.score || a.name.localeCompare(b.name),
  );
  const top = scores[0];
  return { fired: top && top.score >= threshold ? top.name : null, scores };
}

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
 * million): All-Pairs (Bayardo, Ma and Srikant, WWW 2007). Each vector is indexed under its rarer terms only: its
 * common terms are left out while their weights, times the largest weight any vector gives them, sum below the
 * threshold, so a pair reaching it always shares a term one of them is indexed under. Later vectors probe the
 * index with all their terms; a candidate's similarity is the whole dot product.
 */
function similarPairs(
  vectors: readonly Map<string, number>[],
  threshold: number,
): { i: number; j: number; similarity: number }[] {
  const termIds = new Map<string, number>();
  const vecs = vectors.map((v) =>
    [...v].map(([t, w]) => {
      const known = termIds.get(t);
      const id = known ?? termIds.size;
      if (known === undefined) termIds.set(t, id);
      return { t: id, w };
    }),
  );
  const maxWeight = new Float64Array(termIds.size);
  const df = new Int32Array(termIds.size);
  for (const v of vecs)
    for (const { t, w } of v) {
      if (w > maxWeight[t]!) maxWeight[t] = w;
      df[t]!++;
    }
  // term → the vectors indexed under it and their weight of it, flat: [j, w, j, w, …]
  const index: number[][] = Array.from({ length: termIds.size }, () => []);
  // Each vector's terms left out of the index, and a bound (below the threshold) on what they add to a dot product
  const left: { t: number; w: number }[][] = vecs.map(() => []);
  const leftOut = new Float64Array(vecs.length);
  const out: { i: number; j: number; similarity: number }[] = [];
  // Vectors with the largest weight first: a later vector weighs no term more than an earlier one's largest
  // weight, which tightens each vector's bound, so fewer of its terms are indexed.
  const largest = vecs.map((v) => v.reduce((m, x) => Math.max(m, x.w), 0));
  const order = vecs.map((_, i) => i).sort((a, b) => largest[b]! - largest[a]! || a - b);
  const weightOf = new Float64Array(termIds.size);
  const partial = new Float64Array(vecs.length);
  const touched: number[] = [];
  for (const i of order) {
    const v = vecs[i]!;
    for (const { t, w } of v) weightOf[t] = w;
    // Score accumulation: the indexed part of each candidate's dot product, exact; the left-out part is added
    // only for a candidate whose bound could still lift it to the threshold.
    for (const { t, w } of v) {
      const list = index[t]!;
      for (let k = 0; k < list.length; k += 2) {
        const j = list[k]!;
        if (partial[j] === 0) touched.push(j);
        partial[j]! += w * list[k + 1]!;
      }
    }
    for (const j of touched) {
      let dot = partial[j]!;
      partial[j] = 0;
      if (dot + leftOut[j]! < threshold) continue;
      for (const { t, w } of left[j]!) dot += w * weightOf[t]!;
      if (dot >= threshold) out.push(j < i ? { i: j, j: i, similarity: dot } : { i, j, similarity: dot });
    }
    touched.length = 0;
    for (const { t } of v) weightOf[t] = 0;
    indexVector(i, v);
  }
  return out;

  // Two bounds on what the left-out terms add to a dot product with a later vector: their weights times the
  // largest weight a later vector can give them, and (Cauchy–Schwarz, L2AP) their length, the other vector's
  // being 1. Common terms first; a term is indexed once the smaller bound would reach the threshold.
  function indexVector(i: number, v: readonly { t: number; w: number }[]): void {
    let byWeight = 0;
    let squares = 0;
    for (const { t, w } of [...v].sort((a, b) => df[b.t]! - df[a.t]! || a.t - b.t)) {
      const nextByWeight = byWeight + w * Math.min(maxWeight[t]!, largest[i]!);
      if (Math.min(nextByWeight, Math.sqrt(squares + w * w)) < threshold) {
        byWeight = nextByWeight;
        squares += w * w;
        left[i]!.push({ t, w });
      } else index[t]!.push(i, w);
    }
    leftOut[i] = Math.min(byWeight, Math.sqrt(squares));
  }
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
