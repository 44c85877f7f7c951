import { posix } from "node:path";
import type { Diagnostic, SourceLocation, ValidationProfile } from "../model/index.js";
import { quoteProblematicValues } from "./frontmatter-quoting.js";
import { frontmatterDivergence } from "./frontmatter-reading.js";
import { CLAUDE_CODE_FRONTMATTER_KEYS, frontmatterSchema, PORTABLE_FRONTMATTER_KEYS } from "./schemas.js";
import { parseSourceFile, type SourceFile } from "./source-file.js";
import { validateAgainst } from "./validate.js";

/** Agent Skills spec limits (agentskills.io specification). */
export const NAME_MAX = 64;
const DESCRIPTION_MAX = 1024;
/** Claude Code lists description + when_to_use up to this many characters (ANCHORS.md). */
const CLAUDE_CODE_LISTING_MAX = 1536;
const COMPATIBILITY_MAX = 500;
/** The spec recommends a body under 500 lines. */
const BODY_LINES_RECOMMENDED = 500;
const NAME_PATTERN = /^[a-z0-9]+(-[a-z0-9]+)*$/;
const ASCII = /^[\x00-\x7f]*$/;
/** skills-ref's rule: lowercase letters of any script, digits, single hyphens. */
export const UNICODE_NAME_PATTERN = /^[\p{Ll}\p{Lo}\p{Nd}]+(-[\p{Ll}\p{Lo}\p{Nd}]+)*$/u;

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
  /** No frontmatter at all: a file no agent loads as a skill. */
  notASkill?: boolean;
}

/** What a skill's `name` must equal: its folder's name, or for a skill at the repository root the repository's. */
export interface ExpectedName {
  name: string;
  /** How the message names it, e.g. "its folder name" or "the repository's name". */
  what: string;
  /** Why, when it is not obvious. */
  why?: string;
}

/**
 * Parses and checks one SKILL.md. `file` is repository-relative; `name` must equal `expected` (by default the
 * folder's name; `null` for a root skill of a repository whose name is unknown: nothing to compare with).
 * Never throws: every problem is a located diagnostic.
 */
export function parseSkillFile(
  file: string,
  text: string,
  profile: ValidationProfile,
  expected: ExpectedName | null = {
    name: posix.basename(posix.dirname(file)),
    what: "its folder name",
  },
): ParsedSkillFile {
  const diagnostics: Diagnostic[] = [];
  const top: SourceLocation = { file, line: 1, column: 1 };
  const err = (loc: SourceLocation, code: string, message: string) =>
    diagnostics.push({ ...loc, severity: "error", code, message });
  const warn = (loc: SourceLocation, code: string, message: string) =>
    diagnostics.push({ ...loc, severity: "warning", code, message });

  const src = text.replace(/^\uFEFF/, "");
  const split = splitFrontmatter(src);
  const divergence = frontmatterDivergence(file, src, typeof split === "string" ? undefined : split);
  if (divergence) {
    // Read one way here and another by the agent's harness: what would be gated is not what the agent loads.
    diagnostics.push(divergence);
    return { frontmatter: {}, body: src, loc: { frontmatter: top }, diagnostics };
  }
  if (split === "no-frontmatter") {
    // Claude Code loads no skill from such a file (a template, a fragment, a preview): neither does skillgate.
    diagnostics.push({
      ...top,
      severity: "notice",
      code: "skill/no-frontmatter",
      message: `not a skill: ${posix.basename(file)} has no YAML frontmatter (a \`---\` line, then name and description), so no agent loads it`,
    });
    return { frontmatter: {}, body: src, loc: { frontmatter: top }, diagnostics, notASkill: true };
  }
  if (split === "unterminated") {
    err(top, "skill/unterminated-frontmatter", "frontmatter is not closed: add a `---` line after it");
    return { frontmatter: {}, body: "", loc: { frontmatter: top }, diagnostics };
  }
  const { fmText, body, close } = split;
  const fm = readFrontmatter(file, fmText, profile, diagnostics);
  const loc: ParsedSkillFile["loc"] = { frontmatter: { file, line: 2, column: 1 } };
  if (fm.value === undefined) return { frontmatter: {}, body, loc, diagnostics };
  if (!isMapping(fm.value)) {
    err(loc.frontmatter, "skill/frontmatter-shape", "frontmatter must be a YAML mapping of keys to values");
    return { frontmatter: {}, body, loc, diagnostics };
  }
  const frontmatter = fm.value;
  if (isTemplateName(frontmatter.name)) {
    // `name: "{skill-name}"`: a template to copy, which no agent loads as it stands.
    diagnostics.push({
      ...fm.locate(["name"]),
      severity: "notice",
      code: "skill/template",
      message: `not a skill: its name \`${frontmatter.name}\` is a template placeholder (a file to copy and fill in)`,
    });
    return { frontmatter, body, loc, diagnostics, notASkill: true };
  }
  diagnostics.push(
    ...validateAgainst(frontmatterSchema, frontmatter, fm, [], "skill/frontmatter").map((d) =>
      profile === "claude-code" ? claudeCodeDefault(d) : d,
    ),
  );

  const name = typeof frontmatter.name === "string" ? frontmatter.name : undefined;
  if ("name" in frontmatter) loc.name = fm.locate(["name"]);
  if (name !== undefined) {
    const at = loc.name!;
    const length = ASCII.test(name) ? name.length : [...name].length;
    // Claude Code loads a skill whatever its name (listed by its folder's name, the name an alias): under
    // `claude-code` a name outside the spec's rule is a warning, and skillgate too names the skill by its folder.
    const nameProblem = profile === "strict" ? err : warn;
    const listedAs =
      profile === "strict"
        ? ""
        : `; Claude Code loads it, listed by its folder's name (strict profile: error)`;
    if (length < 1 || length > NAME_MAX)
      nameProblem(at, "skill/name-length", `name must be 1–${NAME_MAX} characters (is ${length})${listedAs}`);
    else if (!NAME_PATTERN.test(name)) {
      // skills-ref accepts lowercase letters of any script; the spec's examples and most clients are ASCII.
      if (profile === "claude-code" && UNICODE_NAME_PATTERN.test(name))
        warn(
          at,
          "skill/name-unicode",
          `name \`${name}\` uses letters outside a-z: accepted by skills-ref, not portable (the strict profile rejects it)`,
        );
      else
        nameProblem(
          at,
          "skill/name-pattern",
          `name \`${name}\` must be lowercase letters, digits and single hyphens (no leading, trailing or double \`-\`)${listedAs}`,
        );
    }
    if (expected && name !== expected.name && name.normalize("NFKC") !== expected.name.normalize("NFKC")) {
      // The spec's rule; Claude Code takes the name from `name:` whatever the folder is called.
      const message = `name \`${name}\` ${profile === "strict" ? "must equal" : "differs from"} ${expected.what} \`${expected.name}\`${expected.why ? ` (${expected.why})` : ""}`;
      if (profile === "strict") err(at, "skill/name-folder", message);
      else
        warn(
          at,
          "skill/name-folder",
          `${message}: the spec requires them equal (strict profile); Claude Code loads it as \`${name}\``,
        );
    }
  }

  const description = typeof frontmatter.description === "string" ? frontmatter.description : undefined;
  if ("description" in frontmatter) loc.description = fm.locate(["description"]);
  if (description !== undefined) {
    const at = loc.description!;
    const length = [...description].length;
    if (description.trim().length === 0) err(at, "skill/description-empty", "description must not be empty");
    if (length > DESCRIPTION_MAX) {
      const whenToUse = typeof frontmatter.when_to_use === "string" ? frontmatter.when_to_use : undefined;
      const listed = length + (whenToUse === undefined ? 0 : [...whenToUse].length);
      const cut =
        listed <= CLAUDE_CODE_LISTING_MAX
          ? ""
          : whenToUse === undefined
            ? " and will be cut"
            : `; with when_to_use it is ${listed} and will be cut`;
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
          `description is ${length} characters, over the spec's ${DESCRIPTION_MAX} (Claude Code lists up to ${CLAUDE_CODE_LISTING_MAX}${cut})`,
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
    // The spec's metadata maps strings to strings. skills-ref coerces other values to strings and Claude Code
    // loads them: a warning by default, an error under strict (the spec's word).
    for (const [k, v] of Object.entries(metadata as Record<string, unknown>)) {
      if (typeof v === "string") continue;
      const at = fm.locate(["metadata", k]);
      const shown =
        v === null
          ? "null"
          : Array.isArray(v)
            ? "a list"
            : typeof v === "object"
              ? "a mapping"
              : `a ${typeof v}`;
      if (profile === "strict")
        err(
          at,
          "skill/metadata-value",
          `\`metadata.${k}\` is ${shown}; the spec allows only strings (quote it)`,
        );
      else
        warn(
          at,
          "skill/metadata-value",
          `\`metadata.${k}\` is ${shown}, read as a string (as skills-ref does); quote it to be portable`,
        );
    }
    const v = (metadata as Record<string, unknown>).version;
    if (typeof v === "string" || typeof v === "number") {
      version = String(v);
      loc.version = fm.locate(["metadata", "version"]);
    }
  }

  // The spec's `allowed-tools` is one space-separated string; Claude Code also reads a YAML list, whose tool
  // names may hold spaces (`Bash(git status)`).
  const allowedTools = frontmatter["allowed-tools"];
  if (Array.isArray(allowedTools)) {
    const at = fm.locate(["allowed-tools"]);
    if (profile === "strict")
      err(
        at,
        "skill/allowed-tools-list",
        "`allowed-tools` must be one space-separated string under the spec",
      );
    else
      warn(
        at,
        "skill/allowed-tools-list",
        "`allowed-tools` as a list is Claude Code's form; the spec's is one space-separated string",
      );
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

  // Claude Code reads the first paragraph of the body when there is no description (its skills docs).
  const read = description ?? (profile === "claude-code" ? firstParagraph(body) : undefined);
  return { frontmatter, body, name, description: read, version, loc, diagnostics };
}

/** `{skill-name}`, `{{ name }}`, `<skill-name>`, `[name]`: a placeholder of a template, not a name. */
function isTemplateName(name: unknown): boolean {
  return typeof name === "string" && /^\s*(\{\{?[^{}]*\}?\}|<[^<>]*>|\[[^[\]]*\])\s*$/.test(name);
}

/**
 * Under the `claude-code` profile a missing `name` or `description` is a warning: Claude Code names such a skill
 * after its folder and reads its first paragraph as the description. The spec requires both (`strict`).
 */
function claudeCodeDefault(d: Diagnostic): Diagnostic {
  const m = /^missing required key `(name|description)`$/.exec(d.message);
  if (!m) return d;
  const fallback = m[1] === "name" ? "its folder's name" : "the first paragraph of the body";
  return {
    ...d,
    severity: "warning",
    message: `${d.message}: Claude Code uses ${fallback}, so does skillgate; the spec requires it (strict profile)`,
  };
}

/** The body's first paragraph of text (headings, blank lines and code fences skipped), as Claude Code reads it. */
function firstParagraph(body: string): string | undefined {
  const lines: string[] = [];
  for (const line of body.split("\n")) {
    const t = line.trim();
    if (t === "" || t.startsWith("#") || t.startsWith("```")) {
      if (lines.length > 0) break;
      continue;
    }
    lines.push(t);
  }
  return lines.length > 0 ? lines.join("\n") : undefined;
}

/**
 * The frontmatter as the profile's client reads it. Invalid YAML is an error, except under `claude-code` when
 * Claude Code's second reading (its problematic values quoted) parses: Claude Code loads that skill, so it is a
 * warning at the first YAML error, and the values are the quoted reading's.
 */
function readFrontmatter(
  file: string,
  fmText: string,
  profile: ValidationProfile,
  diagnostics: Diagnostic[],
): SourceFile {
  const fm = parseSourceFile(file, fmText, 1);
  const yamlErrors = fm.diagnostics.map((d) => ({ ...d, code: "skill/frontmatter-yaml" }));
  const quoted =
    profile === "claude-code" && yamlErrors.length > 0 ? quoteProblematicValues(fmText) : undefined;
  const second = quoted && parseSourceFile(file, quoted.text, 1);
  if (!quoted || !second || second.diagnostics.length > 0 || !isMapping(second.value)) {
    diagnostics.push(...yamlErrors);
    return fm;
  }
  const first = yamlErrors[0]!;
  const keys = quoted.quotedKeys.map((k) => `\`${k}\``).join(", ");
  diagnostics.push({
    ...first,
    severity: "warning",
    message: `${first.message}; Claude Code loads the skill by quoting the value of ${keys}, but YAML, skills-ref and other clients reject the file (strict profile: error): put the value in quotes`,
  });
  return second;
}

function isMapping(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v);
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
