/** A part of a skill's verdict as roots and reasons (`Findings`), and a root that is no statistical decision. */
import type { Root, RootKind } from "../model/index.js";
import type { SkillVerdictInput } from "./decide.js";

export const pct = (x: number): string => `${Math.round(x * 1000) / 10} %`;

export const shortJson = (x: unknown, n = 120): string => {
  const s = typeof x === "string" ? x : (JSON.stringify(x) ?? String(x));
  return s.length > n ? `${s.slice(0, n - 1)}…` : s;
};

/** Roots and reasons one part of the decision found; `undecided`: blocking roots that stand for "could not decide". */
export interface Findings {
  roots: Root[];
  reasons: string[];
  undecided: Root[];
}

export const findings = (roots: Root[] = [], reasons: string[] = [], undecided: Root[] = []): Findings => ({
  roots,
  reasons,
  undecided,
});

/** A root that is no statistical decision (weakening, threshold, contamination, lockstep, validation, error). */
export function plainRoot(
  skill: string,
  id: string,
  kind: RootKind,
  loc: { file: string; line: number; column?: number },
  text: { title: string; message: string },
  blocking = true,
  status: Root["status"] = "head-only",
): Root {
  return {
    id,
    kind,
    skill,
    status,
    title: text.title,
    message: text.message,
    file: loc.file,
    line: loc.line,
    column: loc.column ?? 1,
    cascaded: [],
    blocking,
  };
}

export const skillLocOf = (input: SkillVerdictInput) => ({ file: input.locs.skillFile, line: 1, column: 1 });
