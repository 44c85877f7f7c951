import type { SourceLocation } from "./diagnostics.js";
import type { CheckLevel } from "./suite.js";
import type { TrialMode } from "./trial.js";

/** What evaluating one assertion on one trial produced. */
export interface AssertionOutcome {
  pass: boolean;
  /** Human sentence: what was expected, what was seen. Always set, pass or fail. */
  message: string;
  expected?: string;
  actual?: string;
  /** Judge evidence, matched trace calls, gate check ids … */
  evidence?: string;
  /** The assertion could not be evaluated (oracle failed, gate crashed, judge unavailable): never a pass. */
  error?: boolean;
  /** Extra structured data (gate JSON, judge grading) kept in the report. */
  details?: Record<string, unknown>;
  /** Nothing to test was found (no number, no JSON, file missing): fails whether or not the assertion is negated. */
  missingValue?: boolean;
}

export type CheckStatus = "pass" | "fail" | "error" | "skipped";

/** The skip reason of a check whose `condition` is false: it did not apply (no failure, no observation). */
export const CONDITION_FALSE = "condition false";

/**
 * One check on one trial: an assertion of a case, a trigger query, or an implicit check
 * (`trial-ok`, `skill-registered`, `module-loads`). Check ids are stable across head and base so they can be
 * compared: `<caseId>/<assertionId>` for assertions, `trigger/<fire|nofire>/<n>` for trigger queries.
 */
export interface CheckResult {
  checkId: string;
  skill: string;
  caseId: string;
  assertionId: string;
  mode: TrialMode;
  trial: number;
  status: CheckStatus;
  discriminator: boolean;
  /** What the check looks at; absent for implicit checks (`trial-ok`) and trigger queries. */
  level?: CheckLevel;
  message: string;
  expected?: string;
  actual?: string;
  evidence?: string;
  details?: Record<string, unknown>;
  /** Check ids this one depends on (explicit `depends_on` plus implicit edges). */
  dependsOn: string[];
  loc: SourceLocation;
  /** Why it was skipped (`condition false`, `dependency failed: x`). */
  skipReason?: string;
}
