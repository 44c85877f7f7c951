/**
 * The group-sequential design of the root decision (new-roots.ts): head trials at each look, each look's share of
 * α, the policy's bounds, and Wald's futility ratio.
 *
 * Family-wise α across the PR (Bonferroni over checks and looks, with Tarone's refinement): the family is every
 * check observed in both arms that failed (as a root) in either arm — m of them; a check failing in neither arm
 * has a zero margin and can never reach significance, so it spends no α. Suspects are re-tested at no more than
 * four looks (the first batch and up to three confirmation rounds), a group-sequential design whose head sizes
 * are fixed from the first batch's size alone (`CONFIRMATION_LOOKS`: 5, 9, 22, 60 head trials from a first batch
 * of 5, capped at `maxConfirmationTrials` extra). The base arm starts with every trial the default branch stored
 * (`baseDepth`, free to the PR), is filled to `baseDepth` at the first confirmation look when it was not stored,
 * and kept at `BASE_TRIALS_PER_HEAD_TRIAL` times the head arm. Look k may spend the share `LOOK_ALPHA_SHARES[k]`
 * of α/m (renormalised over the looks the design has): a root is `new` when p ≤ α·share_k/m at some look k, so the
 * chance that an A/A PR shows any new root is ≤ α (measured in `bench/verdict.ts` and end to end in
 * `bench/verdict-e2e.ts`).
 *
 * Futility is Wald's: at every look, a suspect whose head trials favour "head fails as often as base" over "head
 * fails `FUTILITY_EFFECT` more often" by 1/`FUTILITY_RATIO` to 1, with `FUTILITY_MIN_BASE_TRIALS` base trials, is not new — `pre-existing` when base fails too, `not-significant`
 * when base never failed (a flake seen at head only). With at least `FUTILITY_MIN_TRIALS` trials per arm, a suspect
 * that head fails at most as often as base is not new either (Wald's ratio cannot settle a check failing nearly
 * always in both arms). Stopping for futility never raises the false-"new" rate.
 * At the last look, a suspect whose head trials favour the rise by as much is `inconclusive` (it fails the
 * check by default), any other is not new. When confirmation trials cannot run — none allowed, the budget is
 * spent, or the runner failed — a suspect that head fails proportionally more often than base is `inconclusive`.
 */
import type { VerdictPolicy } from "../model/index.js";
import type { Counts } from "./check-counts.js";
import {
  CONFIRMATION_LOOKS,
  FUTILITY_EFFECT,
  FUTILITY_MIN_BASE_TRIALS,
  FUTILITY_MIN_TRIALS,
  FUTILITY_RATIO,
  LOOK_ALPHA_SHARES,
} from "./policy.js";

/**
 * Head trials at each confirmation look (cumulative), from the first batch's head trials: `CONFIRMATION_LOOKS`
 * times it, rounded, capped at `maxExtra` more, strictly growing (a look that would add nothing is dropped).
 * E.g. 5 and 55 → 9, 22, 60; 3 and 55 → 5, 13, 36; 5 and 10 → 9, 15.
 */
export function confirmationSchedule(startTrials: number, maxExtra: number): number[] {
  const sizes: number[] = [];
  const first = Math.max(1, startTrials);
  let last = first;
  for (const factor of CONFIRMATION_LOOKS) {
    const size = Math.min(first + maxExtra, Math.max(last + 1, Math.round(first * factor)));
    if (size <= last) break;
    sizes.push(size);
    last = size;
  }
  return sizes;
}

/** The α share of each of `looks` looks: `LOOK_ALPHA_SHARES` renormalised over the looks a design has. */
export function lookAlphaShares(looks: number): number[] {
  const shares = LOOK_ALPHA_SHARES.slice(0, Math.max(1, Math.min(looks, LOOK_ALPHA_SHARES.length)));
  const total = shares.reduce((x, y) => x + y, 0);
  return shares.map((x) => x / total);
}

export const fmtP = (p: number): string =>
  p < 0.0001 ? p.toExponential(1) : String(Number(p.toPrecision(2)));

export function checkPolicy(policy: VerdictPolicy): void {
  if (!(policy.alpha > 0 && policy.alpha < 1))
    throw new RangeError(`verdict.alpha must be in (0, 1), got ${policy.alpha}`);
  if (!Number.isInteger(policy.maxConfirmationTrials) || policy.maxConfirmationTrials < 0) {
    throw new RangeError(
      `verdict.maxConfirmationTrials must be a non-negative integer, got ${policy.maxConfirmationTrials}`,
    );
  }
}

/** The odds the futility boundary asks for, as a reason states them (5 for a ratio of 0.2). */
export const ODDS = Math.round(1 / FUTILITY_RATIO);

/**
 * Wald's log likelihood ratio of the head trials: head failing at the base rate + `FUTILITY_EFFECT` against head
 * failing at the base rate, the base rate estimated from the base trials with half a failure and half a pass added
 * (so a base that never failed is not taken for one that cannot).
 */
export function futilityLogRatio(c: Counts): number {
  const b = (c.baseFailed + 0.5) / (c.baseTrials + 1);
  const a = Math.min(1 - 1e-3, b + FUTILITY_EFFECT);
  return c.headFailed * Math.log(a / b) + (c.headTrials - c.headFailed) * Math.log((1 - a) / (1 - b));
}

/** What a look concludes about a suspect: new, not new (with why), or nothing yet (another look). */
export type LookOutcome = { status: "new"; reason: string } | { notNew: string } | undefined;

/** One look at a suspect's counts: new when p is within the look's threshold, not new when the trials say futile. */
export function lookOutcome(c: Counts, p: number, threshold: number): LookOutcome {
  if (p <= threshold) return { status: "new", reason: "new (fails more often at head)" };
  if (c.baseTrials >= FUTILITY_MIN_BASE_TRIALS && futilityLogRatio(c) <= Math.log(FUTILITY_RATIO))
    return {
      notNew: `the head trials favour no rise over a rise of ${FUTILITY_EFFECT} by ${ODDS}:1 or more`,
    };
  if (
    Math.min(c.headTrials, c.baseTrials) >= FUTILITY_MIN_TRIALS &&
    c.headFailed * c.baseTrials <= c.baseFailed * c.headTrials
  )
    return { notNew: `fails at base at least as often, ${FUTILITY_MIN_TRIALS}+ trials per arm` };
  return undefined;
}

/** What ends a suspect that gets no more looks (`why`): not new, or inconclusive, with the reason. */
export function closingOutcome(
  c: Counts,
  why: "no-confirmation" | "max-trials",
): { notNew: string } | { inconclusive: string } {
  if (c.headFailed * c.baseTrials <= c.baseFailed * c.headTrials)
    return { notNew: "fails at base at least as often" };
  if (why === "no-confirmation")
    return { inconclusive: "inconclusive (too few trials to decide; no confirmation trials allowed)" };
  if (futilityLogRatio(c) >= -Math.log(FUTILITY_RATIO))
    return {
      inconclusive: `inconclusive (the head trials favour a rise of ${FUTILITY_EFFECT} by ${ODDS}:1 or more, but p stayed above the threshold; confirmation budget spent)`,
    };
  return { notNew: "not significantly more often at head after all confirmation trials" };
}
