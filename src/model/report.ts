import type { CheckResult } from "./check.js";
import type { Diagnostic, SourceLocation } from "./diagnostics.js";
import type { ObservedAction } from "./observe.js";
import type { VerdictPolicy } from "./settings.js";
import type { CheckLevel } from "./suite.js";
import type { TrialErrorKind, TrialMode } from "./trial.js";

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

/** One check on one trial as a report keeps it (a `CheckResult` without its bulky fields): evidence. */
export type EvidenceCheck = Pick<
  CheckResult,
  | "checkId"
  | "skill"
  | "caseId"
  | "assertionId"
  | "mode"
  | "trial"
  | "status"
  | "discriminator"
  | "message"
  | "dependsOn"
  | "loc"
>;

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

export interface TriggerConfusion {
  labels: string[];
  counts: Record<string, Record<string, number>>;
  /**
   * For the row of prompts that should fire no particular skill (`(none)`: a skill's should-not-fire prompts), the
   * skills those prompts must not fire: firing any other skill there is not a routing error.
   */
  notFor?: Record<string, string[]>;
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

/** The eight dimensions of the coding-agent robustness taxonomy (seeds/001). */
export type RobustnessDimensionId =
  | "adversarial-correctness"
  | "spec-underspecification"
  | "consistency-under-reformulation"
  | "error-recovery"
  | "security-awareness"
  | "hallucination"
  | "graceful-degradation"
  | "refusal-calibration";

export type RobustnessTier = "robust" | "adequate" | "fragile" | "unreliable";

/** The grade of a dimension's score in the report template's table: A ≥ 90, B ≥ 80, C ≥ 70, D ≥ 60, F below. */
export type RobustnessGrade = "A" | "B" | "C" | "D" | "F";

export interface RobustnessDimension {
  id: RobustnessDimensionId;
  name: string;
  /** False when nothing skillgate ran measures it: then there is no score, never an invented one. */
  measured: boolean;
  /** Part of this audit (meta.json `robustness.dimensions`, default all eight). */
  selected?: boolean;
  /** 0–100 when measured, by the taxonomy's formula for the dimension. */
  score?: number;
  grade?: RobustnessGrade;
  /** The formula's numerator and denominator (weighted for error recovery, tier points for degradation). */
  passed?: number;
  total?: number;
  /** Probes (trials of cases made for the dimension, pairs for reformulation) the score is over. */
  probes?: number;
  /** What was counted, or why it is not measured. */
  basis: string;
  /** Secondary figures of the dimension (precision and recall of refusals, unprompted warning rate, regressions …). */
  figures?: Record<string, number>;
  /** Fewer probes than the taxonomy's minimum (5 per dimension; 15+ for a reliable signal). */
  warning?: string;
}

/** One failed probe, as the report template's examples show it. */
export interface RobustnessExample {
  caseId: string;
  trial: number;
  prompt: string;
  output: string;
  /** What failed: the failing check's message. */
  failure: string;
}

export interface RobustnessFailurePattern {
  /** `<dimension>: <check>`: the same check failing on a dimension's probes. */
  pattern: string;
  dimension: RobustnessDimensionId;
  checkId: string;
  /** Failed probe trials. */
  count: number;
  example: RobustnessExample;
}

export interface RobustnessSummary {
  dimensions: RobustnessDimension[];
  /** The dimensions this audit covers (meta.json `robustness.dimensions`, default all eight). */
  selected: RobustnessDimensionId[];
  /** Weighted mean of the selected dimensions; only when every selected one was measured. */
  composite?: number;
  tier?: RobustnessTier;
  /** When a selected dimension is not measured: no composite, "partial, N of M". */
  partial?: { measured: number; of: number };
  /** "Robust", "Adequate", …, or "partial, 5 of 8". */
  label: string;
  /** Dimensions scoring below 50, with failed probes as examples. */
  criticalFailures: { dimension: RobustnessDimensionId; score: number; examples: RobustnessExample[] }[];
  /** The three most frequent failures on the probes, each with an example probe and output. */
  topFailurePatterns: RobustnessFailurePattern[];
}

/** One check of one kept trial, with its message as long as the transcript limits allow. */
export interface TranscriptCheck {
  checkId: string;
  status: EvidenceCheck["status"];
  message: string;
  /** For a gate: the command that replays it on the module this trial wrote (same seed, same verdict). */
  replay?: string;
}

/** One tool call of a kept trial; input and output as text, each capped. */
export interface TranscriptToolCall {
  name: string;
  /** The arguments, as JSON. */
  input: string;
  output?: string;
  isError?: boolean;
  turn: number;
}

/**
 * One trial as the review report shows it: what the agent was asked, what it did and what it left. Bounded (the
 * limits are named in src/pipeline/transcripts.ts) and redacted like every other string of the report. Trials past
 * the report's detail budget keep the summary only (`detail: false`): no tool inputs or outputs, no files.
 */
export interface TrialTranscript {
  /** `<arm>/<mode>/<caseId>/<trial>`: the evidence checks of that arm, mode, case and trial are this trial's. */
  id: string;
  arm: ArmName;
  mode: TrialMode;
  caseId: string;
  trial: number;
  prompt: string;
  skillsActivated: string[];
  skillsRegistered?: string[];
  toolCalls: TranscriptToolCall[];
  output: string;
  /** Text files the agent wrote, workspace-relative. */
  files: { path: string; content: string }[];
  checks: TranscriptCheck[];
  durationMs: number;
  costUsd: number;
  cached?: boolean;
  error?: { kind: TrialErrorKind; message: string };
  notes?: string[];
  /** What the trial's processes were seen doing (risky actions only; capped). */
  observed?: ObservedAction[];
  /** How the trial was watched, when it was not (`strace` missing, switched off): why. */
  unobserved?: string;
  /** False when only the summary was kept (the report's detail budget went to more telling trials). */
  detail: boolean;
  /** What the limits cut, e.g. "output: 12,000 of 40,000 characters kept". */
  cut?: string[];
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
