import type { SourceLocation } from "./diagnostics.js";

/** Which on-disk format a suite was loaded from. All are normalised into `Suite`. */
export type SuiteFormat = "seed" | "skill-creator" | "waza";

export interface Thresholds {
  /** Minimum discriminator pass rate with the skill, 0..1. */
  discriminatorPassRate?: number;
  /** Minimum discriminator lift (skill − baseline), −1..1. */
  discriminatorLift?: number;
  triggerPrecision?: number;
  triggerRecall?: number;
}

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
  params: Record<string, unknown>;
  loc: SourceLocation;
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
  /** Where the prompt is written (for its placeholders' diagnostics). */
  promptLoc?: SourceLocation;
}

export interface TriggerQuery {
  prompt: string;
  reason?: string;
  /** 1 for high confidence (default), 0.5 for waza `medium`. */
  weight: number;
  loc: SourceLocation;
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
}
