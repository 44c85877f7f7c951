/**
 * `parseSkillFile` once per SKILL.md content in a process (issue #42): a base side read in full, or each cell of
 * an agent matrix, reads the same files again; each parse of 10,000 frontmatters is then paid once.
 */
import { hash } from "node:crypto";
import type { ValidationProfile } from "../model/index.js";
import type { ExpectedName } from "./skill-fields.js";
import { type ParsedSkillFile, parseSkillFile } from "./skill-file.js";

/** Parses kept by `parseSkillFileOnce`; past this many the store starts afresh (a bound, not a policy). */
const PARSES_KEPT = 200_000;
const parses = new Map<string, ParsedSkillFile>();

/**
 * `parseSkillFile`, once per file content, path, profile and expected name in this process: a base side or a
 * matrix cell that reads the same SKILL.md again reuses the parse. Callers get their own diagnostics (objects
 * and array), since a caller may change them; the parsed values are shared and never changed.
 */
export function parseSkillFileOnce(
  file: string,
  text: string,
  profile: ValidationProfile,
  expected: ExpectedName | null,
): ParsedSkillFile {
  const key = `${file}\0${profile}\0${expected ? `${expected.name}\0${expected.what}\0${expected.why ?? ""}` : "\0"}\0${hash("sha256", text, "base64")}`;
  let parsed = parses.get(key);
  if (!parsed) {
    if (parses.size >= PARSES_KEPT) parses.clear();
    parsed = parseSkillFile(file, text, profile, expected);
    parses.set(key, parsed);
  }
  return { ...parsed, diagnostics: parsed.diagnostics.map((d) => ({ ...d })) };
}
