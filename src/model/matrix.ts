/**
 * A merged agents matrix (`skillgate merge`): each cell's verdict, the cell × skill table, effects and
 * interactions.
 */
import type { SkillChange, Verdict } from "./report.js";

/** Which cell of the matrix a report is of. */
export interface CellIdentity {
  name: string;
  adapter: string;
  identity: string;
  required: boolean;
  /** False when the cell was not evaluated (its label is not on the PR): `reason` says why. */
  selected: boolean;
  reason?: string;
}

/** One cell of a merged matrix: its verdict and totals. */
export interface MatrixCell extends CellIdentity {
  /** Absent when the cell's report is missing (then the merged verdict is `error` if it is required). */
  verdict?: Verdict;
  blockingRoots: number;
  newRoots: number;
  cost: { usd: number; agentCalls: number; cacheHits: number };
  errors: string[];
}

/**
 * The PR's effect on one skill in one cell: mean per-trial score at head minus at base. A trial's score is the
 * share of its checks that passed (skill-mode trials, the suite score of seeds/002); `low`/`high` a 95 % percentile
 * bootstrap interval (trials resampled within each case and arm).
 */
export interface CellEffect {
  head: { mean: number; trials: number };
  base: { mean: number; trials: number };
  effect: number;
  low: number;
  high: number;
}

/** One row of the cell × skill table. */
export interface MatrixEntry {
  cell: string;
  skill: string;
  verdict: Verdict;
  change: SkillChange;
  /** Discriminator pass rate with the skill, at head and at base. */
  discriminatorPassRate?: { head: number; base?: number };
  triggerF1?: { head: number; base?: number };
  newRoots: number;
  blockingRoots: number;
  /** Absent without a base arm (a sweep, a new skill) or without skill-mode trials. */
  effect?: CellEffect;
}

/**
 * Difference in differences of one skill between two cells: effect(a) − effect(b), with its bootstrap interval.
 * `flagged`: the interval excludes zero and the change helps one cell while it hurts the other.
 */
export interface CellInteraction {
  skill: string;
  a: string;
  b: string;
  difference: number;
  low: number;
  high: number;
  excludesZero: boolean;
  flagged: boolean;
  message: string;
}

export interface MatrixSummary {
  cells: MatrixCell[];
  entries: MatrixEntry[];
  interactions: CellInteraction[];
  /** How the intervals were computed: resamples, seed, interval level, the unit resampled. */
  bootstrap: { resamples: number; seed: number; level: number; unit: string };
}
