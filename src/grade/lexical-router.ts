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
}

function docText(e: CatalogueEntry): string {
  return `${e.name.replace(/[-_:]/g, " ")} ${e.description}`;
}

export function buildIndex(catalogue: readonly CatalogueEntry[]): LexicalIndex {
  const docs = catalogue.map((e) => termCounts(tokenize(docText(e))));
  const lengths = docs.map((d) => [...d.values()].reduce((a, b) => a + b, 0));
  const df = new Map<string, number>();
  for (const d of docs) for (const t of d.keys()) df.set(t, (df.get(t) ?? 0) + 1);
  const n = docs.length + LEXICAL_BACKGROUND_DOCS;
  const idf = new Map<string, number>();
  for (const [t, f] of df) idf.set(t, Math.log(1 + (n - f + 0.5) / (f + 0.5)));
  const avgLength = lengths.length ? lengths.reduce((a, b) => a + b, 0) / lengths.length : 0;
  return { names: catalogue.map((e) => e.name), docs, lengths, avgLength, idf };
}

function termCounts(tokens: string[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const t of tokens) m.set(t, (m.get(t) ?? 0) + 1);
  return m;
}

export function bm25Scores(index: LexicalIndex, query: string): { name: string; score: number }[] {
  const terms = [...new Set(tokenize(query))];
  return index.names.map((name, i) => {
    const doc = index.docs[i]!;
    const len = index.lengths[i]!;
    let score = 0;
    for (const t of terms) {
      const tf = doc.get(t);
      if (!tf) continue;
      const norm = tf + BM25_K1 * (1 - BM25_B + (BM25_B * len) / (index.avgLength || 1));
      score += (index.idf.get(t) ?? 0) * ((tf * (BM25_K1 + 1)) / norm);
    }
    return { name, score };
  });
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

/** Pairs of skills whose descriptions are near-duplicates (cosine of TF-IDF vectors), most similar first. */
export function nearDuplicateDescriptions(
  catalogue: readonly CatalogueEntry[],
  threshold = NEAR_DUPLICATE_SIMILARITY,
): { a: string; b: string; similarity: number }[] {
  const index = buildIndex(catalogue);
  // Unit TF-IDF vectors, so a cosine is a dot product.
  const vectors = index.docs.map((d) => {
    const v = new Map<string, number>();
    for (const [t, tf] of d) v.set(t, tf * (index.idf.get(t) ?? 0));
    const norm = Math.sqrt([...v.values()].reduce((a, x) => a + x * x, 0));
    for (const [t, x] of v) v.set(t, norm > 0 ? x / norm : 0);
    return v;
  });
  // All pairs without comparing all pairs (10,000 skills are 50 million): a pair reaching the threshold shares
  // a term of each one's "prefix". A vector's suffix is its most common terms whose weights, times the largest
  // weight any vector gives them, sum below the threshold: terms of the suffix alone cannot reach it.
  const maxWeight = new Map<string, number>();
  const postings = new Map<string, number[]>();
  vectors.forEach((v, i) => {
    for (const [t, x] of v) {
      if (x > (maxWeight.get(t) ?? 0)) maxWeight.set(t, x);
      const list = postings.get(t);
      if (list) list.push(i);
      else postings.set(t, [i]);
    }
  });
  const df = (t: string) => postings.get(t)?.length ?? 0;
  const out: { a: string; b: string; similarity: number }[] = [];
  vectors.forEach((v, i) => {
    // Rare terms first; the suffix grows from the common end while its bound stays under the threshold.
    const terms = [...v.keys()].sort((a, b) => df(a) - df(b) || (a < b ? -1 : 1));
    let bound = 0;
    let prefixEnd = terms.length;
    while (prefixEnd > 0) {
      const t = terms[prefixEnd - 1]!;
      const next = bound + v.get(t)! * maxWeight.get(t)!;
      if (next >= threshold) break;
      bound = next;
      prefixEnd--;
    }
    const candidates = new Set<number>();
    for (const t of terms.slice(0, prefixEnd)) for (const j of postings.get(t)!) if (j > i) candidates.add(j);
    for (const j of [...candidates].sort((a, b) => a - b)) {
      const vj = vectors[j]!;
      let dot = 0;
      for (const [t, x] of v) dot += x * (vj.get(t) ?? 0);
      if (dot >= threshold) out.push({ a: index.names[i]!, b: index.names[j]!, similarity: dot });
    }
  });
  return out.sort((x, y) => y.similarity - x.similarity);
}

/**
 * A warning at each skill's description for every near-duplicate pair: the router (any router) will struggle to
 * choose between them. Measured with the lexical proxy, and labelled so.
 */
export function nearDuplicateWarnings(
  skills: readonly Skill[],
  threshold = NEAR_DUPLICATE_SIMILARITY,
): Diagnostic[] {
  const byName = new Map(skills.map((s) => [s.name, s]));
  const out: Diagnostic[] = [];
  for (const pair of nearDuplicateDescriptions(skills, threshold)) {
    for (const [self, other] of [
      [pair.a, pair.b],
      [pair.b, pair.a],
    ] as const) {
      const s = byName.get(self)!;
      const loc = s.loc.description ?? s.loc.frontmatter;
      out.push({
        ...loc,
        severity: "warning",
        code: "skill/near-duplicate-description",
        message: `description of ${self} is a near-duplicate of ${other}'s (lexical similarity ${pair.similarity.toFixed(2)} ≥ ${threshold}, BM25 proxy): the router may pick either; make the trigger conditions distinct`,
      });
    }
  }
  return out;
}
