/**
 * The PR's diff of what it changed in the evaluated skills: each SKILL.md and suite file that differs between the
 * base and head checkouts, as hunks with two lines of context (jsdiff's `structuredPatch`), bounded so a large
 * rewrite keeps the report small. The review page shows it beside the roots each changed line explains.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { structuredPatch } from "diff";
import type { SkillChangeInfo } from "../detect/changes.js";
import type { DiffLine, FileChange } from "../model/index.js";

const MAX_FILES = 40;
const MAX_LINES_PER_FILE = 300;
const MAX_LINES = 2000;
const CONTEXT = 2;

function readOr(dir: string | undefined, file: string): string | undefined {
  if (!dir) return undefined;
  try {
    return readFileSync(join(dir, file), "utf8");
  } catch {
    return undefined;
  }
}

/** The files a skill's change may touch: its SKILL.md and its suite's files, at head and at base. */
function filesOf(info: SkillChangeInfo): string[] {
  return [
    ...new Set([info.head, info.base].flatMap((s) => (s ? [s.path, ...(s.suite?.sourceFiles ?? [])] : []))),
  ].sort();
}

export function prDiff(
  infos: readonly SkillChangeInfo[],
  trees: { head: string; base?: string },
): FileChange[] {
  if (!trees.base) return [];
  const out: FileChange[] = [];
  let budget = MAX_LINES;
  for (const info of infos) {
    if (info.change === "unchanged") continue;
    for (const file of filesOf(info)) {
      if (out.length >= MAX_FILES) return out;
      const before = readOr(trees.base, file);
      const after = readOr(trees.head, file);
      if (before === after) continue;
      const patch = structuredPatch(file, file, before ?? "", after ?? "", "", "", { context: CONTEXT });
      const change: FileChange = {
        skill: info.name,
        file,
        status: before === undefined ? "added" : after === undefined ? "deleted" : "modified",
        hunks: [],
      };
      let omitted = 0;
      let kept = 0;
      for (const h of patch.hunks) {
        let base = h.oldStart;
        let head = h.newStart;
        const lines: DiffLine[] = [];
        for (const raw of h.lines) {
          const kind = raw[0] as DiffLine["kind"] | "\\";
          if (kind === "\\") continue; // "\ No newline at end of file"
          const line = kind === "-" ? base++ : head++;
          if (kind === " ") base++;
          if (kept >= MAX_LINES_PER_FILE || kept >= budget) {
            omitted++;
            continue;
          }
          lines.push({ kind, text: raw.slice(1), line });
          kept++;
        }
        if (lines.length) change.hunks.push({ baseStart: h.oldStart, headStart: h.newStart, lines });
      }
      budget -= kept;
      if (omitted) change.omittedLines = omitted;
      out.push(change);
    }
  }
  return out;
}
