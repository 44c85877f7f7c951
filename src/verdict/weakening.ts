import type { Assertion, Case, Skill, SourceLocation, Suite, TriggerQuery } from "../model/index.js";

/**
 * Suite weakening: what a PR removed or loosened in the eval suite of a skill it edits. Each finding becomes a
 * `suite-weakened` root (blocking unless `VerdictPolicy.allowSuiteChange`). Findings sit on the head suite line
 * of the loosened item; a deleted item sits on the head line of its case when the case survives, else on its
 * base line in the same file when that file survives, else on line 1 of the head suite's meta file (the message
 * then names the deleted file).
 */

export type WeakeningKind =
  | "suite-removed"
  | "case-removed"
  | "assertion-removed"
  | "discriminator-removed"
  | "discriminator-unmarked"
  | "forbidden-values-removed"
  | "accepted-values-added"
  | "range-widened"
  | "assertion-type-changed"
  | "condition-added"
  | "threshold-lowered"
  | "trials-lowered"
  | "trigger-prompt-removed";

export interface WeakeningFinding {
  kind: WeakeningKind;
  /** Stable id for the root: `suite-weakened/<kind>/<detail>`. */
  id: string;
  skill: string;
  message: string;
  file: string;
  line: number;
}

/** Type changes that only tighten (the head type accepts a subset of what the base type accepted). */
const TIGHTENING: ReadonlySet<string> = new Set([
  "contains>equals",
  "icontains>contains",
  "icontains>equals",
  "regex>equals",
  "one-of>equals",
]);

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
  const add = (kind: WeakeningKind, detail: string, loc: SourceLocation, message: string) =>
    findings.push({
      kind,
      id: `suite-weakened/${kind}/${detail}`,
      skill,
      message,
      file: loc.file,
      line: loc.line,
    });

  const headCases = new Map(head.cases.map((c) => [c.id, c]));
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
      );
      continue;
    }
    const headAssertions = new Map(hc.assertions.map((a) => [a.id, a]));
    const baseIds = new Set(bc.assertions.map((a) => a.id));
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
            `Discriminator "${ba.id}" of case "${bc.id}" was renamed "${bare}" and is no longer a discriminator.`,
          );
        }
        ha = renamed;
      }
      if (!ha) {
        const { loc, where } = deletedAt(ba.loc, hc);
        const kind = ba.discriminator ? "discriminator-removed" : "assertion-removed";
        const what = ba.discriminator ? "Discriminator" : "Assertion";
        add(kind, detail, loc, `${what} "${ba.id}" (${ba.rawType}) of case "${bc.id}" was removed ${where}.`);
        continue;
      }
      if (ba.discriminator && !ha.discriminator && ha.id === ba.id) {
        add(
          "discriminator-unmarked",
          detail,
          ha.loc,
          `Assertion "${ba.id}" of case "${bc.id}" is no longer marked a discriminator.`,
        );
      }
      compareAssertion(bc.id, ba, ha, add);
    }
  }

  for (const key of THRESHOLD_KEYS) {
    const b = base.meta.thresholds[key];
    if (b === undefined) continue;
    const h = head.meta.thresholds[key];
    if (h !== undefined && h >= b) continue;
    const loc = head.meta.keyLoc[`thresholds.${key}`] ?? head.meta.keyLoc[key] ?? head.meta.loc;
    add(
      "threshold-lowered",
      key,
      loc,
      h === undefined
        ? `Threshold ${key} (${b} at base) was removed.`
        : `Threshold ${key} was lowered from ${b} to ${h}.`,
    );
  }
  const bt = base.meta.trials;
  const ht = head.meta.trials;
  if (bt !== undefined && ht !== undefined && ht < bt) {
    add(
      "trials-lowered",
      "trials",
      head.meta.keyLoc.trials ?? head.meta.loc,
      `Trials per case were lowered from ${bt} to ${ht}.`,
    );
  }

  const triggerLoc = head.trigger?.loc;
  const compareQueries = (side: "shouldFire" | "shouldNotFire", b: TriggerQuery[], h: TriggerQuery[]) => {
    const kept = new Set(h.map((q) => normalisePrompt(q.prompt)));
    b.forEach((q, i) => {
      if (kept.has(normalisePrompt(q.prompt))) return;
      const { loc, where } = triggerLoc
        ? { loc: triggerLoc, where: `(was ${q.loc.file}:${q.loc.line} at base)` }
        : deletedAt(q.loc);
      add(
        "trigger-prompt-removed",
        `${side}/${i}`,
        loc,
        `Trigger prompt "${short(q.prompt)}" was removed from ${side} (or reworded) ${where}.`,
      );
    });
  };
  if (base.trigger) {
    compareQueries("shouldFire", base.trigger.shouldFire, head.trigger?.shouldFire ?? []);
    compareQueries("shouldNotFire", base.trigger.shouldNotFire, head.trigger?.shouldNotFire ?? []);
  }
  return findings;
}

function compareAssertion(
  caseId: string,
  ba: Assertion,
  ha: Assertion,
  add: (kind: WeakeningKind, detail: string, loc: SourceLocation, message: string) => void,
): void {
  const detail = `${caseId}/${ha.id}`;
  const name = `Assertion "${ha.id}" of case "${caseId}"`;
  if (ba.rawType !== ha.rawType) {
    if (!(ba.negate === ha.negate && TIGHTENING.has(`${ba.type}>${ha.type}`))) {
      add(
        "assertion-type-changed",
        detail,
        ha.loc,
        `${name} changed type from ${ba.rawType} to ${ha.rawType}.`,
      );
    }
    return; // Parameters of different types are not comparable.
  }
  if (ha.condition !== undefined && ba.condition === undefined) {
    add("condition-added", detail, ha.loc, `${name} now runs only when "${ha.condition}" holds.`);
  }
  const bv = valuesOf(ba);
  const hv = valuesOf(ha);
  if (bv && hv) {
    if (ha.negate) {
      const removed = bv.filter((v) => !hv.includes(v));
      if (removed.length > 0) {
        add("forbidden-values-removed", detail, ha.loc, `${name} no longer forbids ${removed.join(", ")}.`);
      }
    } else if (ha.type === "one-of") {
      const added = hv.filter((v) => !bv.includes(v));
      if (added.length > 0)
        add("accepted-values-added", detail, ha.loc, `${name} now also accepts ${added.join(", ")}.`);
    }
  }
  if (ha.type === "number-range") {
    const b = boundsOf(ba);
    const h = boundsOf(ha);
    // A negated range forbids its inside: narrowing it loosens the check.
    const loosened = ha.negate ? strictlyWider(b, h) : strictlyWider(h, b);
    if (loosened) {
      const verb = ha.negate ? "forbidden range narrowed" : "range widened";
      add("range-widened", detail, ha.loc, `${name}: ${verb} from ${fmtBounds(b)} to ${fmtBounds(h)}.`);
    }
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
      `The eval suite ${base.root} was deleted at head: ${base.cases.length} case(s), ${assertions} assertion(s) ` +
      `(${discriminators} discriminator(s)) and ${prompts} trigger prompt(s) are gone (annotated on line 1 of ${file}).`,
    file,
    line: 1,
  };
}
