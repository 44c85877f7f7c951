import type {
  DiscriminatorSummary,
  LevelDecomposition,
  TriggerConfusion,
  TriggerSummary,
} from "./battery.js";
import type { Diagnostic, SourceLocation } from "./diagnostics.js";
import type { CellIdentity, MatrixSummary } from "./matrix.js";
import type { ObservedAction } from "./observe.js";
import type { RobustnessSummary } from "./robustness.js";
import type { VerdictPolicy } from "./settings.js";
import type { CheckLevel } from "./suite.js";
import type { EvidenceCheck, TrialTranscript } from "./transcript.js";
import type { TrialErrorKind, TrialMode } from "./trial.js";

export type {
  AssertionClass,
  AssertionResult,
  CaseCounts,
  DiscriminatorSummary,
  LevelDecomposition,
  ModeSummary,
  RateWithInterval,
  TriggerConfusion,
  TriggerQueryResult,
  TriggerSummary,
  UnitRate,
} from "./battery.js";

export type {
  CellEffect,
  CellIdentity,
  CellInteraction,
  MatrixCell,
  MatrixEntry,
  MatrixSummary,
} from "./matrix.js";
export type {
  RobustnessDimension,
  RobustnessDimensionId,
  RobustnessExample,
  RobustnessFailurePattern,
  RobustnessGrade,
  RobustnessSummary,
  RobustnessTier,
} from "./robustness.js";
export type { EvidenceCheck, TranscriptCheck, TranscriptToolCall, TrialTranscript } from "./transcript.js";

/** Which side of the comparison a trial ran on: the PR head, or the base it is compared with. */
export type ArmName = "head" | "base";

/** One batch of trials as the report shows it (`Report.rounds`). */
export interface TrialRound {
  label: string;
  /** The look a confirmation batch fed (2–4): units' batches of one look run side by side, looks one after another. */
  look?: number;
  trials: number;
  agentCalls: number;
  cacheHits: number;
  ms: number;
  concurrency: { ceiling: number; lowest: number; cuts: number };
}

/** A trial's transcript id in the report (`<arm>/<mode>/<caseId>/<trial>`), which security roots cite too. */
export function transcriptId(arm: ArmName, mode: string, caseId: string, trial: number): string {
  return `${arm}/${mode}/${caseId}/${trial}`;
}

export type Verdict = "pass" | "fail" | "error";

/**
 * How untrusted code (gate modules, predicates, oracles, compiles, agents) was confined, strongest first:
 * `uid+namespaces` (bubblewrap as root, a sandbox uid of its own), `namespaces` (bubblewrap in an unprivileged user
 * namespace, skillgate's uid), `none` (plain child processes). See src/sandbox/isolation/.
 */
export type IsolationLevel = "uid+namespaces" | "namespaces" | "none";

/**
 * What bounds the memory and processes of a sandboxed run's whole tree, strongest first: a cgroup per run (`cgroup
 * v2`, `cgroup v1`), or per-process limits only (`rlimits`). See src/sandbox/isolation/cgroup.ts.
 */
export type ResourceLevel = "cgroup v2" | "cgroup v1" | "rlimits";

/** The isolation a run reached, in the report, the terminal summary and the check summary. */
export interface IsolationReport {
  level: IsolationLevel;
  /** What the level is, and why not a stronger one. */
  reason: string;
  /** What bounded each sandboxed run's tree (memory, processes), and why not a cgroup. */
  resources?: { level: ResourceLevel; reason: string };
  /** The level a run needs unless the trusted config accepts less. */
  required: IsolationLevel;
  /** Weaker than required, accepted by the trusted config's `isolation.allowWeaker` (or a local run). */
  weakerAccepted?: "config" | "local run";
}

/** How a skill changed between base and head. `sweep` when no base is compared. */
export type SkillChange =
  | "new"
  | "body"
  | "description"
  | "suite"
  | "rename"
  | "deleted"
  | "unchanged"
  | "sweep";

/**
 * Which skill fired on whose prompts, across the catalogue: `counts[expected][fired]` runs. `expected` is the skill
 * whose should-fire prompt it was, or `(none)` for should-not-fire prompts; `fired` is `(none)` when nothing fired.
 */
/** One changed line of a PR diff: kept (`" "`), added (`"+"`) or removed (`"-"`), with its line at head or base. */
export interface DiffLine {
  kind: " " | "+" | "-";
  text: string;
  /** Its line in the head file (kept and added lines) or in the base file (removed lines). */
  line: number;
}

/** A file of a skill the PR changed: its hunks with a little context. */
export interface FileChange {
  skill: string;
  file: string;
  status: "added" | "modified" | "deleted";
  hunks: { baseStart: number; headStart: number; lines: DiffLine[] }[];
  /** Lines left out to keep the report bounded. */
  omittedLines?: number;
}

export interface GateSummary {
  gate: string;
  caseId: string;
  assertionId: string;
  module: string;
  passed: boolean;
  seed?: number;
  checks: { id: string; passed: boolean; message: string }[];
  metrics?: Record<string, unknown>;
}

export type RootKind =
  | "assertion"
  | "trigger"
  | "gate"
  | "validation"
  | "threshold"
  | "contamination"
  | "suite-weakened"
  /** A suite change that adds or tightens checks: reported, never blocking. */
  | "suite-tightened"
  | "policy-weakened"
  | "policy-changed"
  | "lockstep"
  | "risky-action"
  | "static-review"
  | "error";

/**
 * `new`: fails more often at head than at base (decided statistically). `pre-existing`: fails at base too.
 * `not-significant`: fails at head, never at base, but not significantly more often (a flake).
 * `inconclusive`: confirmation could not decide. `head-only`: nothing at base to compare with.
 * `error`: could not be evaluated at head (never a pass, whatever base shows).
 */
export type RootStatus = "new" | "pre-existing" | "not-significant" | "inconclusive" | "head-only" | "error";

export interface Root extends SourceLocation {
  /** Stable id: check id for assertion roots, `<kind>/<detail>` otherwise. */
  id: string;
  kind: RootKind;
  skill: string;
  status: RootStatus;
  title: string;
  /** Expected vs seen, one paragraph. */
  message: string;
  head?: { failed: number; trials: number };
  base?: { failed: number; trials: number };
  pValue?: number;
  /** The rejection threshold α/(m·K) the p-value was held to (statistically decided roots). */
  threshold?: number;
  /** Failed checks that cascade from this root (failed, or skipped because it failed). */
  cascaded: string[];
  /** What an assertion root looks at (absent for trigger, threshold, policy and other roots). */
  level?: CheckLevel;
  /** Blocks the merge. */
  blocking: boolean;
  /** For suite and policy changes: a tightening or neutral change is reported, never blocking, and never "new". */
  change?: "loosened" | "tightened" | "changed";
  /** The agent-matrix cell it was found in (absent without `agents:`). */
  cell?: string;
  /** A risky-action root: what was seen (src/observe/), and in which trials (transcript ids). */
  action?: ObservedAction & { trials: string[] };
}

export interface SkillCost {
  usd: number;
  agentCalls: number;
  cacheHits: number;
  byMode: Partial<Record<TrialMode, { usd: number; trials: number }>>;
}

export interface SkillReport {
  name: string;
  /** The agent-matrix cell this evaluation ran in (absent without `agents:`): a skill appears once per cell. */
  cell?: string;
  path: string;
  change: SkillChange;
  version?: string;
  discriminator?: DiscriminatorSummary;
  trigger?: TriggerSummary;
  /** What the batteries and gates measured, mapped onto the robustness taxonomy. */
  robustness?: RobustnessSummary;
  base?: { discriminator?: DiscriminatorSummary; trigger?: TriggerSummary };
  gates: GateSummary[];
  /** Outcome / final-state / process decomposition of the head's discriminator battery, per mode. */
  levels?: LevelDecomposition[];
  /** Trials per case and arm, and runs per trigger query, this skill was evaluated with (before confirmation). */
  trials?: { perCase: number; triggerRuns: number };
  /** Per-trial check outcomes of both arms: what `mode: report` recomputes the decision from. */
  evidence?: {
    /**
     * What the first batch held, before any confirmation look: `perCase` trials of each case and `triggerRuns` runs
     * of each query per arm, except the cases listed per arm (a sweep's head arm ran `verdict.baseDepth`; a PR's
     * base arm read that many trials stored by the default branch's run).
     */
    firstBatch: {
      perCase: number;
      triggerRuns: number;
      headPerCase?: Record<string, number>;
      basePerCase?: Record<string, number>;
    };
    head: EvidenceCheck[];
    base?: EvidenceCheck[];
  };
  /** The trials of both arms as the review report shows them (bounded; absent in reports made before). */
  transcripts?: TrialTranscript[];
  roots: Root[];
  /** The roots that block the merge (a subset of `roots`). */
  blockingRoots: Root[];
  /** The roots this PR introduced: status `new` (a subset of `roots`). */
  newRoots: Root[];
  failedChecks: number;
  errors: { kind: TrialErrorKind | "oracle" | "assertion"; message: string; count: number }[];
  verdict: Verdict;
  /** Short reasons for the verdict, most important first. */
  reasons: string[];
  cost: SkillCost;
}

/** The first batch of one skill's battery, before it runs (both arms; a key shared by the arms counts once). */
export interface ForecastLine {
  skill: string;
  battery: "discriminator" | "trigger";
  trials: number;
  /** Trials the cache already answers. */
  cacheHits: number;
  /** Live agent calls: trials neither cached nor replayed. */
  agentCalls: number;
  /** Estimated from recorded usage; absent when none is recorded. */
  usd?: number;
}

/** What a run will spend, said before it spends (`skillgate plan`, the first lines of a run, the check summary). */
export interface Forecast {
  identity: string;
  lines: ForecastLine[];
  total: { trials: number; cacheHits: number; agentCalls: number; usd?: number };
  /** Where the USD figures come from. */
  costBasis: string;
  /** Per suspect: at most this many head trials, and `baseTrialsPerHeadTrial` base trials for each (cache hits are free). */
  confirmation: { maxTrialsPerArmPerSuspect: number; baseTrialsPerHeadTrial?: number };
  budget: { maxAgentCalls?: number; maxUsd?: number; maxTokens?: number; source: string };
  /** Set when the first batch alone would exceed the budget: the run then stops before spending (fail-closed). */
  overBudget?: string;
}

export interface Report {
  schemaVersion: 2;
  tool: { name: "skillgate"; version: string };
  verdict: Verdict;
  seed: number;
  startedAt: string;
  durationMs: number;
  repo: string;
  head: { ref?: string; sha?: string };
  /** `sha`: the commit compared with (the merge base); `tip`: where the base ref pointed, when it differs. */
  base?: { ref?: string; sha?: string; tip?: string; dir?: string };
  agent: { adapter: string; identity: string };
  /** Trials per case and arm where a suite sets none (each skill's own are in `skills[].trials`). */
  trials: number;
  /** Set when `--trials` (the `trials` input) overrode every suite's meta.json. */
  trialsOverride?: number;
  shard?: { index: number; total: number };
  /** What the run covered: skills found, selected (changed, filtered, sharded) and with batteries to run. */
  scope?: { skillsFound: number; selected: number; evaluated: number; message: string };
  skills: SkillReport[];
  /** What the run was judged by, and roots of the repository rather than of a skill (policy changes). */
  policy: {
    origin: string;
    file?: string;
    override?: { by: string };
    roots: Root[];
    /** The verdict policy the run was judged by: what `merge` recomputes the report's decisions under. */
    verdict?: VerdictPolicy;
  };
  /** Every skill's blocking roots, most important first: what the check run annotates as failures. */
  blockingRoots: Root[];
  /** Every skill's new roots (status `new`), most important first. */
  newRoots: Root[];
  diagnostics: Diagnostic[];
  stats: { failedChecks: number; roots: number; meanFailedChecksPerTrial: number; meanRootsPerTrial: number };
  /** The levels decomposition over every evaluated skill's runs (the PR's head), per mode. */
  levels?: LevelDecomposition[];
  cost: {
    usd: number;
    /** Agent calls of unknown price, not in `usd` (absent in reports of older versions). */
    unpricedCalls?: number;
    agentCalls: number;
    cacheHits: number;
    inputTokens: number;
    outputTokens: number;
  };
  /**
   * Each batch of trials in the order it ran (the first batch, then each confirmation round): wall time is about one
   * agent latency per round at enough concurrency. `concurrency`: agent calls at once (the ceiling, and the lowest
   * rate limits pushed it to).
   */
  rounds?: TrialRound[];
  /** What the run expected to spend before it started. */
  forecast?: Forecast;
  /**
   * Set when the base config makes evaluation on-demand and this PR did not ask for it: nothing ran, the check
   * concludes with what would run and cost (`neutral`, or `success` only for a PR that touches no skill).
   */
  onDemand?: { conclusion: "neutral" | "success" | "action_required"; message: string };
  /** Why the run ended in `error`, if it did. */
  errors: string[];
  /** Cross-skill trigger confusion (when trigger batteries ran with the catalogue installed). */
  triggerConfusion?: TriggerConfusion;
  /** The PR's changes to the evaluated skills' SKILL.md and suite files, as hunks (bounded; absent in a sweep). */
  changes?: FileChange[];
  /** The pull request evaluated, when run for one: lets a `workflow_run` job post the check and comment. */
  pullRequest?: number;
  /** How untrusted code was confined (absent in reports made before skillgate reported it). */
  isolation?: IsolationReport;
  /** The agent-matrix cell this report is of (a cell's own report, before the cells are merged). */
  cell?: CellIdentity;
  /** Cells × skills, the PR's effect per cell and the interactions between cells (a merged matrix report). */
  matrix?: MatrixSummary;
}
