import type {
  Diagnostic,
  DiscriminatorSummary,
  Root,
  RootKind,
  Thresholds,
  ToolCall,
  TriggerSummary,
  Verdict,
  VerdictPolicy,
} from "../model/index.js";
import {
  contaminationFindings,
  errorFindings,
  lockstepFindings,
  securityFindings,
  statisticalFindings,
  validationFindings,
  weakeningFindings,
} from "./findings.js";
import type { RootDecision } from "./new-roots.js";
import { thresholdFindings } from "./threshold-findings.js";
import type { ArmFigures } from "./thresholds.js";
import type { WeakeningFinding } from "./weakening.js";

export { isBlocking } from "./findings.js";

/**
 * The verdict of one skill, fail-closed: `fail` on any blocking root (new roots, undecided roots, suite
 * weakening, thresholds, contamination, lockstep lag, validation errors), `error` when nothing definite failed
 * but errors kept a decision from being made, `pass` otherwise. Every root names a file and a line.
 */

export interface SkillVerdictInput {
  skill: string;
  roots: RootDecision[];
  weakening: WeakeningFinding[];
  thresholds: Thresholds;
  discriminator?: DiscriminatorSummary;
  trigger?: TriggerSummary;
  /** The base arm's batteries; undefined when the skill has no base arm (a new skill, a sweep). */
  baseFigures?: ArmFigures;
  contaminated: { caseId: string; trial: number; call: ToolCall }[];
  lockstep?: { message: string; file: string; line: number };
  errors: string[];
  validationErrors: Diagnostic[];
  /** Errors of the skill's files that the base has too, in files the change leaves alone. */
  preExistingValidation?: Diagnostic[];
  policy: VerdictPolicy;
  /** A maintainer's approval of weakening (a label on the PR, a base-branch workflow input, the local operator). */
  override?: { by: string };
  /** Risky actions and static-review findings of the skill (behaviour.ts, static-review): roots as they are. */
  security?: Root[];
  locs: { skillFile: string; descriptionLine: number; metaFile?: string; metaLine?: number };
}

export interface SkillVerdict {
  verdict: Verdict;
  /** Every root, blocking ones first. */
  roots: Root[];
  /** The roots that block the merge: new ones, undecided ones per policy, weakening, thresholds, errors … */
  blockingRoots: Root[];
  /** The roots this PR introduced (status `new`): statistically new failures and suite weakening. */
  newRoots: Root[];
  /** Short reasons, most important first. */
  reasons: string[];
}

/** Order of kinds among blocking roots: what a reviewer should look at first. */
const KIND_ORDER: RootKind[] = [
  "risky-action",
  "static-review",
  "assertion",
  "gate",
  "trigger",
  "suite-weakened",
  "suite-tightened",
  "threshold",
  "contamination",
  "lockstep",
  "validation",
  "error",
];

export function decideSkillVerdict(input: SkillVerdictInput): SkillVerdict {
  // Reasons are said in this order: statistics, suite changes, thresholds, contamination, lockstep, validation, errors.
  const parts = [
    securityFindings(input),
    statisticalFindings(input),
    weakeningFindings(input),
    thresholdFindings(input),
    contaminationFindings(input),
    lockstepFindings(input),
    validationFindings(input),
    errorFindings(input),
  ];
  const roots = parts.flatMap((p) => p.roots);
  const reasons = parts.flatMap((p) => p.reasons);
  const undecided = new Set(parts.flatMap((p) => p.undecided));
  const order = (r: Root) => (r.blocking ? 0 : 1) * 100 + KIND_ORDER.indexOf(r.kind);
  roots.sort((a, b) => order(a) - order(b) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const blocking = roots.filter((r) => r.blocking);
  const verdict: Verdict = blocking.some((r) => !undecided.has(r))
    ? "fail"
    : blocking.length > 0
      ? "error"
      : "pass";
  if (verdict === "pass" && reasons.length === 0) reasons.push("no failing roots");
  return {
    verdict,
    roots,
    blockingRoots: blocking,
    newRoots: roots.filter(isNewRoot),
    reasons,
  };
}

/** A root this PR introduced: decided new, or a loosening of the suite or policy (a tightening is only reported). */
export function isNewRoot(r: Root): boolean {
  return r.status === "new" && (r.change === undefined || r.change === "loosened");
}

/** The run's verdict: any failed skill fails it; otherwise any error (per skill or of the run) makes it `error`. */
export function combineVerdicts(skills: Verdict[], runErrors: string[]): Verdict {
  if (skills.includes("fail")) return "fail";
  if (skills.includes("error") || runErrors.length > 0) return "error";
  return "pass";
}
