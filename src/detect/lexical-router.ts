/**
 * The offline `lexical` router: BM25 over each skill's name + description. A PROXY for dry runs and for spotting
 * near-duplicate descriptions; a real agent's router reads meaning, this one counts words.
 */
import type { CatalogueEntry } from "../model/skill.js";

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
