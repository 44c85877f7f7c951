import { errorOutcome, outcome } from "./common.js";
import type { AssertionType } from "./registry.js";

/**
 * `judge`: one natural-language expectation graded by the configured judge model. Only ever run when a suite asks
 * for it; without a judge it is an error, never a silent pass.
 */
export const judge: AssertionType = {
  type: "judge",
  level: "outcome",
  schema: {
    type: "object",
    required: ["value"],
    properties: { value: { type: "string", minLength: 1 } },
    additionalProperties: false,
  },
  async evaluate(a, ctx) {
    const expectation = String(a.params.value);
    const expected = `judge agrees: ${JSON.stringify(expectation)}`;
    if (!ctx.judge) return errorOutcome("no judge configured (set `judge:` in .skillgate.yml)", { expected });
    try {
      const res = await ctx.judge.grade(expectation, ctx.trial.output, {
        files: ctx.trial.files,
        toolCalls: ctx.trial.toolCalls,
      });
      return outcome(res.passed, expected, `judge ${res.passed ? "passed" : "failed"} it: ${res.evidence}`, {
        evidence: res.evidence,
        details: { judge: { text: expectation, passed: res.passed, evidence: res.evidence } },
      });
    } catch (e) {
      return errorOutcome(`judge could not grade: ${(e as Error).message}`, { expected });
    }
  },
};
