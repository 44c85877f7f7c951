import type { AssertionOutcome } from "../../model/check.js";
import type { Assertion } from "../../model/suite.js";
import { sameJson } from "../../util/change-rank.js";
import { show } from "../vars.js";
import { extractFor, missingValue, outcome, showValue, VALUE_OR_VALUES, valueList } from "./common.js";
import {
  type AssertionChange,
  type AssertionComparator,
  headWithinBase,
  rankByInclusion,
  short,
  VALUE_COMPARATOR,
} from "./compare.js";
import type { AssertionContext, AssertionType } from "./registry.js";

const schema = {
  type: "object",
  properties: {
    value: { type: ["string", "number"] },
    values: { type: "array", minItems: 1, items: { type: ["string", "number"] } },
  },
  additionalProperties: false,
  ...VALUE_OR_VALUES,
};

/** Every one of `value`/`values` occurs in the extracted text. */
function containsType(type: string, ignoreCase: boolean): AssertionType {
  return {
    type,
    level: "outcome",
    schema,
    compare: allOfComparator(ignoreCase, false),
    async evaluate(a: Assertion, ctx: AssertionContext): Promise<AssertionOutcome> {
      const needles = valueList(a).map(String);
      const what = `${a.extract ?? "output"} to contain${ignoreCase ? " (ignoring case)" : ""}`;
      const expected = `${what} ${needles.map((n) => show(n)).join(" and ")}`;
      const got = extractFor(a, ctx);
      if (!got.ok) return missingValue(got.reason, expected);
      const hay = typeof got.value === "string" ? got.value : JSON.stringify(got.value);
      const norm = (s: string) => (ignoreCase ? s.toLowerCase() : s);
      const absent = needles.filter((n) => !norm(hay).includes(norm(n)));
      const found = needles.filter((n) => !absent.includes(n));
      const actual =
        absent.length === 0
          ? `all present in ${got.description} ${showValue(hay)}`
          : `${absent.map((n) => show(n)).join(", ")} missing from ${got.description} ${showValue(hay)}`;
      return outcome(absent.length === 0, expected, actual, { details: { found, absent } });
    },
  };
}

export const contains = containsType("contains", false);
export const icontains = containsType("icontains", true);

/** The needles of an all-of assertion (`values`, else `[value]`) as strings, or undefined. */
function needlesOf(a: Assertion): string[] | undefined {
  const v = a.params.values ?? a.params.value;
  if (v === undefined) return undefined;
  return (Array.isArray(v) ? v : [v]).map(String);
}

/**
 * Every needle must occur: adding one narrows what passes (`contains X` → `contains XY` too), read through
 * `not-` (forbidding more needles, or a shorter one, forbids more). Shared with `file-contains`.
 */
export function allOfComparator(ignoreCase: boolean, inFile: boolean): AssertionComparator {
  return {
    ranks: (ba, ha) => (needlesOf(ba) && needlesOf(ha) ? ["values"] : []),
    changes(ba, ha, name) {
      const [bn, hn] = [needlesOf(ba), needlesOf(ha)];
      if (bn && hn && (Array.isArray(ba.params.values) || Array.isArray(ha.params.values)))
        return needleChanges(ba, ha, name, bn, hn);
      return valueChange(ba, ha, name, ignoreCase);
    },
    accepts(a) {
      const needles = needlesOf(a);
      return needles && { kind: "all-of", needles, ignoreCase, inFile };
    },
  };
}

function needleChanges(
  ba: Assertion,
  ha: Assertion,
  name: string,
  bn: string[],
  hn: string[],
): AssertionChange[] {
  const rank = rankByInclusion(headWithinBase(ba, ha), headWithinBase(ha, ba));
  const [hs, bs] = [short(JSON.stringify(hn), 80), short(JSON.stringify(bn), 80)];
  if (rank === "same") return [];
  if (rank === "tightened")
    return [
      {
        kind: "required-values-added",
        rank,
        message: `${name} ${ha.negate ? "forbids" : "requires"} ${hs} instead of ${bs}`,
        sub: "/values",
      },
    ];
  return [
    {
      kind: "required-values-removed",
      rank,
      message: `${name} ${ha.negate ? "now forbids only" : "now requires only"} ${hs} instead of ${bs}: it may accept what the base refused`,
      sub: "/values",
    },
  ];
}

/** One needle: a longer one (a shorter one under `not-`) is a tightening; any other change may loosen. */
function valueChange(ba: Assertion, ha: Assertion, name: string, ignoreCase: boolean): AssertionChange[] {
  const [bs, hs] = [ba.params.value, ha.params.value];
  if (sameJson(bs, hs)) return [];
  const fold = (s: string) => (ignoreCase ? s.toLowerCase() : s);
  const within = (inner: unknown, outer: unknown) =>
    typeof inner === "string" && typeof outer === "string" && fold(outer).includes(fold(inner));
  const [narrower, wider] = ha.negate ? [within(hs, bs), within(bs, hs)] : [within(bs, hs), within(hs, bs)];
  if (narrower)
    return [
      {
        kind: "assertion-changed",
        rank: "tightened",
        message: `${name}'s value changed from ${JSON.stringify(bs)} to ${JSON.stringify(hs)}`,
        sub: "/value",
      },
    ];
  return VALUE_COMPARATOR.changes(ba, ha, name).map((c) => ({ ...c, rank: wider ? "loosened" : c.rank }));
}
