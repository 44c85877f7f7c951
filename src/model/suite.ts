import type { Diagnostic, SourceLocation } from "./diagnostics.js";

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
  description?: string;
  params: Record<string, unknown>;
  loc: SourceLocation;
}

export interface Case {
  id: string;
  prompt: string;
  files: CaseFile[];
  assertions: Assertion[];
  vars: Record<string, unknown>;
  loc: SourceLocation;
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
