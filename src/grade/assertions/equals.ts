import { looseEqual, show } from "../vars.js";
import { extractFor, missingValue, outcome, showValue } from "./common.js";
import { VALUE_COMPARATOR } from "./compare.js";
import type { AssertionType } from "./registry.js";

/** The extracted value equals `value` (strings trimmed, numbers numerically, JSON deeply). */
export const equals: AssertionType = {
  type: "equals",
  level: "outcome",
  compare: { ...VALUE_COMPARATOR, accepts: (a) => ({ kind: "exactly", value: a.params.value }) },
  schema: { type: "object", required: ["value"], properties: { value: {} }, additionalProperties: false },
  async evaluate(a, ctx) {
    const expected = `${a.extract ?? "output"} to equal ${show(a.params.value)}`;
    const got = extractFor(a, ctx);
    if (!got.ok) return missingValue(got.reason, expected);
    return outcome(
      looseEqual(got.value, a.params.value),
      expected,
      `${got.description}: ${showValue(got.value)}`,
    );
  },
};
