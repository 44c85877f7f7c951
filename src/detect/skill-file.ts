import { posix } from "node:path";
import type { Diagnostic, SourceLocation, ValidationProfile } from "../model/index.js";
import { CLAUDE_CODE_FRONTMATTER_KEYS, frontmatterSchema, PORTABLE_FRONTMATTER_KEYS } from "./schemas.js";
import { parseSourceFile } from "./source-file.js";
import { validateAgainst } from "./validate.js";

/** Agent Skills spec limits (agentskills.io specification). */
export const NAME_MAX = 64;
export const DESCRIPTION_MAX = 1024;
/** Claude Code lists description + when_to_use up to this many characters (ANCHORS.md). */
export const CLAUDE_CODE_LISTING_MAX = 1536;
export const COMPATIBILITY_MAX = 500;
/** The spec recommends a body under 500 lines. */
export const BODY_LINES_RECOMMENDED = 500;
const NAME_PATTERN = /^[a-z0-9]+(-[a-z0-9]+)*$/;

export interface ParsedSkillFile {
  frontmatter: Record<string, unknown>;
  body: string;
  name?: string;
  description?: string;
  version?: string;
  loc: {
    frontmatter: SourceLocation;
    name?: SourceLocation;
    description?: SourceLocation;
    version?: SourceLocation;
  };
  diagnostics: Diagnostic[];
}

/**
 * Parses and checks one SKILL.md. `file` is repository-relative; the folder name must equal `name`.
 * Never throws: every problem is a located diagnostic.
 */
export function parseSkillFile(file: string, text: string, profile: ValidationProfile): ParsedSkillFile {
  const diagnostics: Diagnostic[] = [];
  const top: SourceLocation = { file, line: 1, column: 1 };
  const err = (loc: SourceLocation, code: string, message: string) =>
    diagnostics.push({ ...loc, severity: "error", code, message });
  const warn = (loc: SourceLocation, code: string, message: string) =>
    diagnostics.push({ ...loc, severity: "warning", code, message });

  const src = text.replace(/^\uFEFF/, "");
  const split = splitFrontmatter(src);
  if (split === "no-frontmatter") {
    err(
      top,
      "skill/no-frontmatter",
      "SKILL.md must start with YAML frontmatter (a `---` line, then name and description)",
    );
    return { frontmatter: {}, body: src, loc: { frontmatter: top }, diagnostics };
  }
  if (split === "unterminated") {
    err(top, "skill/unterminated-frontmatter", "frontmatter is not closed: add a `---` line after it");
    return { frontmatter: {}, body: "", loc: { frontmatter: top }, diagnostics };
  }
  const { fmText, body, close } = split;
  const fm = parseSourceFile(file, fmText, 1);
  diagnostics.push(...fm.diagnostics.map((d) => ({ ...d, code: "skill/frontmatter-yaml" })));
  const loc: ParsedSkillFile["loc"] = { frontmatter: { file, line: 2, column: 1 } };
  if (fm.value === undefined) return { frontmatter: {}, body, loc, diagnostics };
  if (fm.value === null || typeof fm.value !== "object" || Array.isArray(fm.value)) {
    err(loc.frontmatter, "skill/frontmatter-shape", "frontmatter must be a YAML mapping of keys to values");
    return { frontmatter: {}, body, loc, diagnostics };
  }
  const frontmatter = fm.value as Record<string, unknown>;
  diagnostics.push(...validateAgainst(frontmatterSchema, frontmatter, fm, [], "skill/frontmatter"));

  const folder = posix.basename(posix.dirname(file));
  const name = typeof frontmatter.name === "string" ? frontmatter.name : undefined;
  if ("name" in frontmatter) loc.name = fm.locate(["name"]);
  if (name !== undefined) {
    const at = loc.name!;
    if (name.length < 1 || name.length > NAME_MAX)
      err(at, "skill/name-length", `name must be 1–${NAME_MAX} characters (is ${name.length})`);
    else if (!NAME_PATTERN.test(name))
      err(
        at,
        "skill/name-pattern",
        `name \`${name}\` must be lowercase letters, digits and single hyphens (no leading, trailing or double \`-\`)`,
      );
    if (name !== folder)
      err(at, "skill/name-folder", `name \`${name}\` must equal its folder name \`${folder}\``);
  }

  const description = typeof frontmatter.description === "string" ? frontmatter.description : undefined;
  if ("description" in frontmatter) loc.description = fm.locate(["description"]);
  if (description !== undefined) {
    const at = loc.description!;
    const length = [...description].length;
    if (description.trim().length === 0) err(at, "skill/description-empty", "description must not be empty");
    if (length > DESCRIPTION_MAX) {
      const whenToUse = typeof frontmatter.when_to_use === "string" ? frontmatter.when_to_use : "";
      const listed = length + [...whenToUse].length;
      if (profile === "strict")
        err(
          at,
          "skill/description-length",
          `description is ${length} characters; the spec allows ${DESCRIPTION_MAX}`,
        );
      else
        warn(
          at,
          "skill/description-length",
          `description is ${length} characters, over the spec's ${DESCRIPTION_MAX} (Claude Code lists up to ${CLAUDE_CODE_LISTING_MAX}${listed > CLAUDE_CODE_LISTING_MAX ? `; with when_to_use it is ${listed} and will be cut` : ""})`,
        );
    }
    if (/[<>]/.test(description))
      warn(
        at,
        "skill/description-angle",
        "description contains `<` or `>`, which skill-creator's validator rejects",
      );
  }

  if (typeof frontmatter.compatibility === "string" && frontmatter.compatibility.length > COMPATIBILITY_MAX)
    err(
      fm.locate(["compatibility"]),
      "skill/compatibility-length",
      `compatibility is ${frontmatter.compatibility.length} characters; the spec allows ${COMPATIBILITY_MAX}`,
    );

  const metadata = frontmatter.metadata;
  let version: string | undefined;
  if (metadata && typeof metadata === "object" && !Array.isArray(metadata)) {
    const v = (metadata as Record<string, unknown>).version;
    if (typeof v === "string" || typeof v === "number") {
      version = String(v);
      loc.version = fm.locate(["metadata", "version"]);
    }
  }

  for (const key of Object.keys(frontmatter)) {
    if ((PORTABLE_FRONTMATTER_KEYS as readonly string[]).includes(key)) continue;
    const at = fm.locateKey([key]);
    const ccOnly = (CLAUDE_CODE_FRONTMATTER_KEYS as readonly string[]).includes(key);
    if (profile === "strict")
      err(
        at,
        "skill/unknown-key",
        `unknown frontmatter key \`${key}\`${ccOnly ? " (Claude-Code-only)" : ""}: the strict profile allows only ${PORTABLE_FRONTMATTER_KEYS.join(", ")}`,
      );
    else if (ccOnly)
      warn(at, "skill/claude-code-key", `\`${key}\` is understood by Claude Code only (not portable)`);
    else if (key === "version")
      warn(
        at,
        "skill/version-key",
        "`version` is not a spec key: use `metadata.version` for the skill version",
      );
    else
      warn(at, "skill/unknown-key", `unknown frontmatter key \`${key}\` (ignored by the Agent Skills spec)`);
  }

  let bodyLines = 1;
  for (let i = body.indexOf("\n"); i >= 0; i = body.indexOf("\n", i + 1)) bodyLines++;
  if (bodyLines > BODY_LINES_RECOMMENDED)
    warn(
      { file, line: close + 2, column: 1 },
      "skill/body-length",
      `body is ${bodyLines} lines; the spec recommends under ${BODY_LINES_RECOMMENDED} (move detail into referenced files)`,
    );

  return { frontmatter, body, name, description, version, loc, diagnostics };
}

/**
 * Splits SKILL.md text at its frontmatter: the lines between the first `---` line and the next `---`/`...`
 * line, and everything after (CRLF read as LF in both); `close` is the closing line's index. Walks lines only
 * through the frontmatter, so a long body is sliced, not split.
 */
export function splitFrontmatter(
  src: string,
): { fmText: string; body: string; close: number } | "no-frontmatter" | "unterminated" {
  const lineEnd = (from: number) => {
    const nl = src.indexOf("\n", from);
    return nl < 0 ? src.length : nl;
  };
  const firstEnd = lineEnd(0);
  if (src.slice(0, firstEnd).trim() !== "---") return "no-frontmatter";
  if (firstEnd >= src.length) return "unterminated";
  for (let start = firstEnd + 1, i = 1; ; i++) {
    const end = lineEnd(start);
    if (/^(---|\.\.\.)\s*$/.test(src.slice(start, end))) {
      const fmText = start - 1 > firstEnd + 1 ? src.slice(firstEnd + 1, start - 1) : "";
      const body = end >= src.length ? "" : src.slice(end + 1);
      return { fmText: lf(fmText).replace(/\r$/, ""), body: lf(body), close: i };
    }
    if (end >= src.length) return "unterminated";
    start = end + 1;
  }
}

/** What splitting on /\r?\n/ and joining with "\n" gives. */
function lf(s: string): string {
  return s.includes("\r") ? s.replace(/\r\n/g, "\n") : s;
}
