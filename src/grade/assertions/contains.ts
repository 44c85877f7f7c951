import type { AssertionOutcome } from "../../model/check.js";
import type { Assertion } from "../../model/suite.js";
import { show } from "../vars.js";
import { extractFor, missingValue, outcome, showValue, VALUE_OR_VALUES, valueList } from "./common.js";
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
