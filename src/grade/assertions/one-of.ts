import type { AssertionOutcome } from "../../model/check.js";
import type { Assertion } from "../../model/suite.js";
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
    ...listComparator(true),
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
  compare: listComparator(false),
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
 * A list of accepted values: one added accepts more, one removed accepts less; read through `not-`, a list of
 * forbidden ones. Without a list on both sides, `value` is compared whole.
 */
export function listComparator(orValue: boolean): AssertionComparator {
  return {
    ranks: (ba, ha) => (listOf(ba, orValue) && listOf(ha, orValue) ? ["values"] : []),
    changes(ba, ha, name) {
      const [bv, hv] = [listOf(ba, orValue), listOf(ha, orValue)];
      if (!bv || !hv) return VALUE_COMPARATOR.changes(ba, ha, name);
      const removed = bv.filter((v) => !hv.includes(v));
      const added = hv.filter((v) => !bv.includes(v));
      const out: AssertionChange[] = [];
      const note = (list: string[], change: Omit<AssertionChange, "message">, words: string) => {
        if (list.length) out.push({ ...change, message: `${name} ${words} ${list.join(", ")}` });
      };
      if (ha.negate) {
        note(removed, { kind: "forbidden-values-removed", rank: "loosened" }, "no longer forbids");
        note(added, { kind: "forbidden-values-added", rank: "tightened" }, "now also forbids");
      } else {
        note(added, { kind: "accepted-values-added", rank: "loosened" }, "now also accepts");
        note(removed, { kind: "accepted-values-removed", rank: "tightened" }, "no longer accepts");
      }
      return out;
    },
  };
}
