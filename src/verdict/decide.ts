import { MODULE_LOADS_SUFFIX, TRIAL_OK } from "../attribute/roots.js";
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
import type { RootDecision } from "./new-roots.js";
import {
  type ArmFigures,
  confidenceText,
  figureText,
  judgeThresholds,
  type ThresholdJudgement,
} from "./thresholds.js";
import type { WeakeningFinding } from "./weakening.js";

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

const pct = (x: number): string => `${Math.round(x * 1000) / 10} %`;

const shortJson = (x: unknown, n = 120): string => {
  const s = typeof x === "string" ? x : (JSON.stringify(x) ?? String(x));
  return s.length > n ? `${s.slice(0, n - 1)}…` : s;
};

function rootKindOf(d: RootDecision): RootKind {
  if (d.mode === "trigger") return "trigger";
  if (d.checkId.endsWith(`/${TRIAL_OK}`)) return "error";
  if (d.checkId.endsWith(MODULE_LOADS_SUFFIX)) return "gate";
  return "assertion";
}

export function isBlocking(
  d: Pick<RootDecision, "status" | "undecidedBecause">,
  policy: VerdictPolicy,
): boolean {
  switch (d.status) {
    case "new":
      return true;
    case "inconclusive":
      return policy.inconclusive === "fail" || d.undecidedBecause === "confirmation-error";
    case "pre-existing":
      return policy.preExisting === "fail";
    case "not-significant":
      return false;
    case "error":
      return true;
    case "head-only":
      return (policy.headOnly ?? "fail") === "fail";
  }
}

function decisionTitle(d: RootDecision): string {
  const counts = d.base
    ? `${d.head.failed}/${d.head.trials} trials at head, ${d.base.failed}/${d.base.trials} at base`
    : `${d.head.failed}/${d.head.trials} trials at head`;
  const what =
    d.mode === "trigger"
      ? d.checkId.startsWith("trigger/nofire/")
        ? `Trigger query ${d.checkId} fires when it should not`
        : `Trigger query ${d.checkId} does not fire`
      : `${d.level ? `${d.level[0]!.toUpperCase()}${d.level.slice(1)} ${d.discriminator ? "discriminator" : "check"}` : d.discriminator ? "Discriminator" : "Check"} ${d.checkId} fails`;
  const label = {
    new: "New",
    "pre-existing": "Pre-existing",
    "not-significant": "Not significant",
    inconclusive: "Undecided",
    "head-only": "Failing",
    error: "Could not evaluate",
  }[d.status];
  return `${label}: ${what} (${counts})`;
}

function rootFromDecision(d: RootDecision, input: SkillVerdictInput): Root {
  const kind = rootKindOf(d);
  // A trigger root is caused by the description the router reads: annotate it there.
  const loc =
    kind === "trigger"
      ? { file: input.locs.skillFile, line: input.locs.descriptionLine, column: 1 }
      : { file: d.loc.file, line: d.loc.line, column: d.loc.column };
  const where = kind === "trigger" ? ` Query at ${d.loc.file}:${d.loc.line}.` : "";
  const cascade = d.cascaded.length > 0 ? ` ${d.cascaded.length} check(s) cascade from it.` : "";
  return {
    id: d.checkId,
    kind,
    skill: d.skill,
    status: d.status,
    title: decisionTitle(d),
    message: `${d.message}${where} ${d.reason}.${cascade}`,
    ...loc,
    head: d.head,
    ...(d.base ? { base: d.base } : {}),
    ...(d.pValue !== undefined ? { pValue: d.pValue } : {}),
    ...(d.pValue !== undefined && d.threshold !== undefined ? { threshold: d.threshold } : {}),
    cascaded: d.cascaded,
    ...(d.level ? { level: d.level } : {}),
    blocking: isBlocking(d, input.policy),
  };
}

/** Roots and reasons one part of the decision found; `undecided`: blocking roots that stand for "could not decide". */
interface Findings {
  roots: Root[];
  reasons: string[];
  undecided: Root[];
}

const findings = (roots: Root[] = [], reasons: string[] = [], undecided: Root[] = []): Findings => ({
  roots,
  reasons,
  undecided,
});

export function decideSkillVerdict(input: SkillVerdictInput): SkillVerdict {
  // Reasons are said in this order: statistics, suite changes, thresholds, contamination, lockstep, validation, errors.
  const parts = [
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

/** A root that is no statistical decision (weakening, threshold, contamination, lockstep, validation, error). */
function plainRoot(
  skill: string,
  id: string,
  kind: RootKind,
  loc: { file: string; line: number; column?: number },
  text: { title: string; message: string },
  blocking = true,
  status: Root["status"] = "head-only",
): Root {
  return {
    id,
    kind,
    skill,
    status,
    title: text.title,
    message: text.message,
    file: loc.file,
    line: loc.line,
    column: loc.column ?? 1,
    cascaded: [],
    blocking,
  };
}

const skillLocOf = (input: SkillVerdictInput) => ({ file: input.locs.skillFile, line: 1, column: 1 });

/** Statistical roots (head vs base), and a reason per status. */
function statisticalFindings(input: SkillVerdictInput): Findings {
  const decisions = input.roots.filter((d) => d.skill === input.skill);
  const out = findings();
  for (const d of decisions) {
    const root = rootFromDecision(d, input);
    out.roots.push(root);
    // An agent that errored, an assertion that could not be evaluated, confirmation that could not run:
    // these block, but as "could not decide" (error), not as a failure of the skill.
    if (
      root.blocking &&
      (root.kind === "error" ||
        d.status === "error" ||
        d.errorOnly ||
        d.undecidedBecause === "confirmation-error")
    )
      out.undecided.push(root);
  }
  out.reasons.push(...statusReasons(decisions, input.policy));
  return out;
}

function statusReasons(decisions: RootDecision[], policy: VerdictPolicy): string[] {
  const reasons: string[] = [];
  const count = (s: RootDecision["status"]) => decisions.filter((d) => d.status === s).length;
  if (count("new") > 0) reasons.push(`${count("new")} new root failure(s)`);
  if (count("inconclusive") > 0) {
    const how =
      policy.inconclusive === "fail"
        ? "blocking: verdict.inconclusive is fail"
        : "not blocking; verdict.inconclusive: fail in the base config makes it block";
    reasons.push(`${count("inconclusive")} root(s) undecided after confirmation trials (${how})`);
  }
  if (count("head-only") > 0) {
    const how = (policy.headOnly ?? "fail") === "fail" ? "blocking" : "not blocking by policy";
    reasons.push(`${count("head-only")} failing root(s) with no base to compare (${how})`);
  }
  if (count("pre-existing") > 0) {
    const how = policy.preExisting === "fail" ? "blocking by policy" : "not blocking";
    reasons.push(`${count("pre-existing")} pre-existing root(s) that fail at base too (${how})`);
  }
  if (count("not-significant") > 0)
    reasons.push(
      `${count("not-significant")} root(s) failing at head only, not significantly (not blocking)`,
    );
  if (count("error") > 0)
    reasons.push(`${count("error")} check(s) could not be evaluated (blocking: an error is never a pass)`);
  return reasons;
}

/** Suite changes: a loosening blocks unless a maintainer approved it; a tightening is reported only. */
function weakeningFindings(input: SkillVerdictInput): Findings {
  const { override, skill } = input;
  const mine = input.weakening.filter((w) => w.skill === skill);
  const out = findings();
  for (const f of mine) {
    const loosened = f.direction !== "tightened";
    const accepted = loosened && override ? ` Accepted by a maintainer's override (${override.by}).` : "";
    const title = loosened ? `Suite weakened: ${f.kind}` : `Suite tightened: ${f.kind}`;
    const root = plainRoot(
      skill,
      f.id,
      loosened ? "suite-weakened" : "suite-tightened",
      f,
      { title, message: `${f.message}${accepted}` },
      loosened && !override,
      "new",
    );
    root.change = loosened ? "loosened" : "tightened";
    out.roots.push(root);
  }
  const tightenedCount = mine.filter((w) => w.direction === "tightened").length;
  if (tightenedCount > 0)
    out.reasons.push(`suite tightened in ${tightenedCount} place(s) (reported, not blocking)`);
  const weakened = mine.length - tightenedCount;
  if (weakened > 0)
    out.reasons.push(
      override
        ? `suite weakened in ${weakened} place(s), accepted by a maintainer's override (${override.by})`
        : `suite weakened in ${weakened} place(s) in this PR`,
    );
  return out;
}

/**
 * Thresholds from meta.json / config, each judged with its uncertainty and against the base (`thresholds.ts`): only
 * a head confidently below a threshold the base meets (or with no base to compare) blocks.
 */
function thresholdFindings(input: SkillVerdictInput): Findings {
  const head = { discriminator: input.discriminator, trigger: input.trigger };
  const judged = judgeThresholds(input.thresholds, head, input.baseFigures, input.policy.alpha);
  const parts = judged.map((j) => thresholdFinding(input, j));
  const out = findings(
    parts.flatMap((p) => p.roots),
    parts.flatMap((p) => p.reasons),
    parts.flatMap((p) => p.undecided),
  );
  const disc = input.discriminator;
  if (disc?.styleGuideNotGuardrail)
    out.reasons.push(
      `style guide, not a guardrail: overall lift ${pct(disc.lift)} but discriminator lift ${pct(disc.discriminatorLift)}`,
    );
  return out;
}

const THRESHOLD_NAMES: Record<keyof Thresholds, string> = {
  discriminatorPassRate: "Discriminator pass rate",
  discriminatorLift: "Discriminator lift",
  triggerPrecision: "Trigger precision",
  triggerRecall: "Trigger recall",
};

/** Why a figure could not be computed. */
function missingText(input: SkillVerdictInput, key: keyof Thresholds): string {
  const notRun = (battery: string) => `the ${battery} battery did not run`;
  if (key === "discriminatorPassRate")
    return input.discriminator ? "no discriminator assertion was graded" : notRun("discriminator");
  if (key === "discriminatorLift")
    return input.discriminator
      ? "discriminator assertions were not graded in both skill and baseline trials"
      : notRun("discriminator");
  if (!input.trigger) return notRun("trigger");
  return key === "triggerPrecision"
    ? "the skill never fired, so precision is undefined"
    : "there are no should-fire queries";
}

function thresholdFinding(input: SkillVerdictInput, j: ThresholdJudgement): Findings {
  const { locs, policy } = input;
  const key = j.key;
  const metaLoc = { file: locs.metaFile ?? locs.skillFile, line: locs.metaLine ?? 1, column: 1 };
  const id = `threshold/${key}`;
  const proxy =
    input.trigger?.proxy && key.startsWith("trigger") ? ` (router: ${input.trigger.router}, a proxy)` : "";
  const what = `${THRESHOLD_NAMES[key]}${proxy}`;
  const baseText = j.base
    ? `; base ${figureText(j.base, key)}`
    : input.baseFigures
      ? "; base not measured"
      : "";
  if (j.status === "unmeasured") {
    const errored = input.errors.length > 0;
    // The base ran the same battery and lacked the same figure: the suite's shape, not this change.
    const baseRan = key.startsWith("trigger") ? input.baseFigures?.trigger : input.baseFigures?.discriminator;
    const preExisting = !errored && !!baseRan && !j.base;
    const root = plainRoot(
      input.skill,
      id,
      "threshold",
      metaLoc,
      {
        title: `Threshold ${key} could not be checked`,
        message: `${key} ≥ ${j.min} is required but ${missingText(input, key)}${errored ? " (trials errored)" : ""}${preExisting ? "; the base could not measure it either (pre-existing)" : ""}.`,
      },
      !preExisting || policy.preExisting === "fail",
      preExisting ? "pre-existing" : "head-only",
    );
    // Unmeasurable because trials errored: "could not decide", not a failure of the skill.
    return findings([root], [`threshold ${key} could not be checked`], errored ? [root] : []);
  }
  const head = j.head!;
  const confidence = confidenceText(j.alpha);
  const measured = `measured ${figureText(head, key)}${baseText}`;
  if (j.status === "not-significant") {
    const root = plainRoot(
      input.skill,
      id,
      "threshold",
      metaLoc,
      {
        title: `${what} ${head.value.toFixed(3)} is under the threshold ${j.min}, not with confidence`,
        message: `${key} must be ≥ ${j.min}; ${measured}. Its interval reaches the threshold at ${confidence} confidence: reported, not blocking.`,
      },
      false,
      "not-significant",
    );
    return findings(
      [root],
      [`${key} ${head.value.toFixed(3)} under ${j.min}, not significantly (not blocking)`],
    );
  }
  if (j.status === "pre-existing") {
    const blocking = policy.preExisting === "fail";
    const root = plainRoot(
      input.skill,
      id,
      "threshold",
      metaLoc,
      {
        title: `${what} is below the threshold ${j.min} at head and at base`,
        message: `${key} must be ≥ ${j.min}; ${measured}. The base misses it too: pre-existing${blocking ? " (blocking by policy)" : ", not blocking"}.`,
      },
      blocking,
      "pre-existing",
    );
    return findings([root], [`${key} below ${j.min} at head and base (pre-existing)`]);
  }
  const compared = !!input.baseFigures && j.compared;
  const blocking = compared || (policy.headOnly ?? "fail") === "fail";
  const root = plainRoot(
    input.skill,
    id,
    "threshold",
    metaLoc,
    {
      title: `${what} ${head.value.toFixed(3)} is below the threshold ${j.min}`,
      message: `${key} must be ≥ ${j.min}; ${measured}. Below it with ${confidence} confidence${compared ? ", while the base meets it" : ", with no base to compare"}.`,
    },
    blocking,
    compared ? "new" : "head-only",
  );
  return findings([root], [`${key} ${head.value.toFixed(3)} < ${j.min}`]);
}

/** Baseline contamination: the without-skill arm saw the skill, so lift means nothing. */
function contaminationFindings(input: SkillVerdictInput): Findings {
  const byCase = new Map<string, { trial: number; call: ToolCall }[]>();
  for (const c of input.contaminated) byCase.set(c.caseId, [...(byCase.get(c.caseId) ?? []), c]);
  const out = findings();
  for (const [caseId, hits] of [...byCase].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const first = hits[0]!;
    out.roots.push(
      plainRoot(input.skill, `contamination/${caseId}`, "contamination", skillLocOf(input), {
        title: `Baseline of case ${caseId} touched the skill`,
        message: `Baseline trial(s) ${hits.map((h) => h.trial).join(", ")} of case "${caseId}" reached the skill: ${first.call.name} ${shortJson(first.call.input)}. Without-skill results are invalid.`,
      }),
    );
  }
  if (byCase.size > 0) out.reasons.push(`baseline contaminated in ${byCase.size} case(s)`);
  return out;
}

function lockstepFindings(input: SkillVerdictInput): Findings {
  const lag = input.lockstep;
  if (!lag) return findings();
  const root = plainRoot(input.skill, "lockstep", "lockstep", lag, {
    title: "Skill and suite versions out of lockstep",
    message: lag.message,
  });
  return findings([root], [`version lag: ${lag.message}`]);
}

function validationFindings(input: SkillVerdictInput): Findings {
  const invalid = input.validationErrors.filter((d) => d.severity === "error");
  const roots = invalid.map((d) =>
    plainRoot(input.skill, `validation/${d.code}/${d.file}:${d.line}`, "validation", d, {
      title: `Invalid: ${d.code}`,
      message: d.message,
    }),
  );
  // Found, not made, by this change: reported, blocking only when the policy fails pre-existing roots.
  const found = (input.preExistingValidation ?? []).filter((d) => d.severity === "error");
  const blocking = input.policy.preExisting === "fail";
  for (const d of found)
    roots.push(
      plainRoot(
        input.skill,
        `validation/${d.code}/${d.file}:${d.line}`,
        "validation",
        d,
        {
          title: `Invalid at base too: ${d.code}`,
          message: `${d.message} (the base has this error too, in a file this change leaves alone)`,
        },
        blocking,
        "pre-existing",
      ),
    );
  const reasons = invalid.length > 0 ? [`${invalid.length} validation error(s)`] : [];
  if (found.length > 0) reasons.push(`${found.length} validation error(s) the base has too (pre-existing)`);
  return findings(roots, reasons);
}

/** Errors that kept a decision from being made: each blocks, as "could not decide". */
function errorFindings(input: SkillVerdictInput): Findings {
  const roots = input.errors.map((e, i) =>
    plainRoot(input.skill, `error/${i + 1}`, "error", skillLocOf(input), {
      title: "Evaluation error",
      message: e,
    }),
  );
  const reasons = roots.length > 0 ? [`${roots.length} error(s) kept the verdict from being decided`] : [];
  return findings(roots, reasons, roots);
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
