import type { VerdictPolicy } from "../model/index.js";

/**
 * Defaults of the verdict policy (the settings stage applies them; `bench/verdict.ts` measures them).
 * α is per PR (family-wise); 55 extra trials per arm lets a suspect grow from 5 to 60 trials.
 */
export const DEFAULT_VERDICT_POLICY: Readonly<VerdictPolicy> = Object.freeze({
  alpha: 0.01,
  inconclusive: "fail",
  preExisting: "report",
  maxConfirmationTrials: 55,
  headOnly: "fail",
});

/**
 * Each confirmation look grows a suspect's head arm by this factor, at least one trial (5, 6, 8, 10, 12, 15, 18, 22,
 * 27, 33, 40, 48, 58, 60). Frequent small looks stop sooner either way: with Bonferroni over the looks that can
 * reach their threshold, one assertion 0.9 → 0.5 measured 91.4 % power at 7.95 head trials per case for ×1.2,
 * 91.8 % at 8.29 for ×1.4 and 89.8 % at 7.83 for ×1.1 (`npm run bench -- --only verdict --verdict-prs 3000`,
 * seed 20261201, 2026-12-01); each look is one more round of agent runs, in wall time.
 */
export const CONFIRMATION_GROWTH = 1.2;

/**
 * Base trials per head trial in a confirmation look: a suspect's base arm grows this many times faster than its
 * head arm (5 → 9 → 17 … while head goes 5 → 6 → 8 …). The head arm is the one in question; a well-measured base
 * rate makes each head trial worth more (one assertion 0.9 → 0.5: ~0.20 nats of evidence per head trial against an
 * equal base arm, ~0.36 against four base trials per head trial, ≤ 0.51 against a known base rate). Base trials
 * of main's own runs are cache hits; the rest are agent calls like any other (`bench/verdict-e2e.ts` counts both).
 */
export const BASE_TRIALS_PER_HEAD_TRIAL = 4;

/**
 * Futility (Wald's lower boundary): a suspect is decided "not new" once its head trials favour "head fails as
 * often as base" over "head fails `FUTILITY_EFFECT` more often than base" by `1 / FUTILITY_RATIO` to 1 (the base
 * rate estimated from the base trials, with half a failure and half a pass added). Stopping early can only lower
 * the chance of a false "new"; it costs power only against rises smaller than the effect. At the last look, a
 * suspect whose head trials favour the rise by as much is `inconclusive`, otherwise not new.
 */
export const FUTILITY_EFFECT = 0.4;
export const FUTILITY_RATIO = 0.1;

/**
 * Wald's ratio cannot settle a check that fails (nearly) always in both arms: with a base rate near 1 a rise of
 * `FUTILITY_EFFECT` is out of reach, every head failure then counts a little for the rise, and such a suspect ran
 * the whole confirmation budget (the demo's pre-existing `last-line-is-cents`: 58 head and 223 base trials, 275
 * agent calls, to conclude what 10 trials show). So a suspect whose head arm fails at most as often as its base
 * arm, with at least this many trials in each, is not new either.
 */
export const FUTILITY_MIN_TRIALS = 10;
