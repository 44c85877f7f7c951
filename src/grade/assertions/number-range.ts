import { parseNumber } from "../extract.js";
import { errorOutcome, extractFor, missingValue, outcome, showValue } from "./common.js";
import type { AssertionType } from "./registry.js";

/** The extracted value is a number within `range: [min, max]` (inclusive; `null` leaves a side open). */
export const numberRange: AssertionType = {
  type: "number-range",
  level: "outcome",
  schema: {
    type: "object",
    required: ["range"],
    properties: {
      range: { type: "array", minItems: 2, maxItems: 2, items: { type: ["number", "null"] } },
    },
    additionalProperties: false,
  },
  async evaluate(a, ctx) {
    const [min, max] = a.params.range as [number | null, number | null];
    if ((min !== null && typeof min !== "number") || (max !== null && typeof max !== "number")) {
      return errorOutcome(`range must be [min, max] numbers, got ${JSON.stringify(a.params.range)}`);
    }
    const expected = `${a.extract ?? "first-number"} within [${min ?? "-∞"}, ${max ?? "∞"}]`;
    const got = extractFor(a, ctx, "first-number");
    if (!got.ok) return missingValue(got.reason, expected);
    const n = typeof got.value === "number" ? got.value : parseNumber(String(got.value).trim());
    if (Number.isNaN(n))
      return missingValue(`${got.description} ${showValue(got.value)} is not a number`, expected);
    const pass = (min === null || n >= min) && (max === null || n <= max);
    return outcome(pass, expected, `${got.description}: ${n}`);
  },
};
