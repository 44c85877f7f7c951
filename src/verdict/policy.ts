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

/** Each confirmation look grows a suspect's head arm by this factor (5, 7, 10, 14, 20, 28, 40, 56, 60). */
export const CONFIRMATION_GROWTH = 1.4;

/**
 * Base trials per head trial in a confirmation look: a suspect's base arm grows this many times faster than its
 * head arm (5 → 13 → 25 … while head goes 5 → 7 → 10 …). The head arm is the one in question; a well-measured base
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
