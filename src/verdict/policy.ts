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

/** Each confirmation look grows a suspect's arms by this factor (5, 8, 12, 18, 27, 41, 60 …). */
export const CONFIRMATION_GROWTH = 1.5;

/**
 * With at least this many trials per arm, a suspect whose p-value is ≥ `FUTILITY_P` is decided "not new":
 * the data give no sign that head fails more often. Below it, a lone head failure is "too few trials".
 */
export const FUTILITY_MIN_TRIALS = 10;
export const FUTILITY_P = 0.5;
