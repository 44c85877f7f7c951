/**
 * The suite the verdict figures are measured on (DESIGN.md § Verdict), shared by the in-process simulation
 * (`bench/verdict.ts`) and the end-to-end measurement through the CLI (`bench/verdict-e2e.ts`): ten cases of one
 * assertion each with known pass probabilities, and a trigger battery of six should-fire and four should-not-fire
 * queries with known firing probabilities. Regression PRs change one unit: an assertion 0.9 → 0.5, or a
 * should-fire query 1.0 → 0.3.
 */

/** Pass probability of case i's one assertion. */
export const CASE_PASS = [1, 1, 1, 1, 0.95, 0.95, 0.95, 0.9, 0.9, 0.7] as const;
/** Firing probability of should-fire query i (a miss is its failure). */
export const FIRE_PROB = [1, 1, 1, 1, 0.9, 0.9] as const;
/** Firing probability of should-not-fire query i (firing is its failure). */
export const NOFIRE_PROB = [0, 0, 0, 0.1] as const;

/** First batch: trials per case (the suite's meta.json) and runs per trigger query (the config's default). */
export const START_TRIALS = 5;
export const TRIGGER_RUNS = 3;

/** `smaller`: the same assertion 0.9 → 0.6, a rise below the futility effect (0.4): what the design gives up. */
export type Scenario = "aa" | "assertion" | "trigger" | "smaller";

/** The unit a regression PR changes, and how. */
export const REGRESSION = {
  assertion: { index: 7, from: 0.9, to: 0.5 },
  trigger: { index: 0, from: 1, to: 0.3 },
  smaller: { index: 7, from: 0.9, to: 0.6 },
} as const;

export const caseId = (i: number): string => `case-${i}`;
export const caseCheckId = (i: number): string => `${caseId(i)}/answer`;
export const fireCheckId = (i: number): string => `trigger/fire/${i}`;
export const nofireCheckId = (i: number): string => `trigger/nofire/${i}`;

/** The check a regression PR should name new. */
export function regressedCheckId(s: Scenario): string | undefined {
  if (s === "assertion") return caseCheckId(REGRESSION.assertion.index);
  if (s === "smaller") return caseCheckId(REGRESSION.smaller.index);
  if (s === "trigger") return fireCheckId(REGRESSION.trigger.index);
  return undefined;
}

/** Probabilities of one arm: the base's, or the head's of a scenario. */
export function armProbabilities(s: Scenario | "base"): {
  cases: number[];
  fire: number[];
  nofire: number[];
} {
  const cases: number[] = [...CASE_PASS];
  const fire: number[] = [...FIRE_PROB];
  if (s === "assertion") cases[REGRESSION.assertion.index] = REGRESSION.assertion.to;
  if (s === "smaller") cases[REGRESSION.smaller.index] = REGRESSION.smaller.to;
  if (s === "trigger") fire[REGRESSION.trigger.index] = REGRESSION.trigger.to;
  return { cases, fire, nofire: [...NOFIRE_PROB] };
}

/** A rate and the half-width of its 95 % Wilson interval (the larger side), both rounded. */
export function rateWithHalfWidth(successes: number, n: number): { rate: number; halfWidth: number } {
  if (n === 0) return { rate: 0, halfWidth: 1 };
  const z = 1.959964;
  const p = successes / n;
  const denom = 1 + (z * z) / n;
  const centre = (p + (z * z) / (2 * n)) / denom;
  const half = (z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n))) / denom;
  const hw = Math.max(centre + half - p, p - (centre - half));
  return { rate: Number(p.toFixed(4)), halfWidth: Number(hw.toFixed(4)) };
}
