import type { AssertionOutcome } from "../../model/check.js";
import type { Assertion } from "../../model/suite.js";
import { looseEqual, show } from "../vars.js";
import { extractFor, missingValue, outcome, showValue } from "./common.js";
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
