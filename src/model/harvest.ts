import type { Forecast, RateWithInterval } from "./report.js";
import type { TrialMode } from "./trial.js";

/**
 * `skillgate harvest` (seeds/003, "Where it falls down"): unguided baseline trials on a skill's tasks, their
 * answers clustered, and discriminators proposed from what actually went wrong, as a reviewable suite patch.
 */

/** One trial shown as evidence: what it answered and which tools it called. */
export interface HarvestExample {
  mode: TrialMode;
  trial: number;
  /** The output, cut to a few hundred characters. */
  output: string;
  tools: string[];
}

/**
 * Trials giving the same answer under one feature: an extractor (`first-number`, `last-line`, `json`,
 * `json:<key>`), `tools` (the sequence of tool names), `files` (the paths written) or `check:<assertion id>` (a
 * suite check that failed, with its failing gate invariants in `value`).
 */
export interface AnswerCluster {
  feature: string;
  /** The answer, normalised (trimmed, spaces collapsed, JSON canonical). */
  value: string;
  baseline: number;
  skill: number;
  /** Judged wrong: given by failing trials only, or by the baseline and (nearly) never with the skill. */
  wrong: boolean;
  example: HarvestExample;
}

export type ProposalKind =
  | "not-one-of"
  | "tool-not-called"
  | "tool-order"
  | "tool-called"
  | "mark-discriminator";

/** A discriminator harvest proposes for a case, with what it measured on the trials it ran. */
export interface HarvestProposal {
  caseId: string;
  kind: ProposalKind;
  /** The assertion as it would be written in the suite (for `mark-discriminator`: the existing one, marked). */
  assertion: Record<string, unknown>;
  /** Why: the wrong answers it forbids and how often the baseline gave them. */
  rationale: string;
  /** Share of baseline trials the proposed assertion fails (the higher, the more it discriminates). */
  baselineFailure: RateWithInterval;
  /** Share of skill trials it passes (absent when no skill trial ran). */
  skillPass?: RateWithInterval;
  /** Where the patch puts it (repository-relative). */
  file: string;
  example?: HarvestExample;
}

export interface HarvestCase {
  id: string;
  prompt: string;
  trials: { baseline: number; skill: number; errored: number };
  clusters: AnswerCluster[];
  proposals: HarvestProposal[];
  /** Why nothing was proposed, or what the figures cannot say. */
  notes: string[];
}

export interface HarvestSkill {
  name: string;
  /** Where the tasks came from: the suite folder, or the prompts file. */
  source: string;
  cases: HarvestCase[];
  errors: string[];
}

export interface HarvestReport {
  tool: { name: "skillgate"; version: string };
  seed: number;
  agent: { adapter: string; identity: string };
  trials: number;
  withSkill: boolean;
  thresholds: { minBaselineFailure: number; minSkillPass: number; minShare: number };
  forecast: Forecast;
  skills: HarvestSkill[];
  cost: { usd: number; agentCalls: number; cacheHits: number };
  /** Set when nothing ran (over budget) or a run-level error stopped it. */
  errors: string[];
  /** The files the patch writes (repository-relative), when one was made. */
  patchFiles?: string[];
}
