/**
 * Codex's `agents/openai.yaml` beside a SKILL.md: optional interface and dependency metadata. Codex reads it
 * "fail open": a file it cannot parse is ignored and the skill still loads (loader.rs), so a broken one is a
 * warning at its first problem, never an error.
 */
import { existsSync, lstatSync } from "node:fs";
import { join, posix } from "node:path";
import type { Diagnostic, Skill } from "../../model/index.js";
import { readRegularFile } from "../../util/read-file.js";
import { parseSourceFile } from "../source-file.js";
import { CODEX_DESCRIPTION_MAX, SOURCES } from "./rules.js";

const FILE = "agents/openai.yaml";

/** The file's text, or undefined when there is none (or `agents/` or the file is a link: never followed). */
function readOpenaiYaml(repoDir: string, skill: Skill): string | undefined {
  // Most skills have none: existsSync (which throws nothing) answers them in one system call.
  if (!existsSync(join(repoDir, skill.dir, FILE))) return undefined;
  try {
    if (lstatSync(join(repoDir, skill.dir, "agents")).isSymbolicLink()) return undefined;
    const bytes = readRegularFile(join(repoDir, skill.dir, FILE), { noFollow: true });
    return bytes && bytes !== "link" ? bytes.toString("utf8") : undefined;
  } catch {
    return undefined;
  }
}

export function openaiYamlFindings(repoDir: string, skill: Skill): Diagnostic[] {
  const text = readOpenaiYaml(repoDir, skill);
  if (text === undefined) return [];
  const file = posix.join(skill.dir, FILE);
  const source = parseSourceFile(file, text);
  const ignored = `Codex ignores ${FILE} it cannot read and loads the skill without it (${SOURCES.codexLoader})`;
  const first = source.diagnostics[0];
  if (first)
    return [
      {
        ...first,
        severity: "warning",
        code: "target/codex-openai-yaml",
        message: `${first.message}: ${ignored}`,
      },
    ];
  const value = source.value as { interface?: { short_description?: unknown } } | null;
  const short = value && typeof value === "object" ? value.interface?.short_description : undefined;
  if (typeof short === "string" && [...short].length > CODEX_DESCRIPTION_MAX)
    return [
      {
        ...source.locate(["interface", "short_description"]),
        severity: "warning",
        code: "target/codex-openai-yaml",
        message: `interface.short_description is ${[...short].length} characters, over ${CODEX_DESCRIPTION_MAX.toLocaleString("en-US")}: Codex leaves it out (${SOURCES.codexLoader})`,
      },
    ];
  return [];
}
