/**
 * What the root decision records and exchanges: one decision per head root, and the confirmation requests and
 * batches the pipeline runs for it (new-roots.ts).
 */
import type { CheckLevel, CheckResult, RootStatus, SourceLocation, TrialMode } from "../model/index.js";

export interface RootDecision {
  /** `skill|mode|checkId`. */
  key: string;
  skill: string;
  checkId: string;
  mode: TrialMode;
  status: RootStatus;
  head: { failed: number; trials: number };
  base?: { failed: number; trials: number };
  pValue?: number;
  /** The rejection threshold α/(m·K) this root was held to. */
  threshold?: number;
  /** m: checks in the family the α is shared over. */
  familySize: number;
  /** K: looks that spend α. */
  looks: number;
  /** Confirmation trials per arm added for this root. */
  confirmationTrials: number;
  /** Why confirmation could not settle it (for `inconclusive`). */
  undecidedBecause?: "no-confirmation" | "max-trials" | "confirmation-error";
  /** One sentence: counts, p-value, threshold, decision. */
  reason: string;
  cascaded: string[];
  loc: SourceLocation;
  /** The head failure message (first failed trial). */
  message: string;
  discriminator: boolean;
  /** What the check looks at (assertion roots). */
  level?: CheckLevel;
  /** Every failed head trial of this root was an `error` (could not be evaluated), none a plain failure. */
  errorOnly: boolean;
}

/** A root the decider needs more trials of. */
export interface RootRef {
  key: string;
  skill: string;
  mode: TrialMode;
  checkId: string;
  /** The case (or trigger query) whose trials observe it. */
  caseId: string;
}

/** A suspect of a confirmation request: the trials to add to each arm of its case (or trigger query). */
export interface ConfirmationRoot extends RootRef {
  extraTrials: { head: number; base: number };
}

/** What the decider asks the pipeline to run next for one unit: more trials of its suspects, in both arms. */
export interface ConfirmationRequest {
  /** The unit (`skill|mode|case or query id`) whose trials these are. */
  unit: string;
  /** 1-based index of the look these trials feed (the first batch is look 1). */
  look: number;
  /** Each suspect with the trials to add to it per arm (the base arm kept ahead: `BASE_TRIALS_PER_HEAD_TRIAL`). */
  roots: ConfirmationRoot[];
}

/** The unit whose trials observe a root: its case, or its trigger query (a trigger check's id is its query's). */
export function unitOfRoot(r: Pick<RootRef, "skill" | "mode" | "checkId" | "caseId">): string {
  return `${r.skill}|${r.mode}|${r.mode === "trigger" ? r.checkId : r.caseId}`;
}

/** The graded checks of one confirmation batch, per arm. */
export interface ConfirmationBatch {
  head: CheckResult[];
  base: CheckResult[];
}

/** A stand-in for the pipeline's confirmation stage (tests and the verdict bench): one request's suspects. */
export type ConfirmFn = (roots: ConfirmationRoot[]) => Promise<ConfirmationBatch>;
