import type { Diagnostic } from "../model/index.js";

/** How many left-out paths a notice names before it says "and N more". */
const SHOWN = 5;

/**
 * SKILL.md files that configured globs (`skills.globs`, `include`, `exclude`, `--glob`) leave out are counted,
 * never silently ignored: one notice for all of them, and a warning at each one the change touches (its edit is
 * not evaluated).
 */
export function outsideGlobsDiagnostics(
  outside: readonly string[],
  changedFiles: readonly string[] | undefined,
): Diagnostic[] {
  if (outside.length === 0) return [];
  const listed = outside.slice(0, SHOWN).join(", ");
  const more = outside.length > SHOWN ? ` and ${outside.length - SHOWN} more` : "";
  const out: Diagnostic[] = [
    {
      file: outside[0]!,
      line: 1,
      column: 1,
      severity: "notice",
      code: "discovery/outside-globs",
      message: `${outside.length} SKILL.md file(s) lie outside the configured skills globs and are not evaluated: ${listed}${more}`,
    },
  ];
  const changed = new Set(changedFiles ?? []);
  for (const f of outside)
    if (changed.has(f))
      out.push({
        file: f,
        line: 1,
        column: 1,
        severity: "warning",
        code: "discovery/outside-globs-changed",
        message:
          "this change edits a SKILL.md outside the configured skills globs: it is not evaluated (widen skills.globs in the base's .skillgate.yml to gate it)",
      });
  return out;
}
