import type { Diagnostic, Skill } from "../model/index.js";

const key = (d: Diagnostic) => `${d.file}:${d.line}:${d.column}:${d.code}:${d.message}`;

export interface SkillProblems {
  /** Errors that keep the whole skill from running (its SKILL.md, meta.json, a duplicate case id …). */
  skill: Diagnostic[];
  /**
   * Problems of one case or trigger file, each an error for `run` (a warning of `validate`, such as a case with
   * no checks, included): that part is left out and reported, the rest of the skill runs.
   */
  parts: Diagnostic[];
  /** A trigger file of the suite did not load: the trigger battery does not run. */
  triggerBroken: boolean;
}

/**
 * Splits the errors of a skill's own files (`errors`) into those of one part of its suite (`Suite.partProblems`)
 * and the rest. An error is as small as what it breaks: a broken case does not stop the skill's other cases or
 * its trigger battery.
 */
export function splitSkillProblems(skill: Skill, errors: readonly Diagnostic[]): SkillProblems {
  const partProblems = skill.suite?.partProblems ?? [];
  const inPart = new Set(partProblems.map((p) => key(p.diagnostic)));
  const seen = new Set<string>();
  const parts: Diagnostic[] = [];
  for (const p of partProblems) {
    const k = key(p.diagnostic);
    if (seen.has(k)) continue;
    seen.add(k);
    const what =
      p.part === "trigger" ? "trigger file" : p.caseId ? `case \`${p.caseId}\`` : "cases of this file";
    parts.push({
      ...p.diagnostic,
      severity: "error",
      message: `${p.diagnostic.message} (only this ${what} is left out; the rest of the suite runs)`,
    });
  }
  return {
    skill: errors.filter((d) => !inPart.has(key(d))),
    parts,
    triggerBroken: partProblems.some((p) => p.part === "trigger"),
  };
}
