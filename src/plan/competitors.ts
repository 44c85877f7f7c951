/**
 * Competitor prompts on a budget. A changed description can steal prompts meant for other skills; every other
 * skill's should-fire prompt is a cross-skill negative of the changed skill, and in a 30-skill catalogue running
 * them all is 290 queries per arm. They are ranked by how likely the new description is to win them, with the
 * offline lexical router as a cheap proxy, and only the top `maxPrompts` run (the base config's
 * `competitors.maxPrompts`). Sequential confirmation then escalates only where head and base differ.
 */
import { bm25Scorer, buildIndex } from "../detect/lexical-router.js";
import type { CatalogueEntry } from "../model/index.js";
import type { IndexedTriggerQuery } from "../model/suite.js";

/** One candidate with the lexical figures that ranked it (reported in `plan`). */
export interface RankedCompetitor {
  query: IndexedTriggerQuery;
  /** BM25 score of the changed skill for the prompt, with the head catalogue. */
  score: number;
  /** That score minus the best score of any other skill: > 0 when the proxy routes the prompt to the changed skill. */
  margin: number;
}

/**
 * Ranks the cross-skill negatives of `skill` (other skills' should-fire prompts) by how likely `catalogue`'s
 * description of `skill` is to steal them: the lexical margin of `skill` over the best other skill first, then its
 * score; ties by owner and position, so the order never depends on input order.
 */
export function rankCompetitorPrompts(
  skill: string,
  catalogue: readonly CatalogueEntry[],
  candidates: readonly IndexedTriggerQuery[],
): RankedCompetitor[] {
  const index = buildIndex(catalogue);
  const scorer = bm25Scorer(index);
  const self = index.names.indexOf(skill);
  // Only documents sharing a term with the prompt score above 0 (`bm25Scorer`); the rest count as 0, as before.
  const ranked = candidates.map((query): RankedCompetitor => {
    let score = 0;
    let others = 0;
    scorer(query.prompt, (i, s) => {
      if (i === self) score = s;
      else if (s > others) others = s;
    });
    return { query, score, margin: score - others };
  });
  return ranked.sort(
    (a, b) =>
      b.margin - a.margin ||
      b.score - a.score ||
      (a.query.fromSkill ?? "").localeCompare(b.query.fromSkill ?? "") ||
      a.query.index - b.query.index,
  );
}

/** The top `max` competitor prompts (all of them when `max` is undefined: sweeps run the whole catalogue). */
export function selectCompetitorPrompts(
  skill: string,
  catalogue: readonly CatalogueEntry[],
  candidates: readonly IndexedTriggerQuery[],
  max: number | undefined,
): IndexedTriggerQuery[] {
  if (max === undefined || candidates.length <= max) return [...candidates];
  return rankCompetitorPrompts(skill, catalogue, candidates)
    .slice(0, max)
    .map((r) => r.query);
}

/**
 * The `max` case prompts a changed description is likeliest to lose (all when `max` is undefined): ranked by the
 * lexical margin of `skill` over the best other skill in `catalogue` (the head's), lowest first, so a description
 * rewritten away from its tasks, or outbid by another skill, is probed where it is weakest; ties by case order.
 */
export function selectCasePrompts(
  skill: string,
  catalogue: readonly CatalogueEntry[],
  queries: readonly IndexedTriggerQuery[],
  max: number | undefined,
): IndexedTriggerQuery[] {
  if (max === undefined || queries.length <= max) return [...queries];
  return rankCompetitorPrompts(skill, catalogue, queries)
    .sort((a, b) => a.margin - b.margin || a.query.index - b.query.index)
    .slice(0, max)
    .map((r) => r.query);
}
