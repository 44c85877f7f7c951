import { compilePattern, type RegexSyntax, type TextPattern } from "../regex-source.js";
import { show } from "../vars.js";
import { errorOutcome, extractFor, missingValue, outcome, showValue } from "./common.js";
import type { AssertionType } from "./registry.js";

/**
 * The extracted text matches the regular expression `value`: JavaScript syntax (optional `flags`, a leading `(?i)`),
 * or RE2's with `syntax: re2` (Go's `regexp`, as waza's graders and other Go tools write them).
 */
export const regex: AssertionType = {
  type: "regex",
  level: "outcome",
  schema: {
    type: "object",
    required: ["value"],
    properties: {
      value: { type: "string" },
      flags: { type: "string", pattern: "^[dgimsuy]*$" },
      syntax: { enum: ["js", "re2"] },
    },
    additionalProperties: false,
  },
  async evaluate(a, ctx) {
    let re: TextPattern;
    try {
      re = compilePattern(
        String(a.params.value),
        typeof a.params.flags === "string" ? a.params.flags : "",
        (a.params.syntax as RegexSyntax | undefined) ?? "js",
      );
    } catch (e) {
      return errorOutcome(`invalid regular expression ${show(a.params.value)}: ${(e as Error).message}`);
    }
    const expected = `${a.extract ?? "output"} to match ${re.shown}`;
    const got = extractFor(a, ctx);
    if (!got.ok) return missingValue(got.reason, expected);
    const text = typeof got.value === "string" ? got.value : JSON.stringify(got.value);
    const m = re.firstMatch(text);
    return outcome(
      m !== null,
      expected,
      m !== null
        ? `match ${show(m)} in ${got.description}`
        : `no match in ${got.description} ${showValue(text)}`,
    );
  },
};
