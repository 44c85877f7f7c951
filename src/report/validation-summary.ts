import type { Diagnostic, Severity, Skill } from "../model/index.js";

/** How many files `validate` names to fix first. */
const FIX_FIRST_FILES = 5;

/** What `validate` says at the end, and puts in its JSON: the repository's first day in a few lines. */
export interface ValidationSummary {
  skills: number;
  suites: number;
  /** Cases and trigger queries `run` would evaluate (broken parts and checks it cannot grade left out). */
  runnableCases: number;
  triggerQueries: number;
  /** Parts of suites `run` leaves out, each an error root of that part when a PR touches its skill. */
  partsLeftOut: number;
  /** Per severity, the number of each diagnostic code, most frequent first. */
  byCode: Record<Severity, { code: string; count: number }[]>;
  /** The files with the most errors (then warnings): where a team starts. */
  fixFirst: { file: string; errors: number; warnings: number; first: string }[];
}

export function summariseValidation(
  skills: readonly Skill[],
  diagnostics: readonly Diagnostic[],
): ValidationSummary {
  const byCode: ValidationSummary["byCode"] = { error: [], warning: [], notice: [] };
  for (const severity of ["error", "warning", "notice"] as const) {
    const counts = new Map<string, number>();
    for (const d of diagnostics)
      if (d.severity === severity) counts.set(d.code, (counts.get(d.code) ?? 0) + 1);
    byCode[severity] = [...counts]
      .map(([code, count]) => ({ code, count }))
      .sort((a, b) => b.count - a.count || (a.code < b.code ? -1 : 1));
  }
  const files = new Map<string, ValidationSummary["fixFirst"][number]>();
  for (const d of diagnostics) {
    if (d.severity === "notice") continue;
    const f = files.get(d.file) ?? { file: d.file, errors: 0, warnings: 0, first: "" };
    if (d.severity === "error") {
      if (f.errors === 0) f.first = `${d.line}:${d.column} ${d.message}`;
      f.errors++;
    } else {
      if (f.errors === 0 && f.warnings === 0) f.first = `${d.line}:${d.column} ${d.message}`;
      f.warnings++;
    }
    files.set(d.file, f);
  }
  const fixFirst = [...files.values()]
    .sort((a, b) => b.errors - a.errors || b.warnings - a.warnings || (a.file < b.file ? -1 : 1))
    .slice(0, FIX_FIRST_FILES);
  return {
    skills: skills.length,
    suites: skills.filter((s) => s.suite).length,
    runnableCases: skills.reduce((n, s) => n + (s.suite?.cases.length ?? 0), 0),
    triggerQueries: skills.reduce(
      (n, s) =>
        n + (s.suite?.trigger ? s.suite.trigger.shouldFire.length + s.suite.trigger.shouldNotFire.length : 0),
      0,
    ),
    partsLeftOut: skills.reduce((n, s) => n + new Set((s.suite?.partProblems ?? []).map(partKey)).size, 0),
    byCode,
    fixFirst,
  };
}

const partKey = (p: { part: string; caseId?: string; diagnostic: Diagnostic }) =>
  `${p.part}:${p.caseId ?? p.diagnostic.file}`;

/** The summary as terminal lines. */
export function renderValidationSummary(s: ValidationSummary): string[] {
  const classes = (severity: Severity, label: string) => {
    const list = s.byCode[severity];
    if (list.length === 0) return [];
    const total = list.reduce((n, c) => n + c.count, 0);
    const shown = list.slice(0, 6).map((c) => `${c.code} ${c.count}`);
    return [`  ${label} ${total}: ${shown.join(", ")}${list.length > 6 ? `, … (${list.length} kinds)` : ""}`];
  };
  const lines = [
    `summary: ${s.skills} skill(s), ${s.suites} suite(s); run would evaluate ${s.runnableCases} case(s) and ${s.triggerQueries} trigger quer${s.triggerQueries === 1 ? "y" : "ies"}${s.partsLeftOut ? `, leaving out ${s.partsLeftOut} broken or ungradable part(s) (an error of that part when a PR touches its skill)` : ""}`,
    ...classes("error", "errors"),
    ...classes("warning", "warnings"),
    ...classes("notice", "notices"),
  ];
  if (s.fixFirst.length > 0) {
    lines.push("fix first:");
    for (const f of s.fixFirst)
      lines.push(
        `  ${f.file}: ${[f.errors ? `${f.errors} error(s)` : "", f.warnings ? `${f.warnings} warning(s)` : ""].filter(Boolean).join(", ")} — ${f.first}`,
      );
  }
  return lines;
}
