import { promptTemplate } from "../detect/foreign-vars.js";
import type {
  Assertion,
  Case,
  Skill,
  SourceLocation,
  Suite,
  SuiteMeta,
  TriggerQuery,
} from "../model/index.js";
import {
  checkInputs,
  commandFiles,
  firstDifferentLine,
  type InputSet,
  inSuite,
  type Trees,
  type TreeView,
} from "./dependencies.js";

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

/** Every needle must occur (`contains X` with `values` means all of them): adding one narrows what passes. */
const ALL_OF: ReadonlySet<string> = new Set(["contains", "icontains", "file-contains"]);

/** The needles of an all-of assertion (`values`, else `[value]`) as strings, or undefined. */
function needlesOf(a: Assertion): string[] | undefined {
  if (!ALL_OF.has(a.type)) return undefined;
  const v = a.params.values ?? a.params.value;
  if (v === undefined) return undefined;
  return (Array.isArray(v) ? v : [v]).map(String);
}

/**
 * Does `narrow` (read positively, without its `not-`) accept only outputs `wide` accepts? Provable cases only:
 * equals, contains, icontains and one-of over the same extraction (`regex`, and anything else, never ranks:
 * a type change there counts as a loosening). `equals` trims and compares numbers numerically, so only a string
 * `equals` ranks against the text types.
 */
function acceptsSubset(narrow: Assertion, wide: Assertion): boolean {
  const fold = wide.type === "icontains" || narrow.type === "icontains";
  const norm = (s: string) => (fold ? s.toLowerCase() : s);
  // every needle of `wide` occurs in some text `narrow` requires
  const covers = (texts: string[], needles: string[]) =>
    needles.every((n) => texts.some((t) => norm(t).includes(norm(n))));
  const wideNeedles = needlesOf(wide);
  if (wideNeedles) {
    if (narrow.type === "icontains" && wide.type !== "icontains") return false; // case-blind cannot be narrower
    const narrowNeedles = needlesOf(narrow);
    if (narrowNeedles && (narrow.type === "file-contains") === (wide.type === "file-contains"))
      return covers(narrowNeedles, wideNeedles);
    if (narrow.type === "equals" && typeof narrow.params.value === "string" && wide.type !== "file-contains")
      return covers([narrow.params.value], wideNeedles);
    return false;
  }
  if (wide.type === "one-of") {
    const accepted = valuesOf(wide) ?? [];
    if (narrow.type === "one-of") return (valuesOf(narrow) ?? []).every((v) => accepted.includes(v));
    if (narrow.type === "equals") return accepted.includes(JSON.stringify(narrow.params.value));
    return false;
  }
  if (wide.type === "equals" && narrow.type === "equals")
    return sameJson(wide.params.value, narrow.params.value);
  return false;
}

/**
 * Head's assertion accepts only what the base's accepted (a tightening or no change) — read through `not-`: a
 * negated check passes on what the positive one refuses, so the inclusion runs the other way.
 */
function headWithinBase(ba: Assertion, ha: Assertion): boolean {
  return ha.negate ? acceptsSubset(ba, ha) : acceptsSubset(ha, ba);
}

type Bounds = { min?: number; max?: number };

const finite = (x: unknown): number | undefined =>
  typeof x === "number" && Number.isFinite(x) ? x : undefined;

/** `range: [min, max]`, `range: {min, max}` or `min`/`max` params. */
function boundsOf(a: Assertion): Bounds {
  const r = a.params.range;
  let min: number | undefined;
  let max: number | undefined;
  if (Array.isArray(r)) [min, max] = [finite(r[0]), finite(r[1])];
  else if (r && typeof r === "object") {
    const o = r as Record<string, unknown>;
    [min, max] = [finite(o.min), finite(o.max)];
  } else [min, max] = [finite(a.params.min), finite(a.params.max)];
  return { ...(min !== undefined ? { min } : {}), ...(max !== undefined ? { max } : {}) };
}

const fmtBounds = (b: Bounds): string => `[${b.min ?? "-∞"}, ${b.max ?? "+∞"}]`;

/** Does `outer` accept every number `inner` accepts, and more? */
function strictlyWider(outer: Bounds, inner: Bounds): boolean {
  const lowWider = inner.min !== undefined && (outer.min === undefined || outer.min < inner.min);
  const highWider = inner.max !== undefined && (outer.max === undefined || outer.max > inner.max);
  return lowWider || highWider;
}

/** One-of style lists: `values`, or a single `value`. Compared as JSON so 1 and "1" stay distinct. */
function valuesOf(a: Assertion): string[] | undefined {
  const v = a.params.values ?? (a.type === "one-of" ? a.params.value : undefined);
  if (v === undefined) return undefined;
  return (Array.isArray(v) ? v : [v]).map((x) => JSON.stringify(x));
}

const json = (x: unknown): string => JSON.stringify(x ?? null, Object.keys(flatKeys(x)).sort());
/** Every key at any depth, so `json` sorts nested objects too. */
function flatKeys(x: unknown, into: Record<string, true> = {}): Record<string, true> {
  if (x && typeof x === "object")
    for (const [k, v] of Object.entries(x)) {
      into[k] = true;
      flatKeys(v, into);
    }
  return into;
}
const sameJson = (a: unknown, b: unknown): boolean => json(a) === json(b);

const normalisePrompt = (p: string): string => p.trim().replace(/\s+/g, " ").toLowerCase();

const short = (s: string, n = 60): string => {
  const one = s.replace(/\s+/g, " ").trim();
  return one.length > n ? `${one.slice(0, n - 1)}…` : one;
};

const THRESHOLD_KEYS = [
  "discriminatorPassRate",
  "discriminatorLift",
  "triggerPrecision",
  "triggerRecall",
] as const;

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
  const skill = head.skill || base.skill;
  const findings: WeakeningFinding[] = [];
  const headFiles = new Set(head.sourceFiles);
  const fallback: SourceLocation = {
    file: head.meta.loc.file || headSkill?.path || baseSkill?.path || head.root,
    line: 1,
    column: 1,
  };

  /** Where a deleted item is annotated, and the words that say so. */
  const deletedAt = (baseLoc: SourceLocation, headCase?: Case): { loc: SourceLocation; where: string } => {
    if (headCase) return { loc: headCase.loc, where: `(was ${baseLoc.file}:${baseLoc.line} at base)` };
    if (headFiles.has(baseLoc.file)) return { loc: baseLoc, where: `(line ${baseLoc.line} at base)` };
    return {
      loc: fallback,
      where: `(was ${baseLoc.file}:${baseLoc.line} at base; that file is deleted at head, annotated on line 1 of ${fallback.file})`,
    };
  };
  const add: Add = (kind, detail, loc, message, baseLoc, direction = "loosened") =>
    findings.push({
      kind,
      ...(direction === "tightened" ? { direction } : {}),
      // A tightening is no weakening: its root says so in its id and kind.
      id: `${direction === "tightened" ? "suite-tightened" : "suite-weakened"}/${kind}/${detail}`,
      skill,
      message,
      file: loc.file,
      line: loc.line,
      ...(baseLoc ? { base: { file: baseLoc.file, line: baseLoc.line } } : {}),
    });
  const at = (l: SourceLocation) => `(${l.file}:${l.line} at base)`;

  const headCases = new Map(head.cases.map((c) => [c.id, c]));
  const baseCaseIds = new Set(base.cases.map((c) => c.id));
  for (const bc of base.cases) {
    const hc = headCases.get(bc.id);
    if (!hc) {
      const { loc, where } = deletedAt(bc.loc);
      const d = bc.assertions.filter((a) => a.discriminator).map((a) => a.id);
      const discr = d.length > 0 ? `, with discriminator(s) ${d.join(", ")}` : "";
      add(
        "case-removed",
        bc.id,
        loc,
        `Case "${bc.id}" (${bc.assertions.length} assertion(s)${discr}) was removed ${where}.`,
        bc.loc,
      );
      continue;
    }
    compareCase(bc, hc, add, trees, { base: base.meta, head: head.meta });
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
        if (renamed && !renamed.discriminator) {
          add(
            "discriminator-unmarked",
            detail,
            renamed.loc,
            `Discriminator "${ba.id}" of case "${bc.id}" was renamed "${bare}" and is no longer a discriminator ${at(ba.loc)}.`,
            ba.loc,
          );
        }
        ha = renamed;
      }
      if (!ha) {
        const { loc, where } = deletedAt(ba.loc, hc);
        const kind = ba.discriminator ? "discriminator-removed" : "assertion-removed";
        const what = ba.discriminator ? "Discriminator" : "Assertion";
        add(
          kind,
          detail,
          loc,
          `${what} "${ba.id}" (${ba.rawType}) of case "${bc.id}" was removed ${where}.`,
          ba.loc,
        );
        continue;
      }
      matchedHead.add(ha.id);
      if (ba.discriminator && !ha.discriminator && ha.id === ba.id) {
        add(
          "discriminator-unmarked",
          detail,
          ha.loc,
          `Assertion "${ba.id}" of case "${bc.id}" is no longer marked a discriminator ${at(ba.loc)}.`,
          ba.loc,
        );
      } else if (!ba.discriminator && ha.discriminator)
        add(
          "discriminator-marked",
          detail,
          ha.loc,
          `Assertion "${ha.id}" of case "${bc.id}" is now a discriminator.`,
          ba.loc,
          "tightened",
        );
      compareAssertion(bc.id, ba, ha, add, base, head, trees);
    }
    for (const ha of hc.assertions)
      if (!matchedHead.has(ha.id) && !baseIds.has(ha.id))
        add(
          "assertion-added",
          `${hc.id}/${ha.id}`,
          ha.loc,
          `Assertion "${ha.id}" (${ha.rawType}) was added to case "${hc.id}".`,
          undefined,
          "tightened",
        );
  }
  for (const hc of head.cases)
    if (!baseCaseIds.has(hc.id))
      add(
        "case-added",
        hc.id,
        hc.loc,
        `Case "${hc.id}" (${hc.assertions.length} assertion(s)) was added.`,
        undefined,
        "tightened",
      );

  for (const key of THRESHOLD_KEYS) {
    const b = base.meta.thresholds[key];
    const h = head.meta.thresholds[key];
    if (b === h) continue;
    const loc = head.meta.keyLoc[`thresholds.${key}`] ?? head.meta.keyLoc[key] ?? head.meta.loc;
    const baseLoc = base.meta.keyLoc[`thresholds.${key}`] ?? base.meta.loc;
    if (b !== undefined && (h === undefined || h < b))
      add(
        "threshold-lowered",
        key,
        loc,
        h === undefined
          ? `Threshold ${key} (${b} at base) was removed ${at(baseLoc)}.`
          : `Threshold ${key} was lowered from ${b} to ${h} ${at(baseLoc)}.`,
        baseLoc,
      );
    else if (h !== undefined)
      add(
        "threshold-raised",
        key,
        loc,
        `Threshold ${key} was ${b === undefined ? `set to ${h}` : `raised from ${b} to ${h}`}.`,
        b === undefined ? undefined : baseLoc,
        "tightened",
      );
  }
  const bt = base.meta.trials;
  const ht = head.meta.trials;
  if (bt !== ht) {
    const loc = head.meta.keyLoc.trials ?? head.meta.loc;
    const baseLoc = base.meta.keyLoc.trials ?? base.meta.loc;
    if (bt !== undefined && (ht === undefined || ht < bt))
      add(
        "trials-lowered",
        "trials",
        loc,
        ht === undefined
          ? `Trials per case (${bt} at base) were removed: the default applies ${at(baseLoc)}.`
          : `Trials per case were lowered from ${bt} to ${ht} ${at(baseLoc)}.`,
        baseLoc,
      );
    else if (ht !== undefined)
      add(
        "trials-raised",
        "trials",
        loc,
        `Trials per case were ${bt === undefined ? `set to ${ht}` : `raised from ${bt} to ${ht}`}.`,
        undefined,
        "tightened",
      );
  }
  compareOracle(base, head, add, trees);
  if (!sameJson(base.meta.vars, head.meta.vars))
    add(
      "vars-changed",
      "meta",
      head.meta.keyLoc.vars ?? head.meta.loc,
      `The suite's vars changed (${short(JSON.stringify(base.meta.vars), 80)} at base, ${short(JSON.stringify(head.meta.vars), 80)} here): expected values are part of the suite.`,
      base.meta.keyLoc.vars ?? base.meta.loc,
    );

  compareTriggers(base, head, add, deletedAt);
  if (trees) compareInputs(base, head, add, trees, fallback);
  return findings;
}

type Add = (
  kind: WeakeningKind,
  detail: string,
  loc: SourceLocation,
  message: string,
  baseLoc?: SourceLocation,
  direction?: "loosened" | "tightened",
) => void;

/** A fixture's content: the file's digest, or a folder's every file and its digest. */
function fixtureDigest(view: TreeView, rel: string): string | undefined {
  const own = view.digest(rel);
  if (own !== undefined) return own;
  const inside = view.list(rel);
  return inside.length ? JSON.stringify(inside.map((f) => [f, view.digest(f)])) : undefined;
}

/**
 * A case as the agent receives it and as it is graded, head against base: its prompt in skillgate's syntax (a case
 * moved to another tool's format, where `$` is text but for meta.json's vars, is sent differently though it reads
 * the same: `promptTemplate`), its files by where they land and what they hold, its vars and oracle.
 */
function compareCase(
  bc: Case,
  hc: Case,
  add: Add,
  trees: Trees | undefined,
  metas: { base: SuiteMeta; head: SuiteMeta },
): void {
  const where = `(${bc.loc.file}:${bc.loc.line} at base)`;
  if (normalisePrompt(promptTemplate(bc, metas.base)) !== normalisePrompt(promptTemplate(hc, metas.head)))
    add(
      "case-changed",
      `${hc.id}/prompt`,
      hc.loc,
      bc.prompt === hc.prompt
        ? `The prompt of case "${hc.id}" reaches the agent differently ${where}: the same text, read as ${hc.literal ? "another tool's format, where `$` is text but for meta.json's vars" : "skillgate's, where `$name` is a placeholder"} here and not at base.`
        : `The prompt of case "${hc.id}" changed from "${short(bc.prompt)}" to "${short(hc.prompt)}" ${where}: a reworded task can drop its hard path.`,
      bc.loc,
    );
  compareFiles(bc, hc, add, trees, where);
  if (!sameJson(bc.vars, hc.vars))
    add(
      "vars-changed",
      hc.id,
      hc.loc,
      `The vars of case "${hc.id}" changed ${where}: expected values are part of the suite.`,
      bc.loc,
    );
  const oracleOf = (c: Case) => (c.oracle ? [c.oracle.command, c.oracle.timeoutMs ?? null] : null);
  if (!sameJson(oracleOf(bc), oracleOf(hc)))
    add(
      "oracle-changed",
      `${hc.id}/oracle`,
      hc.oracle?.loc ?? hc.loc,
      `The oracle of case "${hc.id}" changed (${bc.oracle ? JSON.stringify(bc.oracle.command) : "none"} at base, ${hc.oracle ? JSON.stringify(hc.oracle.command) : "none"} here) ${where}: it computes the expected values.`,
      bc.oracle?.loc ?? bc.loc,
    );
}

/**
 * A case's files as the agent receives them: where each lands and, with both checkouts at hand, what it holds
 * (a fixture moved with its case to another suite folder is the same file); without them, where each comes from.
 */
function compareFiles(bc: Case, hc: Case, add: Add, trees: Trees | undefined, where: string): void {
  const landing = (c: Case) => c.files.map((f) => (trees ? f.to : `${f.from}>${f.to}`)).sort();
  const bf = landing(bc);
  const hf = landing(hc);
  if (!sameJson(bf, hf))
    add(
      "case-changed",
      `${hc.id}/files`,
      hc.loc,
      `The files of case "${hc.id}" changed (${bf.join(", ") || "none"} at base, ${hf.join(", ") || "none"} here) ${where}.`,
      bc.loc,
    );
  else if (trees)
    for (const f of hc.files) {
      const from = bc.files.find((x) => x.to === f.to)?.from ?? f.from;
      const b = fixtureDigest(trees.base, from);
      const h = fixtureDigest(trees.head, f.from);
      if (b !== h)
        add(
          "case-changed",
          `${hc.id}/file/${f.to}`,
          hc.loc,
          `The fixture ${f.from} of case "${hc.id}" changed ${where}.`,
          bc.loc,
        );
    }
}

function compareAssertion(
  caseId: string,
  ba: Assertion,
  ha: Assertion,
  add: Add,
  base: Suite,
  head: Suite,
  trees: Trees | undefined,
): void {
  const detail = `${caseId}/${ha.id}`;
  const name = `Assertion "${ha.id}" of case "${caseId}"`;
  const was = `(${ba.loc.file}:${ba.loc.line} at base)`;
  const loose = (kind: WeakeningKind, message: string, sub = "") =>
    add(kind, `${detail}${sub}`, ha.loc, `${message} ${was}.`, ba.loc);
  const tight = (kind: WeakeningKind, message: string, sub = "") =>
    add(kind, `${detail}${sub}`, ha.loc, `${message}.`, ba.loc, "tightened");
  if (ba.rawType !== ha.rawType) {
    const changed = `${name} changed type from ${ba.rawType} (${short(JSON.stringify(ba.params.values ?? ba.params.value) ?? "", 40)}) to ${ha.rawType} (${short(JSON.stringify(ha.params.values ?? ha.params.value) ?? "", 40)})`;
    if (
      ba.negate === ha.negate &&
      (ba.extract ?? "text") === (ha.extract ?? "text") &&
      headWithinBase(ba, ha)
    )
      tight("assertion-type-changed", changed);
    else loose("assertion-type-changed", `${changed}: it may accept what the base refused`);
    return; // Parameters of different types are not comparable.
  }
  if (ha.condition !== ba.condition) {
    if (ba.condition === undefined)
      loose("condition-added", `${name} now runs only when "${ha.condition}" holds`);
    else if (ha.condition === undefined) tight("condition-removed", `${name} no longer has a condition`);
    else
      loose("condition-changed", `${name}'s condition changed from "${ba.condition}" to "${ha.condition}"`);
  }
  const addedDeps = ha.dependsOn.filter((d) => !ba.dependsOn.includes(d));
  const removedDeps = ba.dependsOn.filter((d) => !ha.dependsOn.includes(d));
  if (addedDeps.length)
    loose(
      "dependency-added",
      `${name} now depends on ${addedDeps.join(", ")}: when that fails, this one no longer counts as a failure of its own`,
    );
  else if (removedDeps.length)
    tight("dependency-removed", `${name} no longer depends on ${removedDeps.join(", ")}`);
  if ((ba.extract ?? "text") !== (ha.extract ?? "text"))
    loose(
      "assertion-changed",
      `${name} extracts "${ha.extract ?? "text"}" instead of "${ba.extract ?? "text"}"`,
      "/extract",
    );

  const bv = valuesOf(ba);
  const hv = valuesOf(ha);
  const bn = needlesOf(ba);
  const hn = needlesOf(ha);
  const multi = (a: Assertion) => Array.isArray(a.params.values);
  if (bn && hn && (multi(ba) || multi(ha))) {
    // All-of needles: the head must require at least what the base required (read through `not-`).
    if (!headWithinBase(ba, ha))
      loose(
        "required-values-removed",
        `${name} ${ha.negate ? "now forbids only" : "now requires only"} ${short(JSON.stringify(hn), 80)} instead of ${short(JSON.stringify(bn), 80)}: it may accept what the base refused`,
        "/values",
      );
    else if (!headWithinBase(ha, ba))
      tight(
        "required-values-added",
        `${name} ${ha.negate ? "forbids" : "requires"} ${short(JSON.stringify(hn), 80)} instead of ${short(JSON.stringify(bn), 80)}`,
        "/values",
      );
  } else if (bv && hv) {
    const removed = bv.filter((v) => !hv.includes(v));
    const added = hv.filter((v) => !bv.includes(v));
    if (ha.negate) {
      if (removed.length)
        loose("forbidden-values-removed", `${name} no longer forbids ${removed.join(", ")}`);
      if (added.length) tight("forbidden-values-added", `${name} now also forbids ${added.join(", ")}`);
    } else {
      if (added.length) loose("accepted-values-added", `${name} now also accepts ${added.join(", ")}`);
      if (removed.length) tight("accepted-values-removed", `${name} no longer accepts ${removed.join(", ")}`);
    }
  } else if (ha.type === "number-range") {
    const b = boundsOf(ba);
    const h = boundsOf(ha);
    // A negated range forbids its inside: narrowing it loosens the check.
    const loosened = ha.negate ? strictlyWider(b, h) : strictlyWider(h, b);
    const tightened = ha.negate ? strictlyWider(h, b) : strictlyWider(b, h);
    const verb = ha.negate ? "forbidden range" : "range";
    if (loosened)
      loose(
        "range-widened",
        `${name}: ${verb} ${ha.negate ? "narrowed" : "widened"} from ${fmtBounds(b)} to ${fmtBounds(h)}`,
      );
    else if (tightened)
      tight(
        "range-narrowed",
        `${name}: ${verb} ${ha.negate ? "widened" : "narrowed"} from ${fmtBounds(b)} to ${fmtBounds(h)}`,
      );
  } else if (!sameJson(ba.params.value, ha.params.value)) {
    const bs = ba.params.value;
    const hs = ha.params.value;
    // `contains X` → `contains XY` accepts fewer outputs; `not-contains XY` → `not-contains X` forbids more.
    const fold = ha.type === "icontains" ? (s: string) => s.toLowerCase() : (s: string) => s;
    const substring =
      (ha.type === "contains" || ha.type === "icontains" || ha.type === "file-contains") &&
      typeof bs === "string" &&
      typeof hs === "string"
        ? ha.negate
          ? fold(bs).includes(fold(hs))
          : fold(hs).includes(fold(bs))
        : false;
    if (substring)
      tight(
        "assertion-changed",
        `${name}'s value changed from ${JSON.stringify(bs)} to ${JSON.stringify(hs)}`,
        "/value",
      );
    else
      loose(
        "assertion-changed",
        `${name}'s value changed from ${short(JSON.stringify(bs) ?? "unset", 80)} to ${short(JSON.stringify(hs) ?? "unset", 80)}: it may accept what the base refused`,
        "/value",
      );
  }
  // Everything else that decides the check (regex flags, gate id, module, export and options, tool matchers,
  // counts …) must be equal: a change there cannot be ranked, so it counts as a loosening.
  const ranked = new Set(["discriminator", "value"]);
  if ((bv && hv) || (bn && hn)) ranked.add("values");
  if (ha.type === "number-range") for (const k of ["range", "min", "max"]) ranked.add(k);
  const rest = (a: Assertion) => Object.fromEntries(Object.entries(a.params).filter(([k]) => !ranked.has(k)));
  const br = rest(ba);
  const hr = rest(ha);
  const keys = [...new Set([...Object.keys(br), ...Object.keys(hr)])].sort();
  for (const k of keys)
    if (!sameJson(br[k], hr[k]))
      loose(
        "assertion-changed",
        `${name}'s ${k} changed from ${short(JSON.stringify(br[k]) ?? "unset", 80)} to ${short(JSON.stringify(hr[k]) ?? "unset", 80)}`,
        `/${k}`,
      );
  // A predicate module whose path stayed but whose code changed is a new check.
  if (ha.type === "javascript" && trees && sameJson(br.module, hr.module) && typeof hr.module === "string") {
    const bf = inSuite(base.root, hr.module);
    const hf = inSuite(head.root, hr.module);
    const b = bf && trees.base.digest(bf);
    const h = hf && trees.head.digest(hf);
    if (b !== h) loose("predicate-changed", `${name}'s predicate ${hr.module} was edited`, "/module-content");
  }
}

function compareOracle(base: Suite, head: Suite, add: Add, trees: Trees | undefined): void {
  const bo = base.meta.oracle;
  const ho = head.meta.oracle;
  if (!bo && !ho) return;
  const loc = ho?.loc ?? head.meta.loc;
  const baseLoc = bo?.loc ?? base.meta.loc;
  const where = `(${baseLoc.file}:${baseLoc.line} at base)`;
  if (!bo || !ho || bo.command !== ho.command || bo.timeoutMs !== ho.timeoutMs) {
    add(
      "oracle-changed",
      "command",
      loc,
      `The oracle changed (${bo ? JSON.stringify(bo.command) : "none"} at base, ${ho ? JSON.stringify(ho.command) : "none"} here) ${where}: it computes the expected values.`,
      baseLoc,
    );
    return;
  }
  if (!trees) return;
  for (const f of commandFiles(ho.command, head.root)) {
    const rel = f.slice(head.root.length + 1);
    if (trees.base.digest(`${base.root}/${rel}`) !== trees.head.digest(f))
      add(
        "oracle-changed",
        `file/${rel}`,
        loc,
        `The oracle's ${rel} was edited ${where}: it computes the expected values.`,
        baseLoc,
      );
  }
}

/**
 * Every file a check reads at grading, on either side (a PR may add an import or drop one), compared in full.
 * The predicate modules and oracle scripts themselves have findings of their own (`predicate-changed`,
 * `oracle-changed`); a case's fixtures are compared with its case.
 */
function compareInputs(base: Suite, head: Suite, add: Add, trees: Trees, fallback: SourceLocation): void {
  const own = new Set<string>();
  for (const s of [base, head]) {
    for (const c of s.cases) {
      for (const f of c.files) own.add(f.from);
      for (const a of c.assertions)
        if (a.type === "javascript" && typeof a.params.module === "string") {
          const m = inSuite(s.root, a.params.module);
          if (m) own.add(m);
        }
    }
    if (s.meta.oracle) for (const f of commandFiles(s.meta.oracle.command, s.root)) own.add(f);
  }
  const inputs: InputSet = checkInputs(base, trees.base);
  for (const [file, readers] of checkInputs(head, trees.head))
    inputs.set(file, new Set([...(inputs.get(file) ?? []), ...readers]));
  for (const [file, readers] of [...inputs].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    if (own.has(file)) continue;
    const b = trees.base.digest(file);
    const h = trees.head.digest(file);
    if (b === h) continue;
    const who = [...readers].sort().join(", ");
    const why = "each arm grades with its own checkout's copy, so the check itself changed";
    if (h === undefined)
      add(
        "dependency-changed",
        file,
        fallback,
        `${file}, read by ${who}, was deleted (it existed at base; annotated on line 1 of ${fallback.file}): ${why}.`,
        { file, line: 1, column: 1 },
      );
    else {
      const line = firstDifferentLine(trees.base.text(file), trees.head.text(file));
      add(
        "dependency-changed",
        file,
        { file, line, column: 1 },
        b === undefined
          ? `${file} is new, read by ${who}: ${why}.`
          : `${file}, read by ${who}, changed from line ${line} on (${file}:${line} at base): ${why}.`,
        b === undefined ? undefined : { file, line, column: 1 },
      );
    }
  }
}

function compareTriggers(
  base: Suite,
  head: Suite,
  add: Add,
  deletedAt: (l: SourceLocation) => { loc: SourceLocation; where: string },
): void {
  if (!base.trigger && !head.trigger) return;
  const triggerLoc = head.trigger?.loc;
  const side = (s: Suite, which: "shouldFire" | "shouldNotFire") => s.trigger?.[which] ?? [];
  const byPrompt = (qs: TriggerQuery[]) => new Map(qs.map((q) => [normalisePrompt(q.prompt), q]));
  for (const which of ["shouldFire", "shouldNotFire"] as const) {
    const other = which === "shouldFire" ? "shouldNotFire" : "shouldFire";
    const kept = byPrompt(side(head, which));
    const movedTo = byPrompt(side(head, other));
    side(base, which).forEach((q, i) => {
      const p = normalisePrompt(q.prompt);
      const h = kept.get(p);
      if (h) {
        if (h.weight < q.weight)
          add(
            "trigger-weight-lowered",
            `${which}/${i}`,
            h.loc,
            `Trigger prompt "${short(q.prompt)}" weighs ${h.weight} instead of ${q.weight} (confidence lowered) (${q.loc.file}:${q.loc.line} at base).`,
            q.loc,
          );
        return;
      }
      const moved = movedTo.get(p);
      if (moved) {
        add(
          "trigger-prompt-moved",
          `${which}/${i}`,
          moved.loc,
          `Trigger prompt "${short(q.prompt)}" moved from ${which} to ${other} (${q.loc.file}:${q.loc.line} at base): the router's answer to it is no longer held to the base's expectation.`,
          q.loc,
        );
        return;
      }
      const { loc, where } = triggerLoc
        ? { loc: triggerLoc, where: `(was ${q.loc.file}:${q.loc.line} at base)` }
        : deletedAt(q.loc);
      add(
        "trigger-prompt-removed",
        `${which}/${i}`,
        loc,
        `Trigger prompt "${short(q.prompt)}" was removed from ${which} (or reworded) ${where}.`,
        q.loc,
      );
    });
    const before = new Set(
      [...side(base, which), ...side(base, other)].map((q) => normalisePrompt(q.prompt)),
    );
    side(head, which).forEach((q, i) => {
      if (!before.has(normalisePrompt(q.prompt)))
        add(
          "trigger-prompt-added",
          `${which}/+${i}`,
          q.loc,
          `Trigger prompt "${short(q.prompt)}" was added to ${which}.`,
          undefined,
          "tightened",
        );
    });
  }
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
