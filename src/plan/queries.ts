/**
 * Which prompts a trigger battery routes: a skill's own trigger set, case prompts standing in as should-fire
 * queries, other skills' should-fire prompts as cross-skill negatives, and the stable check id of each.
 */
import type { Case, IndexedTriggerQuery, TriggerSet } from "../model/suite.js";

/** What a catalogue entry needs for its should-fire prompts: its trigger set, else its cases. */
export interface ShouldFireSource {
  name: string;
  trigger?: TriggerSet | undefined;
  cases?: readonly Pick<Case, "id" | "prompt" | "loc">[] | undefined;
}

/** The queries of one skill's trigger set, in order, with their ids. */
export function triggerQueries(set: TriggerSet): IndexedTriggerQuery[] {
  return [
    ...set.shouldFire.map((q, index) => ({ ...q, shouldFire: true, index })),
    ...set.shouldNotFire.map((q, index) => ({ ...q, shouldFire: false, index })),
  ];
}

/**
 * The prompts a skill is meant to win: its should-fire trigger prompts; a skill with none has its case prompts
 * (each case is a task the skill exists for, so a natural should-fire query), marked with their case ids.
 */
export function shouldFirePrompts(s: ShouldFireSource): IndexedTriggerQuery[] {
  if (s.trigger?.shouldFire.length)
    return s.trigger.shouldFire.map((q, index) => ({ ...q, shouldFire: true, index }));
  return casePromptQueries(s.cases ?? []);
}

/** Case prompts as should-fire queries, in case order. */
export function casePromptQueries(
  cases: readonly Pick<Case, "id" | "prompt" | "loc">[],
): IndexedTriggerQuery[] {
  return cases.map((c, index) => ({
    prompt: c.prompt,
    weight: 1,
    loc: c.loc,
    shouldFire: true,
    index,
    fromCase: c.id,
  }));
}

/** Extra negatives for `skill`: every other skill's should-fire prompts (`shouldFirePrompts`). */
export function crossSkillQueries(
  skill: string,
  catalogue: readonly ShouldFireSource[],
): IndexedTriggerQuery[] {
  return catalogue
    .filter((s) => s.name !== skill)
    .flatMap((s) => shouldFirePrompts(s).map((q) => ({ ...q, shouldFire: false, fromSkill: s.name })));
}

/**
 * `trigger/fire/<n>`, `trigger/nofire/<n>`, `trigger/case/<case-id>` for a case prompt run as a should-fire query,
 * `trigger/cross/<other-skill>/<n>` (or `…/case/<case-id>`) for cross-skill negatives.
 */
export function triggerCheckId(q: IndexedTriggerQuery): string {
  if (q.fromSkill)
    return `trigger/cross/${q.fromSkill}/${q.fromCase !== undefined ? `case/${q.fromCase}` : q.index}`;
  if (q.fromCase !== undefined) return `trigger/case/${q.fromCase}`;
  return `trigger/${q.shouldFire ? "fire" : "nofire"}/${q.index}`;
}
