import { posix } from "node:path";
import type { Diagnostic, SourceLocation, ValidationProfile } from "../model/index.js";
import { quoteProblematicValues } from "./frontmatter-quoting.js";
import { frontmatterDivergence } from "./frontmatter-reading.js";
import { claudeCodeValues, lastKeyWins } from "./frontmatter-values.js";
import { frontmatterSchema } from "./schemas.js";
import {
  BODY_LINES_RECOMMENDED,
  checkCompatibility,
  checkDescription,
  checkMetadata,
  checkName,
  checkToolsAndKeys,
  type ExpectedName,
  type FieldCheck,
} from "./skill-fields.js";
import { parseFastOnly, parseSourceFile, type SourceFile } from "./source-file.js";
import { validateAgainst } from "./validate.js";

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
  const checked = checkShape(frontmatter, fm, profile, diagnostics);

  const check: FieldCheck = { fm, frontmatter: checked, profile, diagnostics, err, warn };
  const name = checkName(check, expected, loc);
  const description = checkDescription(check, loc);
  checkCompatibility(check);
  const version = checkMetadata(check, loc);
  checkToolsAndKeys(check);

  checkBodyLength(body, { file, line: close + 2, column: 1 }, warn);

  // Claude Code reads the first paragraph of the body when there is no description (its skills docs).
  const read = description ?? (profile === "claude-code" ? firstParagraph(body) : undefined);
  return { frontmatter, body, name, description: read, version, loc, diagnostics };
}

/**
 * The frontmatter against the spec's schema; returns the frontmatter the field checks read. Under `claude-code`,
 * values Claude Code loads past are warned about here and left out of the spec's checks.
 */
function checkShape(
  frontmatter: Record<string, unknown>,
  fm: Parameters<typeof claudeCodeValues>[1],
  profile: ValidationProfile,
  diagnostics: Diagnostic[],
): Record<string, unknown> {
  const values = profile === "claude-code" ? claudeCodeValues(frontmatter, fm) : undefined;
  const checked = values?.checked ?? frontmatter;
  diagnostics.push(...(values?.warnings ?? []));
  diagnostics.push(
    ...validateAgainst(frontmatterSchema, checked, fm, [], "skill/frontmatter")
      // A key left out above is not missing: its warning says what Claude Code reads instead.
      .filter(
        (d) =>
          !Object.keys(frontmatter).some(
            (k) => !(k in checked) && d.message === `missing required key \`${k}\``,
          ),
      )
      .map((d) => (profile === "claude-code" ? claudeCodeDefault(d) : d)),
  );
  return checked;
}

function checkBodyLength(
  body: string,
  at: SourceLocation,
  warn: (loc: SourceLocation, code: string, message: string) => void,
): void {
  let bodyLines = 1;
  for (let i = body.indexOf("\n"); i >= 0; i = body.indexOf("\n", i + 1)) bodyLines++;
  if (bodyLines > BODY_LINES_RECOMMENDED)
    warn(
      at,
      "skill/body-length",
      `body is ${bodyLines} lines; the spec recommends under ${BODY_LINES_RECOMMENDED} (move detail into referenced files)`,
    );
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
  const known = profile === "claude-code" ? compactMappingsQuoted(file, fmText) : undefined;
  if (known) {
    diagnostics.push(known.warning);
    return known.second;
  }
  const fm = parseSourceFile(file, fmText, 1);
  const yamlErrors = fm.diagnostics.map((d) => ({ ...d, code: "skill/frontmatter-yaml" }));
  // A key written twice: Claude Code reads the last one.
  const twice = profile === "claude-code" ? lastKeyWins(file, fmText, yamlErrors) : undefined;
  if (twice) {
    diagnostics.push(...twice.warnings);
    return twice.second;
  }
  const quoted =
    profile === "claude-code" && yamlErrors.length > 0 ? quoteProblematicValues(fmText) : undefined;
  const second = quoted && parseSourceFile(file, quoted.text, 1);
  if (!quoted || !second || second.diagnostics.length > 0 || !isMapping(second.value)) {
    diagnostics.push(...yamlErrors);
    return fm;
  }
  diagnostics.push(quotedWarning(yamlErrors[0]!, quoted.quotedKeys));
  return second;
}

/** The warning of a frontmatter Claude Code reads only quoted, at YAML's first error. */
function quotedWarning(first: Diagnostic, quotedKeys: readonly string[]): Diagnostic {
  const keys = quotedKeys.map((k) => `\`${k}\``).join(", ");
  return {
    ...first,
    severity: "warning",
    message: `${first.message}; Claude Code loads the skill by quoting the value of ${keys}, but YAML, skills-ref and other clients reject the file (strict profile: error): put the value in quotes`,
  };
}

/** A top-level `key: value` whose plain value holds `: ` and nothing else YAML reads specially. */
const COMPACT_MAPPING_LINE = /^[a-zA-Z_-]+:\s+([A-Za-z][^{}[\]*&#!|>%@`"'\\\t]*: [^{}[\]*&#!|>%@`"'\\\t]*)$/;

/**
 * `description: Reads PDFs: forms, tables` (a registry's commonest YAML error) without the YAML composer: when
 * every line Claude Code quotes is such a plain value and the quoted text is plain block YAML (the fast path reads
 * it whole), YAML's first error is at the first of those values, "Nested mappings are not allowed in compact
 * mappings" (test/detect/fast-parse.test.ts compares this with `yaml` on generated frontmatters). Undefined
 * otherwise: the caller composes the text as before.
 */
export function compactMappingsQuoted(
  file: string,
  fmText: string,
): { second: SourceFile; warning: Diagnostic } | undefined {
  if (!/^[a-zA-Z_-]+:\s+[A-Za-z][^\n]*?: /m.test(fmText)) return undefined;
  const quoted = quoteProblematicValues(fmText);
  if (!quoted) return undefined;
  let offset = 0;
  let first: number | undefined;
  for (const line of fmText.split("\n")) {
    const plain = COMPACT_MAPPING_LINE.exec(line);
    if (plain) first ??= offset + line.length - plain[1]!.length;
    else if (quoteProblematicValues(line)) return undefined; // quoted for another reason
    offset += line.length + 1;
  }
  if (first === undefined) return undefined;
  const second = parseFastOnly(file, quoted.text, 1);
  if (!second || !isMapping(second.value)) return undefined;
  const error: Diagnostic = {
    ...second.at(first),
    severity: "error",
    code: "skill/frontmatter-yaml",
    message: "invalid YAML: Nested mappings are not allowed in compact mappings",
  };
  return { second, warning: quotedWarning(error, quoted.quotedKeys) };
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
