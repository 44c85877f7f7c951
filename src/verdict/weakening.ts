import { assertionChanges, comparatorOf, short } from "../grade/assertions/compare.js";
// The built-in assertion types, each with its comparator.
import "../grade/assertions/index.js";
import {
  type Assertion,
  type Case,
  type Skill,
  type SourceLocation,
  type Suite,
  THRESHOLD_KEYS,
} from "../model/index.js";
import { rankMinimum, sameJson } from "../util/change-rank.js";
import { inSuite, type Trees } from "./dependencies.js";
import {
  type Add,
  compareCase,
  compareInputs,
  compareOracle,
  compareTriggers,
  type SkillFiles,
  skillFilesOf,
} from "./weakening-parts.js";

export type { Trees } from "./dependencies.js";

/**
 * Suite changes: what a PR removed, loosened or tightened in the eval suite of a skill it edits. Each finding
 * becomes a `suite-weakened` root: a loosening blocks unless a maintainer approves it, a tightening is reported
 * and never blocks. The rule is conservative: a change that cannot be shown to accept a subset of what the base
 * accepted (a reworded prompt, a new regex, other gate options, an edited predicate or oracle) is a loosening.
 *
 * Every file a check reads at grading is compared too, in full (dependencies.ts): a predicate's imports, the
 * oracle's working folder, files named by parameters, fixtures. A changed one is a loosening at its first changed
 * line: each arm grades with its own checkout's copy, so the check itself changed.
 *
 * Findings sit on the head line that replaced the loosened item and name the base line it loosened; a deleted
 * item sits on the head line of its case when the case survives, else on its base line in the same file when that
 * file survives, else on line 1 of the head suite's meta file (the message then names the deleted file).
 */

export type WeakeningKind =
  | "suite-removed"
  | "skill-removed"
  | "case-removed"
  | "case-changed"
  | "assertion-removed"
  | "assertion-changed"
  | "discriminator-removed"
  | "discriminator-unmarked"
  | "forbidden-values-removed"
  | "accepted-values-added"
  | "range-widened"
  | "assertion-type-changed"
  | "condition-added"
  | "condition-changed"
  | "dependency-added"
  | "predicate-changed"
  | "oracle-changed"
  | "vars-changed"
  | "dependency-changed"
  | "threshold-lowered"
  | "trials-lowered"
  | "trigger-prompt-removed"
  | "trigger-prompt-moved"
  | "trigger-weight-lowered"
  | "required-values-removed"
  // Tightenings (reported, never blocking):
  | "case-added"
  | "assertion-added"
  | "discriminator-marked"
  | "forbidden-values-added"
  | "accepted-values-removed"
  | "range-narrowed"
  | "condition-removed"
  | "dependency-removed"
  | "threshold-raised"
  | "trials-raised"
  | "trigger-prompt-added"
  | "required-values-added";

export interface WeakeningFinding {
  kind: WeakeningKind;
  /** `loosened` (default) blocks unless a maintainer approves; `tightened` is reported only. */
  direction?: "loosened" | "tightened";
  /** Stable id for the root: `suite-weakened/<kind>/<detail>`, `suite-tightened/<kind>/<detail>` for a tightening. */
  id: string;
  skill: string;
  message: string;
  /** Where the head shows it (the line that replaced, or the nearest surviving line). */
  file: string;
  line: number;
  /** The base line it changed, when there was one. */
  base?: { file: string; line: number };
}

/** What every comparison of one suite diff shares: both suites, where findings go, where a deleted item sits. */
interface SuiteDiff {
  base: Suite;
  head: Suite;
  trees: Trees | undefined;
  add: Add;
  deletedAt: (baseLoc: SourceLocation, headCase?: Case) => { loc: SourceLocation; where: string };
  /** Each arm's installed skill files, when both skills and both checkouts are known. */
  skillFiles: SkillFiles | undefined;
}

const at = (l: SourceLocation) => `(${l.file}:${l.line} at base)`;

/**
 * `head` undefined: the PR deleted the suite of a skill it keeps; one finding on line 1 of the head SKILL.md
 * (or of the base suite's meta file when the head skill is unknown).
 */
export function diffSuites(
  base: Suite,
  head: Suite | undefined,
  baseSkill?: Skill,
  headSkill?: Skill,
  trees?: Trees,
): WeakeningFinding[] {
  if (!head) return [suiteRemoved(base, baseSkill, headSkill)];
  const findings: WeakeningFinding[] = [];
  const fallback: SourceLocation = {
    file: head.meta.loc.file || headSkill?.path || baseSkill?.path || head.root,
    line: 1,
    column: 1,
  };
  const d: SuiteDiff = {
    base,
    head,
    trees,
    add: adder(findings, head.skill || base.skill),
    deletedAt: deletedAt(new Set(head.sourceFiles), fallback),
    skillFiles: trees && skillFilesOf(baseSkill, headSkill),
  };
  compareCases(d);
  compareMeta(d);
  compareOracle(base, head, d.add, trees);
  if (!sameJson(base.meta.vars, head.meta.vars))
    d.add(
      "vars-changed",
      "meta",
      head.meta.keyLoc.vars ?? head.meta.loc,
      `The suite's vars changed (${short(JSON.stringify(base.meta.vars), 80)} at base, ${short(JSON.stringify(head.meta.vars), 80)} here): expected values are part of the suite.`,
      base.meta.keyLoc.vars ?? base.meta.loc,
    );
  compareTriggers(base, head, d.add, d.deletedAt);
  if (trees) compareInputs(base, head, d.add, trees, fallback);
  return findings;
}

/** Findings pushed into `findings`: a tightening is no weakening, and its root says so in its id and kind. */
function adder(findings: WeakeningFinding[], skill: string): Add {
  return (kind, detail, loc, message, baseLoc, direction = "loosened") =>
    findings.push({
      kind,
      ...(direction === "tightened" ? { direction } : {}),
      id: `${direction === "tightened" ? "suite-tightened" : "suite-weakened"}/${kind}/${detail}`,
      skill,
      message,
      file: loc.file,
      line: loc.line,
      ...(baseLoc ? { base: { file: baseLoc.file, line: baseLoc.line } } : {}),
    });
}

/** Where a deleted item is annotated, and the words that say so. */
function deletedAt(headFiles: Set<string>, fallback: SourceLocation): SuiteDiff["deletedAt"] {
  return (baseLoc, headCase) => {
    if (headCase) return { loc: headCase.loc, where: `(was ${baseLoc.file}:${baseLoc.line} at base)` };
    if (headFiles.has(baseLoc.file)) return { loc: baseLoc, where: `(line ${baseLoc.line} at base)` };
    return {
      loc: fallback,
      where: `(was ${baseLoc.file}:${baseLoc.line} at base; that file is deleted at head, annotated on line 1 of ${fallback.file})`,
    };
  };
}

/** Each base case against the head case of its id (removed, or compared with its assertions); cases added. */
function compareCases(d: SuiteDiff): void {
  const headCases = new Map(d.head.cases.map((c) => [c.id, c]));
  const baseCaseIds = new Set(d.base.cases.map((c) => c.id));
  for (const bc of d.base.cases) {
    const hc = headCases.get(bc.id);
    if (!hc) {
      const { loc, where } = d.deletedAt(bc.loc);
      const discriminators = bc.assertions.filter((a) => a.discriminator).map((a) => a.id);
      const discr = discriminators.length > 0 ? `, with discriminator(s) ${discriminators.join(", ")}` : "";
      d.add(
        "case-removed",
        bc.id,
        loc,
        `Case "${bc.id}" (${bc.assertions.length} assertion(s)${discr}) was removed ${where}.`,
        bc.loc,
      );
      continue;
    }
    compareCase(bc, hc, d.add, d.trees, { base: d.base.meta, head: d.head.meta }, d.skillFiles);
    compareCaseAssertions(d, bc, hc);
  }
  for (const hc of d.head.cases)
    if (!baseCaseIds.has(hc.id))
      d.add(
        "case-added",
        hc.id,
        hc.loc,
        `Case "${hc.id}" (${hc.assertions.length} assertion(s)) was added.`,
        undefined,
        "tightened",
      );
}

/** A case's assertions by id (`D:x` renamed `x` is the same one, un-marked); assertions added. */
function compareCaseAssertions(d: SuiteDiff, bc: Case, hc: Case): void {
  const headAssertions = new Map(hc.assertions.map((a) => [a.id, a]));
  const baseIds = new Set(bc.assertions.map((a) => a.id));
  const matchedHead = new Set<string>();
  for (const ba of bc.assertions) {
    let ha = headAssertions.get(ba.id);
    const detail = `${bc.id}/${ba.id}`;
    // `D:x` renamed to `x`: an un-marked discriminator, not a removal.
    const bare = ba.id.startsWith("D:") ? ba.id.slice(2) : undefined;
    if (!ha && bare !== undefined && !baseIds.has(bare)) {
      const renamed = headAssertions.get(bare);
      if (renamed && !renamed.discriminator)
        d.add(
          "discriminator-unmarked",
          detail,
          renamed.loc,
          `Discriminator "${ba.id}" of case "${bc.id}" was renamed "${bare}" and is no longer a discriminator ${at(ba.loc)}.`,
          ba.loc,
        );
      ha = renamed;
    }
    if (!ha) {
      const { loc, where } = d.deletedAt(ba.loc, hc);
      const what = ba.discriminator ? "Discriminator" : "Assertion";
      d.add(
        ba.discriminator ? "discriminator-removed" : "assertion-removed",
        detail,
        loc,
        `${what} "${ba.id}" (${ba.rawType}) of case "${bc.id}" was removed ${where}.`,
        ba.loc,
      );
      continue;
    }
    matchedHead.add(ha.id);
    compareDiscriminator(d, bc.id, ba, ha);
    compareAssertion(d, bc.id, ba, ha);
  }
  for (const ha of hc.assertions)
    if (!matchedHead.has(ha.id) && !baseIds.has(ha.id))
      d.add(
        "assertion-added",
        `${hc.id}/${ha.id}`,
        ha.loc,
        `Assertion "${ha.id}" (${ha.rawType}) was added to case "${hc.id}".`,
        undefined,
        "tightened",
      );
}

function compareDiscriminator(d: SuiteDiff, caseId: string, ba: Assertion, ha: Assertion): void {
  const detail = `${caseId}/${ba.id}`;
  if (ba.discriminator && !ha.discriminator && ha.id === ba.id)
    d.add(
      "discriminator-unmarked",
      detail,
      ha.loc,
      `Assertion "${ba.id}" of case "${caseId}" is no longer marked a discriminator ${at(ba.loc)}.`,
      ba.loc,
    );
  else if (!ba.discriminator && ha.discriminator)
    d.add(
      "discriminator-marked",
      detail,
      ha.loc,
      `Assertion "${ha.id}" of case "${caseId}" is now a discriminator.`,
      ba.loc,
      "tightened",
    );
}

/**
 * One assertion, base against head, as its type ranks it (`grade/assertions/compare.ts`); and a predicate module
 * whose path stayed but whose code changed is a new check.
 */
function compareAssertion(d: SuiteDiff, caseId: string, ba: Assertion, ha: Assertion): void {
  const detail = `${caseId}/${ha.id}`;
  const name = `Assertion "${ha.id}" of case "${caseId}"`;
  for (const c of assertionChanges(ba, ha, name)) {
    const tightened = c.rank === "tightened";
    const message = tightened ? `${c.message}.` : `${c.message} ${at(ba.loc)}.`;
    d.add(c.kind, `${detail}${c.sub ?? ""}`, ha.loc, message, ba.loc, tightened ? "tightened" : "loosened");
  }
  const module = ba.rawType === ha.rawType ? comparatorOf(ha.type).module : undefined;
  const [bm, hm] = [module?.(ba), module?.(ha)];
  if (!d.trees || hm === undefined || bm !== hm) return;
  const bf = inSuite(d.base.root, hm);
  const hf = inSuite(d.head.root, hm);
  if ((bf && d.trees.base.digest(bf)) !== (hf && d.trees.head.digest(hf)))
    d.add(
      "predicate-changed",
      `${detail}/module-content`,
      ha.loc,
      `${name}'s predicate ${hm} was edited ${at(ba.loc)}.`,
      ba.loc,
    );
}

/** The suite's thresholds and trials per case: lower is looser. */
function compareMeta(d: SuiteDiff): void {
  const [bm, hm] = [d.base.meta, d.head.meta];
  for (const key of THRESHOLD_KEYS) {
    const [b, h] = [bm.thresholds[key], hm.thresholds[key]];
    const rank = rankMinimum(b, h);
    if (rank === "same") continue;
    const loc = hm.keyLoc[`thresholds.${key}`] ?? hm.keyLoc[key] ?? hm.loc;
    const baseLoc = bm.keyLoc[`thresholds.${key}`] ?? bm.loc;
    if (rank === "loosened")
      d.add(
        "threshold-lowered",
        key,
        loc,
        h === undefined
          ? `Threshold ${key} (${b} at base) was removed ${at(baseLoc)}.`
          : `Threshold ${key} was lowered from ${b} to ${h} ${at(baseLoc)}.`,
        baseLoc,
      );
    else
      d.add(
        "threshold-raised",
        key,
        loc,
        `Threshold ${key} was ${b === undefined ? `set to ${h}` : `raised from ${b} to ${h}`}.`,
        b === undefined ? undefined : baseLoc,
        "tightened",
      );
  }
  const [bt, ht] = [bm.trials, hm.trials];
  const rank = rankMinimum(bt, ht);
  if (rank === "same") return;
  const loc = hm.keyLoc.trials ?? hm.loc;
  const baseLoc = bm.keyLoc.trials ?? bm.loc;
  if (rank === "loosened")
    d.add(
      "trials-lowered",
      "trials",
      loc,
      ht === undefined
        ? `Trials per case (${bt} at base) were removed: the default applies ${at(baseLoc)}.`
        : `Trials per case were lowered from ${bt} to ${ht} ${at(baseLoc)}.`,
      baseLoc,
    );
  else
    d.add(
      "trials-raised",
      "trials",
      loc,
      `Trials per case were ${bt === undefined ? `set to ${ht}` : `raised from ${bt} to ${ht}`}.`,
      undefined,
      "tightened",
    );
}

function suiteRemoved(base: Suite, baseSkill?: Skill, headSkill?: Skill): WeakeningFinding {
  const assertions = base.cases.reduce((n, c) => n + c.assertions.length, 0);
  const discriminators = base.cases.reduce(
    (n, c) => n + c.assertions.filter((a) => a.discriminator).length,
    0,
  );
  const prompts = (base.trigger?.shouldFire.length ?? 0) + (base.trigger?.shouldNotFire.length ?? 0);
  const file = headSkill?.path ?? baseSkill?.path ?? base.meta.loc.file;
  return {
    kind: "suite-removed",
    id: "suite-weakened/suite-removed/suite",
    skill: headSkill?.name ?? base.skill,
    message:
      `The eval suite ${base.root} was deleted at head (or moved where it is not found): ${base.cases.length} case(s), ${assertions} assertion(s) ` +
      `(${discriminators} discriminator(s)) and ${prompts} trigger prompt(s) are gone (annotated on line 1 of ${file}).`,
    file,
    line: 1,
    base: { file: base.meta.loc.file, line: 1 },
  };
}

/** The PR deleted a skill whose suite existed at base: nothing will hold its replacement to that suite. */
export function skillRemoved(base: Suite, baseSkill: Skill): WeakeningFinding {
  const assertions = base.cases.reduce((n, c) => n + c.assertions.length, 0);
  return {
    kind: "skill-removed",
    id: "suite-weakened/skill-removed/skill",
    skill: baseSkill.name,
    message: `The skill ${baseSkill.name} (${baseSkill.path}) and its eval suite ${base.root} (${base.cases.length} case(s), ${assertions} assertion(s)) were deleted: deleting a gated skill needs a maintainer's approval.`,
    file: baseSkill.path,
    line: 1,
    base: { file: baseSkill.path, line: 1 },
  };
}
