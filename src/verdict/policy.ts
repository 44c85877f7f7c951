/**
 * The confirmation looks, as multiples of the first batch's head trials: with 5 trials a suspect's head arm is
 * looked at with 5, then 9, 22 and 60 trials (capped at the first batch plus `maxConfirmationTrials`). Every look
 * is one round of agent runs, so a PR waits at most four rounds of agent latency whatever its data; the sizes are
 * fixed before any outcome is seen (a function of the first batch's size only), which keeps the α split below
 * exact. Chosen by simulation (`npm run bench -- --only verdict`, docs/verdict.md) against more, smaller looks.
 */
export const CONFIRMATION_LOOKS: readonly number[] = [1.8, 4.4, 12];

/**
 * The share of a check's α each look may spend (Bonferroni over the looks with unequal shares: still ≤ α in all).
 * Early looks rarely have the trials to decide, so most of it is kept for the later, larger looks.
 */
export const LOOK_ALPHA_SHARES: readonly number[] = [0.05, 0.15, 0.3, 0.5];

/**
 * A suspect's base arm is kept at least this many times its head arm in confirmation looks (base trials the default
 * branch stored are free; the rest are agent calls like any other), and at the first confirmation look a case's
 * base arm is filled to `baseDepth`, so a cold PR judges with the base a warm one reads.
 */
export const BASE_TRIALS_PER_HEAD_TRIAL = 1.5;

/**
 * Futility (Wald's lower boundary): a suspect is decided "not new" once its head trials favour "head fails as
 * often as base" over "head fails `FUTILITY_EFFECT` more often than base" by `1 / FUTILITY_RATIO` to 1 (the base
 * rate estimated from the base trials, with half a failure and half a pass added), with at least
 * `FUTILITY_MIN_BASE_TRIALS` base trials (five base trials estimate the base rate too poorly: one failure among
 * them stopped a tenth of regressed cases). Stopping early can only lower the chance of a false "new"; it costs
 * power only against rises smaller than the effect. At the last look, a suspect whose head trials favour the rise
 * by as much is `inconclusive`, otherwise not new.
 */
export const FUTILITY_EFFECT = 0.4;
export const FUTILITY_RATIO = 0.2;
export const FUTILITY_MIN_BASE_TRIALS = 10;

/**
 * Wald's ratio cannot settle a check that fails (nearly) always in both arms: with a base rate near 1 a rise of
 * `FUTILITY_EFFECT` is out of reach, every head failure then counts a little for the rise, and such a suspect ran
 * the whole confirmation budget (the demo's pre-existing `last-line-is-cents`: 58 head and 223 base trials, 275
 * agent calls, to conclude what 10 trials show). So a suspect whose head arm fails at most as often as its base
 * arm, with at least this many trials in each, is not new either.
 */
export const FUTILITY_MIN_TRIALS = 10;
