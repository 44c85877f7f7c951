/**
 * The parts of a skill's verdict besides thresholds, each as roots and reasons: security, statistics (new roots),
 * suite changes, contamination, lockstep, validation, errors.
 */
import { MODULE_LOADS_SUFFIX, TRIAL_OK } from "../attribute/roots.js";
import type { Root, RootKind, ToolCall, VerdictPolicy } from "../model/index.js";
import type { SkillVerdictInput } from "./decide.js";
import { type Findings, findings, plainRoot, shortJson, skillLocOf } from "./finding-roots.js";
import type { RootDecision } from "./new-roots.js";

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

/** What the skill made the agent do and what the PR adds to its folder: each head-only finding blocks on its own. */
export function securityFindings(input: SkillVerdictInput): Findings {
  const roots = input.security ?? [];
  const blocking = roots.filter((r) => r.blocking).length;
  const reported = roots.length - blocking;
  const reasons = [
    ...(blocking ? [`${blocking} new risky action(s) or static-review finding(s) (blocking)`] : []),
    ...(reported
      ? [`${reported} security finding(s) reported, not blocking (seen at base too, or for review)`]
      : []),
  ];
  return findings([...roots], reasons);
}

/** Statistical roots (head vs base), and a reason per status. */
export function statisticalFindings(input: SkillVerdictInput): Findings {
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
export function weakeningFindings(input: SkillVerdictInput): Findings {
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

/** Baseline contamination: the without-skill arm saw the skill, so lift means nothing. */
export function contaminationFindings(input: SkillVerdictInput): Findings {
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

export function lockstepFindings(input: SkillVerdictInput): Findings {
  const lag = input.lockstep;
  if (!lag) return findings();
  const root = plainRoot(input.skill, "lockstep", "lockstep", lag, {
    title: "Skill and suite versions out of lockstep",
    message: lag.message,
  });
  return findings([root], [`version lag: ${lag.message}`]);
}

export function validationFindings(input: SkillVerdictInput): Findings {
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
export function errorFindings(input: SkillVerdictInput): Findings {
  const roots = input.errors.map((e, i) =>
    plainRoot(input.skill, `error/${i + 1}`, "error", skillLocOf(input), {
      title: "Evaluation error",
      message: e,
    }),
  );
  const reasons = roots.length > 0 ? [`${roots.length} error(s) kept the verdict from being decided`] : [];
  return findings(roots, reasons, roots);
}
