/**
 * What the settings stage applies when the base config sets nothing: the budget, the verdict policy, the prompts a
 * changed description is tested against, the judge's model. The stages that use them import them from here (a
 * default is a setting; the stage decides what to do with it).
 */
import type { AgentConfig, Budget, VerdictPolicy } from "../model/index.js";

/** Budget of a run whose base config sets none: a required check must not spend without limit. */
export const DEFAULT_BUDGET: Readonly<Required<Pick<Budget, "maxAgentCalls" | "maxUsd">>> = Object.freeze({
  maxAgentCalls: 500,
  maxUsd: 10,
});

/** Competitor prompts run per changed description when the base config sets none. */
export const DEFAULT_COMPETITOR_PROMPTS = 20;
/**
 * Case prompts run as should-fire queries per changed description of a skill with no should-fire prompts of its
 * own, when the base config sets none (`routing.casePrompts`).
 */
export const DEFAULT_CASE_PROMPTS = 10;

/**
 * Trials per case the default branch's run stores for pull requests to read as their base arm (`verdict.baseDepth`
 * in the base config). A PR's base arm takes every stored trial of a case for free, so a suspect is judged against
 * a well-measured base rate from its first look; what is not stored is run when a suspect needs it.
 */
export const DEFAULT_BASE_DEPTH = 30;

/**
 * Defaults of the verdict policy (the settings stage applies them; `bench/verdict.ts` measures them).
 * α is per PR (family-wise); 55 extra trials per arm lets a suspect grow from 5 to 60 trials.
 */
export const DEFAULT_VERDICT_POLICY: Readonly<VerdictPolicy> = Object.freeze({
  alpha: 0.01,
  // Undecided after every look (and every trial the budget allowed) is reported, not blocking: a harmless PR must
  // not fail for want of trials. The base's `verdict.inconclusive: fail` makes it block.
  inconclusive: "pass",
  preExisting: "report",
  maxConfirmationTrials: 55,
  headOnly: "fail",
  baseDepth: DEFAULT_BASE_DEPTH,
});

/** A hosted judge's model when its configuration names none. */
const DEFAULT_JUDGE_MODELS: Record<string, string> = {
  anthropic: "claude-sonnet-4-5",
  openai: "gpt-4o-mini",
};

/** The model a judge configuration grades with: its own, else its adapter's default (undefined: no such adapter). */
export function judgeModelOf(config: AgentConfig): string | undefined {
  return config.model ?? DEFAULT_JUDGE_MODELS[config.adapter];
}
