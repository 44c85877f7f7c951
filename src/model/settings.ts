import type { AgentCell, AgentCellConfig, AgentConfig } from "./agent.js";
import type { Diagnostic } from "./diagnostics.js";
import type { EnvName, NonEmptyString } from "./files.js";
import type { Target, ValidationProfile } from "./skill.js";
import type { Thresholds } from "./suite.js";

export interface Budget {
  /** @minimum 0 */
  maxUsd?: number;
  /** @asType integer @minimum 0 */
  maxTokens?: number;
  /** @asType integer @minimum 0 */
  maxAgentCalls?: number;
}

export interface VerdictPolicy {
  /** Per-PR family-wise α for "new root" decisions. @exclusiveMinimum 0 @maximum 0.5 */
  alpha: number;
  /** What an undecided root does to the verdict. Default `pass` (reported, not blocking); `fail` blocks. */
  inconclusive: "fail" | "pass";
  /** Whether roots failing at base too block. Default `report` (not blocking). */
  preExisting: "report" | "fail";
  /** Extra trials per arm allowed for confirming suspects. @asType integer @minimum 0 @maximum 200 */
  maxConfirmationTrials: number;
  /**
   * Trials per case a run of the default branch (no base: push, schedule) stores for PRs to read as their base
   * arm; a PR's base arm takes every stored one for free. Default 30 (`DEFAULT_BASE_DEPTH`).
   * @asType integer
   * @minimum 0
   * @maximum 200
   */
  baseDepth?: number;
  /** Whether roots with no base to compare (new skill, sweep) block. Default `fail` (fail-closed). */
  headOnly?: "fail" | "report";
}

/** Which SKILL.md files are skills (the config's `skills:`): matching a glob (`--glob`), then include, exclude. */
export interface SkillsSelection {
  /** @minItems 1 */
  globs?: NonEmptyString[];
  include?: NonEmptyString[];
  exclude?: NonEmptyString[];
}

/** `.skillgate.yml`, validated. Everything optional; defaults applied in `resolveSettings`. */
export interface SkillgateConfig {
  agent?: AgentConfig;
  /** An agent matrix: named cells, each evaluated on its own; exclusive with `agent`. */
  /** @minItems 1 @maxItems 16 */
  agents?: AgentCellConfig[];
  judge?: AgentConfig;
  skills?: SkillsSelection;
  profile?: ValidationProfile;
  /** The clients the skills are written for; default: the configured agent's harness (`defaultTargets`). @uniqueItems true */
  targets?: Target[];
  /** @asType integer @minimum 1 @maximum 100 */
  trials?: number;
  /** @asType integer @minimum 1 @maximum 100 */
  triggerRuns?: number;
  /** @asType integer @minimum 1 @maximum 256 */
  concurrency?: number;
  /** @exclusiveMinimum 0 */
  timeoutSeconds?: number;
  budget?: Budget;
  thresholds?: Thresholds;
  verdict?: Partial<VerdictPolicy>;
  gates?: Record<string, Record<string, unknown>>;
  /** Maintainers' override: the PR label that accepts suite or policy weakening. */
  override?: { label?: NonEmptyString };
  /** `allowWeaker: true` accepts a runner that cannot reach the strongest isolation (the Action errs otherwise). */
  isolation?: { allowWeaker?: boolean };
  env?: EnvName[];
  cache?: { enabled?: boolean; dir?: NonEmptyString };
  /**
   * On-demand evaluation of pull requests: only with the `label` on the PR, or after a `/skillgate` comment by a
   * collaborator with write access. Unrequested, the check concludes `neutral` with the forecast, or with
   * `pass-if-no-skill`: success only for a PR that touches no skill (action required otherwise).
   */
  onDemand?: { label?: NonEmptyString; unrequested?: "neutral" | "pass-if-no-skill" };
  /** Other skills' should-fire prompts run against a changed description: the likeliest `maxPrompts` to be stolen. */
  competitors?: {
    /** @asType integer @minimum 0 @maximum 100000 */
    maxPrompts?: number;
  };
  /**
   * Routing without a trigger suite: when what the router reads of a skill changes and the skill has no should-fire
   * prompts of its own, up to `casePrompts` of its case prompts run as should-fire queries in both arms.
   */
  routing?: {
    /** @asType integer @minimum 0 @maximum 100000 */
    casePrompts?: number;
  };
  /** A skill new in a pull request must come with an eval suite (a case or a trigger prompt): a located finding. */
  requireSuite?: boolean;
  /** What an edited skill may make the agent do (docs/security.md): hosts and commands allowed. */
  security?: { allow?: SecurityAllow };
}

/**
 * Risky actions the base allows (`security.allow`): a network action to one of `hosts` (a name, or `*.domain` for
 * its subdomains), any action but a leak by a process started with one of `commands` (its first words, the program
 * by name). Read from the base only.
 */
export interface SecurityAllow {
  hosts?: HostName[];
  commands?: NonEmptyString[];
}

/** @pattern ^(\*\.)?[A-Za-z0-9._:-]+$ */
type HostName = string;

export type BaseSource =
  /**
   * `sha`: the merge base of head and the commit `ref` names (`tip`), resolved once: what the PR's diff is taken
   * against, what the base arm runs and what the policy is read from.
   */
  { kind: "ref"; ref: string; sha?: string; tip?: string } | { kind: "dir"; dir: string };

/** Parsed once from CLI flags or action inputs plus `.skillgate.yml`; every stage reads only this. */
export interface Settings {
  /** Absolute path of the repository (head). */
  repoDir: string;
  configFile?: string;
  config: SkillgateConfig;
  base?: BaseSource;
  /** Only skills whose name or path matches (sweeps, `--skills`). */
  skillsFilter?: string;
  /** Where discovery looks for skills (the config's `skills:`). */
  skills: SkillsSelection;
  /** Names of variables of the runner's environment an agent receives (the config's `env:`). */
  env: string[];
  agent: AgentConfig;
  /**
   * The agent matrix of the trusted config (`agents:`): every cell, and the names this run evaluates (all, or those
   * `--cell` / the `cell` input names). Absent without `agents:`.
   */
  matrix?: MatrixSettings;
  /** The matrix cell this run evaluates (set per cell by `runCells`; its own Actions cache scope). */
  cell?: string;
  judge?: AgentConfig;
  profile: ValidationProfile;
  /** The clients whose loading rules `validate` and discovery apply (config `targets`, else the agent's harness). */
  targets: Target[];
  /** Trials per case and arm when a suite's meta.json sets none (config `trials`, else 5). */
  trials: number;
  /** `--trials` / the `trials` input: trials per case and arm for every suite, meta.json or not. */
  trialsOverride?: number;
  triggerRuns: number;
  /** In a PR, other skills' prompts run against a changed description (config `competitors.maxPrompts`). */
  competitorPrompts: number;
  /** Case prompts run as should-fire queries for a skill without its own (config `routing.casePrompts`). */
  casePrompts: number;
  /** Skills new in a pull request must have an eval suite (config `requireSuite`). */
  requireSuite: boolean;
  /** Risky actions the trusted config allows (`security.allow`). */
  security: { allow: Required<SecurityAllow> };
  concurrency: number;
  timeoutMs: number;
  shard?: { index: number; total: number };
  cache: { enabled: boolean; dir: string };
  budget: Budget;
  /** Where `budget` comes from, as the forecast names it: the config file, or the default's figures. */
  budgetSource: string;
  thresholds: Thresholds;
  verdict: VerdictPolicy;
  /** Where the policy (config and meta.json thresholds/trials) was read from, and how the PR's differs. */
  policy: PolicyState;
  /** A maintainer's approval of suite or policy weakening, and who gave it. */
  override?: { by: string };
  seed: number;
  /** Changed files when known (from the PR API or git); undefined means "evaluate every skill". */
  changedFiles?: string[];
  /** `exports`: folder for skill-creator-compatible benchmark.json / grading.json (`<report>.skill-creator/`). */
  outputs: {
    json?: string;
    junit?: string;
    sarif?: string;
    html?: string;
    markdown?: string;
    exports?: string;
  };
  /** Write replay recordings of every trial run into this directory (absolute). */
  record?: string;
  /**
   * What isolation the run insists on: `required` (the Action) refuses a weaker level unless `allowWeaker` (the
   * trusted config's `isolation.allowWeaker`); a local run warns. Absent: a local run that accepts nothing weaker.
   */
  isolation?: { required: boolean; allowWeaker: boolean };
  logger: Logger;
}

export interface MatrixSettings {
  cells: AgentCell[];
  /** Names of the cells this run evaluates, in config order. */
  selected: string[];
  /** A cell this run was told to evaluate alone (a job of a workflow matrix): its report is that cell's. */
  single?: boolean;
  /** The PR's labels (label-gated cells run only with theirs); undefined outside a PR or when unreadable. */
  labels?: string[];
}

/** The trust side of the settings: which tree the policy came from and what the PR changed in it. */
export interface PolicyState {
  /** Human description, e.g. "base commit 1a2b3c4 (.skillgate.yml)" or "the checkout (sweep)". */
  origin: string;
  /** Config file the policy was read from (repository-relative, or the operator's own path). */
  file?: string;
  /** Directory holding the trusted tree's files when it is a folder (`--base-dir`, a sweep's checkout). */
  dir?: string;
  /** Where paths in the agent's configuration resolve when not from the trusted tree: an operator's file's folder. */
  agentDir?: string;
  /** Differences of the PR's configuration from the policy's, located in the PR's file. */
  changes: PolicyChangeRecord[];
  /** Problems of the PR's own configuration file (it does not apply here, but it would after the merge). */
  headDiagnostics: Diagnostic[];
  /** Warnings of the policy's own file (`config/judge-is-agent` …); its errors stop the run before this. */
  warnings?: Diagnostic[];
  /** The line and column of a key of the policy's file (`["agent", "command"]`), when it has that key. */
  locateKey?: (path: readonly (string | number)[]) => { line: number; column: number } | undefined;
  /** Name of the maintainers' override label (base config `override.label`). */
  overrideLabel: string;
}

export interface PolicyChangeRecord {
  id: string;
  key: string;
  kind: "loosened" | "tightened" | "changed";
  message: string;
  file: string;
  line: number;
  column: number;
}

/** Keeps `@actions/core` out of the domain: the CLI logs to stderr, the action to grouped logs. */
export interface Logger {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
  debug(message: string): void;
  group<T>(name: string, fn: () => Promise<T>): Promise<T>;
  /** Live progress of the trial runner (the CLI redraws one line). */
  progress(p: {
    done: number;
    total: number;
    errors: number;
    costUsd: number;
    cacheHits: number;
    /** The batch: `first batch`, `confirmation round 1 of ≤3: 2 suspects`. */
    label?: string;
    /** Expected time left in this batch (from the mean live trial so far), when there is an estimate. */
    etaMs?: number;
  }): void;
}
