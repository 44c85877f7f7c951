/**
 * How two configurations of an assertion compare, base against head: what `verdict/weakening.ts` reports as a
 * loosened or tightened check. What is common to every type (its type, condition, dependencies, extractor, the
 * params no type ranks) is compared here; what a type's params mean is its own comparator (`AssertionType.compare`,
 * next to its definition), so a new type is one file. The ranks are `util/change-rank.ts`'s.
 *
 * The rule is conservative: a change that cannot be shown to accept a subset of what the base accepted is reported
 * as a loosening (rank `changed`); `tightened` is only said when it is provable.
 */
import type { Assertion } from "../../model/suite.js";
import { combine, type Rank, sameJson } from "../../util/change-rank.js";
import { getAssertionType } from "./registry.js";

export type AssertionChangeKind =
  | "assertion-type-changed"
  | "condition-added"
  | "condition-changed"
  | "condition-removed"
  | "dependency-added"
  | "dependency-removed"
  | "assertion-changed"
  | "required-values-removed"
  | "required-values-added"
  | "forbidden-values-removed"
  | "forbidden-values-added"
  | "accepted-values-added"
  | "accepted-values-removed"
  | "range-widened"
  | "range-narrowed";

/** One change to an assertion. `rank` `changed` (not provably either way) is reported as a loosening. */
export interface AssertionChange {
  kind: AssertionChangeKind;
  rank: Exclude<Rank, "same">;
  /** Says which assertion and what changed, without the base's location or a full stop. */
  message: string;
  /** Appended to the finding's id (`/value`, `/values` …). */
  sub?: string;
}

/** What an assertion accepts, in terms a change from one type to another can be ranked by. */
export type Acceptance =
  /** Every needle occurs (in the output, or in a file the agent wrote). */
  | { kind: "all-of"; needles: string[]; ignoreCase: boolean; inFile: boolean }
  /** The value is one of these (each as JSON, so 1 and "1" stay distinct). */
  | { kind: "any-of"; values: string[] }
  /** The value equals this one (trimmed, numbers numerically). */
  | { kind: "exactly"; value: unknown };

/** What an assertion type says about two of its configurations (same type, same `not-`). */
export interface AssertionComparator {
  /** The params it ranks; every other param must be equal (a change there is a loosening). */
  ranks(base: Assertion, head: Assertion): readonly string[];
  /** The changes of the params it ranks; `name` names the assertion in messages. */
  changes(base: Assertion, head: Assertion, name: string): AssertionChange[];
  /** What it accepts, when that can be said in `Acceptance`'s terms (a change of type is then ranked). */
  accepts?(a: Assertion): Acceptance | undefined;
  /** The suite file whose code is the check (a predicate module): an edit of it is a new check. */
  module?(a: Assertion): string | undefined;
}

export const short = (s: string, n = 60): string => {
  const one = s.replace(/\s+/g, " ").trim();
  return one.length > n ? `${one.slice(0, n - 1)}…` : one;
};

/** `value` compared whole: any change may accept what the base refused. Types without a comparator use it. */
export const VALUE_COMPARATOR: AssertionComparator = {
  ranks: () => ["value"],
  changes(ba, ha, name) {
    if (sameJson(ba.params.value, ha.params.value)) return [];
    const [bs, hs] = [ba.params.value, ha.params.value];
    return [
      {
        kind: "assertion-changed",
        rank: "changed",
        message: `${name}'s value changed from ${short(JSON.stringify(bs) ?? "unset", 80)} to ${short(JSON.stringify(hs) ?? "unset", 80)}: it may accept what the base refused`,
        sub: "/value",
      },
    ];
  },
};

export function comparatorOf(type: string): AssertionComparator {
  return getAssertionType(type)?.compare ?? VALUE_COMPARATOR;
}

const acceptanceOf = (a: Assertion): Acceptance | undefined =>
  getAssertionType(a.type)?.compare?.accepts?.(a);

/** Does `narrow` (read positively, without its `not-`) accept only what `wide` accepts? Provable cases only. */
function acceptsSubset(narrowA: Assertion, wideA: Assertion): boolean {
  const narrow = acceptanceOf(narrowA);
  const wide = acceptanceOf(wideA);
  if (!narrow || !wide) return false;
  if (wide.kind === "all-of") {
    if (narrow.kind === "all-of" && narrow.ignoreCase && !wide.ignoreCase) return false; // case-blind is wider
    const fold = wide.ignoreCase || (narrow.kind === "all-of" && narrow.ignoreCase);
    const norm = (s: string) => (fold ? s.toLowerCase() : s);
    // every needle of `wide` occurs in some text `narrow` requires
    const covers = (texts: string[]) =>
      wide.needles.every((n) => texts.some((t) => norm(t).includes(norm(n))));
    if (narrow.kind === "all-of") return narrow.inFile === wide.inFile && covers(narrow.needles);
    // `equals` trims and compares numbers numerically, so only a string ranks against the text types
    return (
      narrow.kind === "exactly" && typeof narrow.value === "string" && !wide.inFile && covers([narrow.value])
    );
  }
  if (wide.kind === "any-of") {
    if (narrow.kind === "any-of") return narrow.values.every((v) => wide.values.includes(v));
    return narrow.kind === "exactly" && wide.values.includes(JSON.stringify(narrow.value));
  }
  return narrow.kind === "exactly" && sameJson(wide.value, narrow.value);
}

/**
 * Head's assertion accepts only what the base's accepted (a tightening or no change), read through `not-`: a
 * negated check passes on what the positive one refuses, so the inclusion runs the other way.
 */
export function headWithinBase(ba: Assertion, ha: Assertion): boolean {
  return ha.negate ? acceptsSubset(ba, ha) : acceptsSubset(ha, ba);
}

/** Tightened, loosened, equal or not comparable, from whether each side accepts within the other. */
export function rankByInclusion(headWithin: boolean, baseWithin: boolean): Rank {
  if (headWithin) return baseWithin ? "same" : "tightened";
  return baseWithin ? "loosened" : "changed";
}

const extractOf = (a: Assertion) => a.extract ?? "text";

/** A change of type: ranked by what each accepts, when both say and the rest is alike; else a loosening. */
function typeChange(ba: Assertion, ha: Assertion, name: string): AssertionChange {
  const shown = (a: Assertion) => short(JSON.stringify(a.params.values ?? a.params.value) ?? "", 40);
  const changed = `${name} changed type from ${ba.rawType} (${shown(ba)}) to ${ha.rawType} (${shown(ha)})`;
  const alike = ba.negate === ha.negate && extractOf(ba) === extractOf(ha);
  if (alike && headWithinBase(ba, ha))
    return { kind: "assertion-type-changed", rank: "tightened", message: changed };
  const rank = alike && headWithinBase(ha, ba) ? "loosened" : "changed";
  return { kind: "assertion-type-changed", rank, message: `${changed}: it may accept what the base refused` };
}

/** When it runs and what it waits for: a condition added or a dependency added loosens (it counts less often). */
function whenChanges(ba: Assertion, ha: Assertion, name: string): AssertionChange[] {
  const out: AssertionChange[] = [];
  if (ha.condition !== ba.condition) {
    if (ba.condition === undefined)
      out.push({
        kind: "condition-added",
        rank: "loosened",
        message: `${name} now runs only when "${ha.condition}" holds`,
      });
    else if (ha.condition === undefined)
      out.push({
        kind: "condition-removed",
        rank: "tightened",
        message: `${name} no longer has a condition`,
      });
    else
      out.push({
        kind: "condition-changed",
        rank: "changed",
        message: `${name}'s condition changed from "${ba.condition}" to "${ha.condition}"`,
      });
  }
  const added = ha.dependsOn.filter((d) => !ba.dependsOn.includes(d));
  const removed = ba.dependsOn.filter((d) => !ha.dependsOn.includes(d));
  if (added.length)
    out.push({
      kind: "dependency-added",
      rank: removed.length ? "changed" : "loosened",
      message: `${name} now depends on ${added.join(", ")}: when that fails, this one no longer counts as a failure of its own`,
    });
  else if (removed.length)
    out.push({
      kind: "dependency-removed",
      rank: "tightened",
      message: `${name} no longer depends on ${removed.join(", ")}`,
    });
  if (extractOf(ba) !== extractOf(ha))
    out.push({
      kind: "assertion-changed",
      rank: "changed",
      message: `${name} extracts "${extractOf(ha)}" instead of "${extractOf(ba)}"`,
      sub: "/extract",
    });
  return out;
}

/** Params no comparator ranks (regex flags, gate id, module, options, tool matchers …) must be equal. */
function restChanges(ba: Assertion, ha: Assertion, name: string, ranked: Set<string>): AssertionChange[] {
  const rest = (a: Assertion) => Object.fromEntries(Object.entries(a.params).filter(([k]) => !ranked.has(k)));
  const [br, hr] = [rest(ba), rest(ha)];
  const keys = [...new Set([...Object.keys(br), ...Object.keys(hr)])].sort();
  return keys
    .filter((k) => !sameJson(br[k], hr[k]))
    .map((k) => ({
      kind: "assertion-changed" as const,
      rank: "changed" as const,
      message: `${name}'s ${k} changed from ${short(JSON.stringify(br[k]) ?? "unset", 80)} to ${short(JSON.stringify(hr[k]) ?? "unset", 80)}`,
      sub: `/${k}`,
    }));
}

/**
 * Every change from the base's assertion to the head's (matched by id), in the order they are reported;
 * `name` names the assertion in messages. Whether it is a discriminator is the suite's to compare.
 */
export function assertionChanges(ba: Assertion, ha: Assertion, name: string): AssertionChange[] {
  if (ba.rawType !== ha.rawType) return [typeChange(ba, ha, name)]; // params of other types are not comparable
  const comparator = comparatorOf(ha.type);
  const ranked = new Set(["discriminator", "value", ...comparator.ranks(ba, ha)]);
  return [
    ...whenChanges(ba, ha, name),
    ...comparator.changes(ba, ha, name),
    ...restChanges(ba, ha, name, ranked),
  ];
}

/** The one rank of everything that changed in an assertion (`same` when nothing did). */
export function rankAssertion(ba: Assertion, ha: Assertion): Rank {
  return combine(assertionChanges(ba, ha, "").map((c) => c.rank));
}
