import type { AgentConfig } from "./agent.js";
import type { ValidationProfile } from "./skill.js";
import type { Thresholds } from "./suite.js";

export interface Budget {
  maxUsd?: number;
  maxTokens?: number;
  maxAgentCalls?: number;
}

export interface VerdictPolicy {
  /** Per-PR family-wise α for "new root" decisions. */
  alpha: number;
  /** What an undecided root does to the verdict. Default `fail` (fail-closed). */
  inconclusive: "fail" | "pass";
  /** Whether roots failing at base too block. Default `report` (not blocking). */
  preExisting: "report" | "fail";
  /** Extra trials per arm allowed for confirming suspects. */
  maxConfirmationTrials: number;
  /** Accept suite weakening (set by a `skillgate: allow-suite-change` trailer or a PR label). */
  allowSuiteChange: boolean;
  /** Whether roots with no base to compare (new skill, sweep) block. Default `fail` (fail-closed). */
  headOnly?: "fail" | "report";
}

/** `.skillgate.yml`, validated. Everything optional; defaults applied in `resolveSettings`. */
export interface SkillgateConfig {
  agent?: AgentConfig;
  judge?: AgentConfig;
  skills?: { globs?: string[]; include?: string[]; exclude?: string[] };
  profile?: ValidationProfile;
  trials?: number;
  triggerRuns?: number;
  concurrency?: number;
  timeoutSeconds?: number;
  budget?: Budget;
  thresholds?: Thresholds;
  verdict?: Partial<VerdictPolicy>;
  gates?: Record<string, Record<string, unknown>>;
  env?: string[];
  cache?: { enabled?: boolean; dir?: string };
}

export type BaseSource =
  | { kind: "ref"; ref: string }
  | { kind: "dir"; dir: string }
  | { kind: "report"; file: string };

/** Parsed once from CLI flags or action inputs plus `.skillgate.yml`; every stage reads only this. */
export interface Settings {
  /** Absolute path of the repository (head). */
  repoDir: string;
  configFile?: string;
  config: SkillgateConfig;
  base?: BaseSource;
  /** Only skills whose name or path matches (sweeps, `--skills`). */
  skillsFilter?: string;
  agent: AgentConfig;
  judge?: AgentConfig;
  profile: ValidationProfile;
  trials: number;
  triggerRuns: number;
  concurrency: number;
  timeoutMs: number;
  shard?: { index: number; total: number };
  cache: { enabled: boolean; dir: string };
  budget: Budget;
  thresholds: Thresholds;
  verdict: VerdictPolicy;
  seed: number;
  /** Changed files when known (from the PR API or git); undefined means "evaluate every skill". */
  changedFiles?: string[];
  /** `exports`: folder for skill-creator-compatible benchmark.json / grading.json (next to the JSON report). */
  outputs: { json?: string; junit?: string; sarif?: string; exports?: string };
  /** Write replay recordings of every trial run into this directory (absolute). */
  record?: string;
  logger: Logger;
}

/** Keeps `@actions/core` out of the domain: the CLI logs to stderr, the action to grouped logs. */
export interface Logger {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
  debug(message: string): void;
  group<T>(name: string, fn: () => Promise<T>): Promise<T>;
  /** Live progress of the trial runner (the CLI redraws one line). */
  progress(p: { done: number; total: number; errors: number; costUsd: number; cacheHits: number }): void;
}
