import { createHash } from "node:crypto";
import type { TrialMode } from "../model/index.js";

/** Bump when the meaning of a key changes, so old recordings and cache entries are never reused wrongly. */
export const TRIAL_KEY_VERSION = 1;

export interface TrialKeyInput {
  mode: TrialMode;
  /** Skill mode only: what the agent sees of the skill. */
  skillContentHash?: string;
  /** Trigger mode only: names + descriptions (+ content) of the whole installed catalogue. */
  catalogueHash?: string;
  prompt: string;
  files: { to: string; sha256: string }[];
  trial: number;
  constraints?: string[];
}

/**
 * Content key of one trial. Baseline keys leave the skill out on purpose: an unchanged case reuses its baseline
 * across skill edits. Each trial index has its own key, so repeats never share one answer.
 */
export function trialKey(input: TrialKeyInput): string {
  const canonical = {
    v: TRIAL_KEY_VERSION,
    mode: input.mode,
    skill: input.mode === "skill" ? (input.skillContentHash ?? null) : null,
    catalogue: input.mode === "trigger" ? (input.catalogueHash ?? null) : null,
    prompt: input.prompt,
    files: [...input.files].sort((a, b) => a.to.localeCompare(b.to)).map((f) => [f.to, f.sha256]),
    trial: input.trial,
    constraints: input.mode === "baseline" ? (input.constraints ?? []) : [],
  };
  return sha256(JSON.stringify(canonical));
}

/** The cache adds who answered: adapter + model + harness version. */
export function cacheKey(trialKey: string, identity: string): string {
  return sha256(`${trialKey}\0${identity}`);
}

export function sha256(data: string | Buffer): string {
  return createHash("sha256").update(data).digest("hex");
}
