import { compileRegex } from "../regex-source.js";
import { show } from "../vars.js";
import { errorOutcome, extractFor, missingValue, outcome, showValue } from "./common.js";
import type { AssertionType } from "./registry.js";

/** The extracted text matches the regular expression `value` (JavaScript syntax, optional `flags`, a leading `(?i)`). */
export const regex: AssertionType = {
  type: "regex",
  level: "outcome",
  schema: {
    type: "object",
    required: ["value"],
    properties: { value: { type: "string" }, flags: { type: "string", pattern: "^[dgimsuy]*$" } },
    additionalProperties: false,
  },
  async evaluate(a, ctx) {
    let re: RegExp;
    try {
      re = compileRegex(String(a.params.value), typeof a.params.flags === "string" ? a.params.flags : "");
    } catch (e) {
      return errorOutcome(`invalid regular expression ${show(a.params.value)}: ${(e as Error).message}`);
    }
    const expected = `${a.extract ?? "output"} to match /${re.source}/${re.flags}`;
    const got = extractFor(a, ctx);
    if (!got.ok) return missingValue(got.reason, expected);
    const text = typeof got.value === "string" ? got.value : JSON.stringify(got.value);
    const m = re.exec(text);
    return outcome(
      m !== null,
      expected,
      m ? `match ${show(m[0])} in ${got.description}` : `no match in ${got.description} ${showValue(text)}`,
    );
  },
};
