import type { Observation } from "./observe.js";

/**
 * `skill`: only the skill under test is installed. `baseline`: no skill of the repository is installed and the
 * constraint block is given. `trigger`: the whole catalogue is installed and we observe which skill fires.
 */
export type TrialMode = "skill" | "baseline" | "trigger";

export type TrialErrorKind =
  | "timeout"
  | "crash"
  | "rate-limit"
  | "protocol"
  | "unregistered-skill"
  | "contaminated"
  | "budget";

export interface TrialError {
  kind: TrialErrorKind;
  message: string;
  /** Transient faults (429, 5xx, overloaded, network, timeout) may be retried by the runner. */
  transient?: boolean;
  /** For `contaminated`: the tool call that touched a skill path. */
  offendingCall?: ToolCall;
}

export interface ToolCall {
  name: string;
  input: unknown;
  output?: string;
  isError?: boolean;
  /** 0-based assistant turn in which the call was made. */
  turn: number;
}

export interface Usage {
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
  /** The model's price is not known (no configured pricing, not a listed model): `costUsd` 0 is not "free". */
  costUnknown?: boolean;
}

/** What the runner asks an adapter to do. Everything that decides the outcome is in here (and in `cacheKey`). */
export interface TrialRequest {
  /** Content key of (skill content, prompt, files, mode, trial[, catalogue]): see `trialKey`. */
  key: string;
  /** The skill under test, by the name the agent knows it (a copy's run name is `<this>@<folder>`). */
  skill: string;
  /** Case id for skill/baseline trials; `trigger:<n>` for trigger queries. */
  caseId: string;
  mode: TrialMode;
  /** 0-based trial index; each trial has its own key so repeats never share an answer. */
  trial: number;
  prompt: string;
  /** Files to place in the workspace: workspace-relative path → absolute source path. */
  files: { to: string; from: string }[];
  /** Skills to install: the skill under test (skill), none (baseline), or the catalogue (trigger). */
  install: InstalledSkill[];
  /** Baseline constraint block, given to the agent as system context. */
  constraints?: string[];
  /** Seed handed to the agent (SKILLGATE_SEED). */
  seed: number;
}

export interface InstalledSkill {
  name: string;
  description: string;
  /** Absolute path of the skill folder in the checkout; installers copy it without `evals/`. */
  sourceDir: string;
  /** Relative file list of the skill (never `evals/`). */
  files: string[];
  contentHash: string;
}

/** One trial's outcome, whatever the harness. An `error` is never graded as a pass. */
export interface TrialRecord {
  key: string;
  skill: string;
  caseId: string;
  mode: TrialMode;
  trial: number;
  output: string;
  toolCalls: ToolCall[];
  /** Skills the harness reported as available (Claude Code `system/init.skills`); undefined when unknown. */
  skillsRegistered?: string[];
  skillsActivated: string[];
  /** Text files the agent wrote in its workspace (workspace-relative path → content, capped). */
  files: Record<string, string>;
  usage: Usage;
  durationMs: number;
  error?: TrialError;
  /** Served from cache or a recording: no agent call was made. */
  cached?: boolean;
  /** Notes such as "output capped at 1 MiB". */
  notes?: string[];
  /** Live agent calls this trial took (retries included); absent for cached and replayed trials. */
  attempts?: number;
  /** What its processes were seen doing (agents that run processes); absent when nothing ran a process. */
  observed?: Observation;
}

export const ZERO_USAGE: Usage = Object.freeze({ inputTokens: 0, outputTokens: 0, costUsd: 0 });

/**
 * An error-recovery probe's trial that failed its first attempt: the agent was given its own output, files and the
 * failing checks back, up to three rounds (seeds/001, dimension 4). `fixedAt`: the round whose attempt passed.
 */
export interface RecoveryTrial {
  skill: string;
  caseId: string;
  trial: number;
  rounds: { round: number; passed: boolean; key: string; regressions: number; error?: string }[];
  fixedAt?: number;
}
