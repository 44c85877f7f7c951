import type { AssertionOutcome } from "../../model/check.js";
import type { Assertion } from "../../model/suite.js";
import type { Direction } from "../../util/change-rank.js";
import { looseEqual, show } from "../vars.js";
import { extractFor, missingValue, outcome, showValue } from "./common.js";
import { type AssertionChange, type AssertionComparator, VALUE_COMPARATOR } from "./compare.js";
import type { AssertionContext, AssertionType } from "./registry.js";

const schema = {
  type: "object",
  required: ["values"],
  properties: { values: { type: "array", minItems: 1 } },
  additionalProperties: false,
};

function valuesOf(a: Assertion): unknown[] {
  return Array.isArray(a.params.values) ? a.params.values : [a.params.values];
}

/** The extracted value is one of `values`. */
export const oneOf: AssertionType = {
  type: "one-of",
  level: "outcome",
  schema,
  compare: {
    ...listComparator(true, "accepted"),
    accepts: (a) => ({ kind: "any-of", values: listOf(a, true) ?? [] }),
  },
  async evaluate(a, ctx) {
    return check(a, ctx, true);
  },
};

/**
 * Forbidden answers: the extracted value is none of `values`. A missing value (no number at all) fails:
 * silence is not "avoided the trap".
 */
export const notOneOf: AssertionType = {
  type: "not-one-of",
  level: "outcome",
  schema,
  compare: listComparator(false, "forbidden"),
  async evaluate(a, ctx) {
    return check(a, ctx, false);
  },
};

function check(a: Assertion, ctx: AssertionContext, wantIn: boolean): AssertionOutcome {
  const values = valuesOf(a);
  const expected = `${a.extract ?? "output"} ${wantIn ? "to be one of" : "to be none of"} ${show(values)}`;
  const got = extractFor(a, ctx);
  if (!got.ok) return missingValue(got.reason, expected);
  const isIn = values.some((v) => looseEqual(got.value, v));
  const actual = `${got.description}: ${showValue(got.value)}${isIn ? ` (listed)` : ""}`;
  return outcome(isIn === wantIn, expected, actual);
}

/** `values` (with `orValue`, else a single `value`) as JSON, so 1 and "1" stay distinct; undefined when unset. */
function listOf(a: Assertion, orValue: boolean): string[] | undefined {
  const v = a.params.values ?? (orValue ? a.params.value : undefined);
  if (v === undefined) return undefined;
  return (Array.isArray(v) ? v : [v]).map((x) => JSON.stringify(x));
}

/**
 * What the entries of a list mean, which says how adding one ranks: `accepted` values (one-of, an allow-list) — one
 * more accepts more; `forbidden` values (not-one-of) and `required` entries (files that must exist, steps that
 * must happen) — one more accepts less. Read through `not-`, accepted and forbidden trade places and a required
 * list ranks the other way. `ordered`: the entries' order is part of the check (tool-order's steps).
 */
export type ListMeaning = "accepted" | "forbidden" | "required";

/** A list of values compared entry by entry, as `meaning` says. Without a list on both sides, `value` whole. */
export function listComparator(orValue: boolean, meaning: ListMeaning, ordered = false): AssertionComparator {
  return {
    ranks: (ba, ha) => (listOf(ba, orValue) && listOf(ha, orValue) ? ["values"] : []),
    changes(ba, ha, name) {
      const [bv, hv] = [listOf(ba, orValue), listOf(ha, orValue)];
      if (!bv || !hv) return VALUE_COMPARATOR.changes(ba, ha, name);
      const out = entryChanges(bv, hv, name, ha.negate ? negated(meaning) : meaning);
      if (ordered && !sameOrder(bv, hv))
        out.push({ kind: "assertion-changed", rank: "changed", message: `${name}'s entries changed order` });
      return out;
    },
  };
}

const negated = (m: ListMeaning): ListMeaning | "required-negated" =>
  m === "accepted" ? "forbidden" : m === "forbidden" ? "accepted" : "required-negated";

function entryChanges(
  bv: string[],
  hv: string[],
  name: string,
  meaning: ListMeaning | "required-negated",
): AssertionChange[] {
  const removed = bv.filter((v) => !hv.includes(v));
  const added = hv.filter((v) => !bv.includes(v));
  const out: AssertionChange[] = [];
  const note = (list: string[], change: Omit<AssertionChange, "message">, words: string) => {
    if (list.length) out.push({ ...change, message: `${name} ${words} ${list.join(", ")}` });
  };
  if (meaning === "accepted") {
    note(added, { kind: "accepted-values-added", rank: "loosened" }, "now also accepts");
    note(removed, { kind: "accepted-values-removed", rank: "tightened" }, "no longer accepts");
  } else if (meaning === "forbidden") {
    note(removed, { kind: "forbidden-values-removed", rank: "loosened" }, "no longer forbids");
    note(added, { kind: "forbidden-values-added", rank: "tightened" }, "now also forbids");
  } else {
    // `not-` of "every entry holds" is "some entry fails": one more entry makes that easier.
    const [fewer, more]: [Direction, Direction] =
      meaning === "required" ? ["loosened", "tightened"] : ["tightened", "loosened"];
    note(removed, { kind: "required-values-removed", rank: fewer }, "no longer requires");
    note(added, { kind: "required-values-added", rank: more }, "now also requires");
  }
  return out;
}

/** The entries both lists keep come in the same order in each. */
function sameOrder(bv: string[], hv: string[]): boolean {
  const kept = (list: string[], other: string[]) => list.filter((v) => other.includes(v));
  return JSON.stringify(kept(bv, hv)) === JSON.stringify(kept(hv, bv));
}
