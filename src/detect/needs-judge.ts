import type { Case, Diagnostic, Skill, SuitePartProblem } from "../model/index.js";

/** What to write in `.skillgate.yml` to turn the judge on: said wherever a check waits for one. */
const JUDGE_SETTING =
  "set `judge:` in .skillgate.yml, e.g. `judge: {adapter: anthropic}` (reads ANTHROPIC_API_KEY) or `judge: {adapter: openai, model: gpt-4o-mini}` (OPENAI_API_KEY); see docs/formats.md";

/**
 * Natural-language checks (skill-creator's expectations, waza's prompt graders, a rubric) when no judge is
 * configured: each is a located "not graded" notice and is taken out of its case, whose other checks still run.
 * A case left with nothing to grade is said once, at the case: a warning for `validate`, an error root of that
 * case alone for `run` (it becomes one of the suite's `partProblems`). Replaces each skill's suite with the
 * graded one; returns the diagnostics.
 */
export function withoutJudge(skills: readonly Skill[]): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const s of skills) {
    const suite = s.suite;
    if (!suite?.cases.some((c) => c.assertions.some((a) => a.type === "judge"))) continue;
    const cases: Case[] = [];
    const problems: SuitePartProblem[] = [];
    for (const c of suite.cases) {
      const judged = new Set(c.assertions.filter((a) => a.type === "judge").map((a) => a.id));
      if (judged.size === 0) {
        cases.push(c);
        continue;
      }
      for (const a of c.assertions)
        if (judged.has(a.id))
          out.push({
            ...a.loc,
            severity: "notice",
            code: "suite/judge-not-configured",
            message: `not graded: \`${a.id}\` of case \`${c.id}\` is a natural-language check, and no judge is configured (${JUDGE_SETTING})`,
          });
      const rest = c.assertions
        .filter((a) => !judged.has(a.id))
        .map((a) => ({ ...a, dependsOn: a.dependsOn.filter((d) => !judged.has(d)) }));
      if (rest.length > 0) {
        cases.push({ ...c, assertions: rest });
        continue;
      }
      const d: Diagnostic = {
        ...c.loc,
        severity: "warning",
        code: "suite/nothing-gradeable",
        message: `case \`${c.id}\` has nothing to grade without a judge: all ${judged.size} of its checks are natural-language expectations (${JUDGE_SETTING})`,
      };
      out.push(d);
      problems.push({ part: "case", caseId: c.id, diagnostic: d });
    }
    s.suite = { ...suite, cases, partProblems: [...(suite.partProblems ?? []), ...problems] };
  }
  return out;
}
