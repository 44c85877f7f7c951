/**
 * The batteries' figures in a skill's report: pass rates with intervals, lift, per-assertion classes, trigger
 * precision and recall, levels.
 */
import type { CheckLevel } from "./suite.js";

export interface RateWithInterval {
  passed: number;
  total: number;
  rate: number;
  /** Wilson 95 % interval. */
  low: number;
  high: number;
}

/**
 * A battery figure with one vote per case or query (`src/grade/unit-rates.ts`): the mean of each unit's own rate
 * (precision: the should-fire queries' share of the fire rates), with a 95 % interval that holds whatever number of
 * trials each unit had (Hoeffding).
 */
export interface UnitRate {
  rate: number;
  low: number;
  high: number;
  /** Units (cases, queries) behind the figure. */
  units: number;
  /** A mean's units whose own rate is at least one half ("recall 5/6 queries"). */
  passing?: number;
  /** Trials behind the units. */
  trials: number;
  unit: "case" | "query";
  /** False when no unit was measured (precision: nothing ever fired); `rate` is then a stand-in. */
  measured: boolean;
}

export interface ModeSummary {
  trials: number;
  errors: number;
  /** Per case: the share of its counted checks that passed in its trials. */
  passRate: UnitRate;
  /** Per case with discriminator assertions: the share of them that passed in its trials. */
  discriminatorPassRate: UnitRate;
}

/**
 * One case's trials in one mode: `total` trials with a counted check (`all`) or a discriminator check
 * (`discriminator`); `passed` the sum over those trials of the share of such checks that passed.
 */
export interface CaseCounts {
  caseId: string;
  all: { passed: number; total: number };
  discriminator: { passed: number; total: number };
}

export type AssertionClass = "discriminating" | "non-discriminating" | "broken" | "skill-hurts" | "flaky";

export interface AssertionResult {
  id: string;
  caseId: string;
  checkId: string;
  discriminator: boolean;
  class: AssertionClass;
  skill: RateWithInterval;
  baseline?: RateWithInterval;
  file: string;
  line: number;
  /** One failure message (first failing trial), for the report. */
  sampleFailure?: string;
}

/**
 * Outcome vs final-state vs process (seeds/002 §7): "175 of 240 runs passed every final numerical check, and 162 of
 * those still had a deviation". A run is one trial of one case in one mode; runs whose trial errored are left out
 * (`erroredRuns`). A run passes a level when none of its checks of that level failed, errored or was skipped
 * because a dependency failed (a case with no check of a level passes it vacuously: `checks` says how many there
 * are). In the rates below `passed` is the count of runs the row describes, `total` the runs it is a share of.
 */
export interface LevelDecomposition {
  mode: "skill" | "baseline";
  runs: number;
  erroredRuns: number;
  /** Distinct check ids per level among these runs. */
  checks: Record<CheckLevel, number>;
  /** Runs failing at least one check of the level. */
  failedRuns: Record<CheckLevel, number>;
  /** Runs passing every outcome check, of all runs. */
  outcomePass: RateWithInterval;
  /** Of the runs passing every outcome check: those failing a final-state check. */
  outcomePassFinalStateFail: RateWithInterval;
  /** Of the runs passing every outcome check: those failing a process check. */
  outcomePassProcessFail: RateWithInterval;
  /** Of the runs passing every outcome check: those failing any other check (the paper's 162/175). */
  outcomePassAnyDeviation: RateWithInterval;
  /** Runs passing every outcome and final-state check, of all runs. */
  finalStatePass: RateWithInterval;
  /** Of the runs passing every outcome and final-state check: those failing a process check (the paper's 151/164). */
  finalStatePassProcessFail: RateWithInterval;
}

export interface DiscriminatorSummary {
  skill: ModeSummary;
  baseline: ModeSummary;
  /** Per case measured in both modes: the mean of its skill rate minus its baseline rate. */
  lift: number;
  discriminatorLift: number;
  /** `discriminatorLift` with its 95 % interval, when discriminator assertions were graded in both modes. */
  discriminatorLiftRate?: UnitRate;
  /** Each case's counts per mode: the units every figure above is computed from. */
  cases: { skill: CaseCounts[]; baseline: CaseCounts[] };
  /** Overall lift positive, discriminator lift not: "style guide, not a guardrail". */
  styleGuideNotGuardrail: boolean;
  assertions: AssertionResult[];
  /** What the figures cannot say, e.g. "no discriminator assertions: discriminator lift not measured". */
  warnings?: string[];
}

export interface TriggerQueryResult {
  checkId: string;
  prompt: string;
  shouldFire: boolean;
  runs: number;
  fired: number;
  rate: number;
  /** The query's weight in the figures (waza `medium` confidence: 0.5). */
  weight?: number;
  /** Query-level decision at threshold 0.5. */
  passed: boolean;
  /** Other skills that fired on this prompt. */
  firedOthers: Record<string, number>;
  file: string;
  line: number;
}

export interface TriggerSummary {
  /** Router that produced the figures: the real agent, or the `lexical` proxy (clearly labelled). */
  router: string;
  proxy: boolean;
  /** Every figure counts each query once, its rate from its own runs (`queries`). */
  precision: UnitRate;
  recall: UnitRate;
  f1: number;
  accuracy: UnitRate;
  queries: TriggerQueryResult[];
  warnings: string[];
}

export interface TriggerConfusion {
  labels: string[];
  counts: Record<string, Record<string, number>>;
  /**
   * For the row of prompts that should fire no particular skill (`(none)`: a skill's should-not-fire prompts), the
   * skills those prompts must not fire: firing any other skill there is not a routing error.
   */
  notFor?: Record<string, string[]>;
}
