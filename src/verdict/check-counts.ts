/** A check's counts as the root decision's test reads them: the modes compared, failures and observations. */
import type { CheckTally } from "../attribute/roots.js";
import type { CheckResult, TrialMode } from "../model/index.js";

export interface Counts {
  headFailed: number;
  headTrials: number;
  baseFailed: number;
  baseTrials: number;
}

/** Modes compared head vs base. Baseline trials run without the skill: their failures are the point. */
const comparedModes: ReadonlySet<TrialMode> = new Set<TrialMode>(["skill", "trigger"]);

export const compared = (checks: CheckResult[]): CheckResult[] =>
  checks.filter((c) => comparedModes.has(c.mode));

export const tallyMap = (checks: CheckTally[]): Map<string, CheckTally> =>
  new Map(checks.map((t) => [t.key, t]));

/** Failures and observations that count for the test: an error is neither a pass nor a failure. */
export const failedOf = (t: CheckTally | undefined): number => (t ? t.failedAsRoot - t.erroredAsRoot : 0);

export const observedOf = (t: CheckTally | undefined): number => (t ? t.observed - t.erroredAsRoot : 0);
