import type { Diagnostic, Severity, Skill } from "../model/index.js";

/**
 * `judge` assertions (skill-creator's natural-language expectations among them) when no judge is configured:
 * `validate` warns (the suite is fine, the configuration lacks a judge), `run` refuses before any trial (graded,
 * each would be an error). One diagnostic per assertion, at its line.
 */
export function judgeWithoutJudge(skills: readonly Skill[], severity: Severity): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const s of skills)
    for (const c of s.suite?.cases ?? [])
      for (const a of c.assertions)
        if (a.type === "judge")
          out.push({
            ...a.loc,
            severity,
            code: "suite/judge-not-configured",
            message: `assertion \`${a.id}\` of case \`${c.id}\` needs a judge, and none is configured (set \`judge:\` in .skillgate.yml)`,
          });
  return out;
}
