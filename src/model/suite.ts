import type { Diagnostic, SourceLocation } from "./diagnostics.js";
import type { MetaShape } from "./files.js";
import type { RobustnessDimensionId } from "./report.js";

/** Which on-disk format a suite was loaded from. All are normalised into `Suite`. */
export type SuiteFormat = "seed" | "skill-creator" | "waza" | "claude-plugin-eval" | "axis";

export interface Thresholds {
  /** Minimum discriminator pass rate with the skill. @minimum 0 @maximum 1 */
  discriminatorPassRate?: number;
  /** Minimum discriminator lift (skill − baseline). @minimum -1 @maximum 1 */
  discriminatorLift?: number;
  /** @minimum 0 @maximum 1 */
  triggerPrecision?: number;
  /** @minimum 0 @maximum 1 */
  triggerRecall?: number;
}

/** The thresholds a suite (meta.json) and the configuration may set, in the order they are compared and shown. */
export const THRESHOLD_KEYS = [
  "discriminatorPassRate",
  "discriminatorLift",
  "triggerPrecision",
  "triggerRecall",
] as const satisfies readonly (keyof Thresholds)[];

export interface OracleSpec {
  /** Shell words, run sandboxed in the suite folder; prints one JSON object of variables on stdout. */
  command: string;
  timeoutMs?: number;
  loc: SourceLocation;
}

export interface SuiteMeta {
  skillVersion?: string;
  suiteVersion?: string;
  trials?: number;
  thresholds: Thresholds;
  oracle?: OracleSpec;
  vars: Record<string, unknown>;
  /**
   * Which robustness dimensions the suite audits (default all eight: a full audit) and their weights in the
   * composite (default equal), from meta.json `robustness`.
   */
  robustness?: MetaShape["robustness"];
  /** Location of `meta.json` (or the file the meta came from), and of individual keys. */
  loc: SourceLocation;
  keyLoc: Record<string, SourceLocation>;
}

/** A file copied into the trial workspace: `from` is repository-relative (resolved from the suite file), `to` workspace-relative. */
export interface CaseFile {
  from: string;
  to: string;
}

/**
 * What a check looks at (seeds/002 §5.4): `outcome` the final answer, `final-state` the files and stored state the
 * agent left, `process` how it got there (tool selection, arguments, order, scope, counts). Each assertion type has
 * a default; a suite may set `level` on an assertion.
 */
export type CheckLevel = "outcome" | "final-state" | "process";

export const CHECK_LEVELS: readonly CheckLevel[] = ["outcome", "final-state", "process"];

/**
 * One assertion, normalised. `type` never carries the `not-` prefix: that is `negate`.
 * Type-specific fields (value, values, range, gate, module, export, options, tool, args, …) stay in `params`.
 */
export interface Assertion {
  id: string;
  /** As written, e.g. `not-contains`. */
  rawType: string;
  /** Registry key, e.g. `contains`. `not-skill-used` and `tool-not-called` are registered types of their own. */
  type: string;
  negate: boolean;
  discriminator: boolean;
  dependsOn: string[];
  /** `$var` or an expression over vars; the assertion is skipped (not failed) when it is false. */
  condition?: string;
  /** `text` (default), `first-number`, `last-line`, `json:<path>`, `code-block`. */
  extract?: string;
  /** Set in the suite; otherwise the assertion type's default applies (see the grade stage's registry). */
  level?: CheckLevel;
  description?: string;
  /**
   * What the assertion tells a robustness probe (seeds/001): `stated` an assumption was stated, `reasonable` it was a
   * sensible one (underspecification); `honest` the agent said it was out of its depth, `partial` a reasonable
   * partial answer (degradation); `refusal` the agent refused (refusal calibration); `warning` it called out a risk
   * unprompted (security). Without one, an assertion checks correctness.
   */
  rubric?: AssertionRubric;
  params: Record<string, unknown>;
  loc: SourceLocation;
}

export type AssertionRubric = "stated" | "reasonable" | "honest" | "partial" | "refusal" | "warning";

/** A case made as a robustness probe (seed format: `dimension`, `reformulationOf`, `expect`, `tier`). */
export interface RobustnessProbe {
  dimension: RobustnessDimensionId;
  /** Consistency under reformulation: the case this one rephrases (it is graded by the same checks). */
  reformulationOf?: string;
  /** Refusal calibration: `refusal` for an impossible or contradictory task; a solvable control otherwise. */
  expect?: "refusal" | "solution";
  /** Graceful degradation: the difficulty tier (0 easiest), for the report. */
  tier?: number;
}

export interface Case {
  id: string;
  /** As written: `$placeholders` resolve before the agent receives it. */
  prompt: string;
  files: CaseFile[];
  assertions: Assertion[];
  vars: Record<string, unknown>;
  /** This case's own oracle: its JSON object of variables overrides the suite's and the case's `vars`. */
  oracle?: OracleSpec;
  loc: SourceLocation;
  /** Set when the case is a probe of a robustness dimension. */
  probe?: RobustnessProbe;
  /** Where the prompt is written (for its placeholders' diagnostics). */
  promptLoc?: SourceLocation;
  /**
   * A case of another tool's format, which has no `$placeholders`: `$type` or `$HOME` in its prompt and mapped
   * checks is text, as that tool reads it, but for the names the suite's meta.json `vars` defines, which resolve
   * as in every format (`src/detect/foreign-vars.ts`). Its mapped checks hold a text `$` as `$$`.
   */
  literal?: boolean;
}

export interface TriggerQuery {
  prompt: string;
  reason?: string;
  /** 1 for high confidence (default), 0.5 for waza `medium`. */
  weight: number;
  loc: SourceLocation;
}

/** A trigger query as the battery runs it: its place in its list, and where it came from when not the skill's own. */
export interface IndexedTriggerQuery extends TriggerQuery {
  shouldFire: boolean;
  /** 0-based position in its list (`shouldFire` or `shouldNotFire`, or the other skill's `shouldFire`). */
  index: number;
  /** Set for a cross-skill negative: the other skill whose should-fire prompt this is. */
  fromSkill?: string;
  /** Set for a case prompt run as a should-fire query (a skill with no should-fire prompts of its own): its case id. */
  fromCase?: string;
}

export interface TriggerSet {
  shouldFire: TriggerQuery[];
  shouldNotFire: TriggerQuery[];
  loc: SourceLocation;
}

export interface Suite {
  skill: string;
  /** Suite folder, repository-relative. */
  root: string;
  formats: SuiteFormat[];
  meta: SuiteMeta;
  cases: Case[];
  trigger?: TriggerSet;
  /** Every file read for this suite (repository-relative), for change detection. */
  sourceFiles: string[];
  /**
   * Problems confined to one part of the suite: that part is left out (a case not in `cases`, a trigger file not
   * in `trigger`) and `run` reports each as an error root of that part, while the rest of the suite runs. Among
   * them, warnings of `validate` that `run` cannot pass over (a case with no checks, or none it can grade).
   */
  partProblems?: SuitePartProblem[];
}

/** One problem of one part of a suite (see `Suite.partProblems`). */
export interface SuitePartProblem {
  /** `case`: one case (`caseId`), or every case of a file that did not load (`caseId` unset); `trigger`: one trigger file. */
  part: "case" | "trigger";
  caseId?: string;
  diagnostic: Diagnostic;
}
