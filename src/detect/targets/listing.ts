/**
 * What a target lists of a skill for its model to route by, and where the words past its limit begin: Claude Code
 * lists `description` + `when_to_use` up to 1,536 characters; Codex lists every skill on one line
 * (`- name: description (file: path)`) within one budget for all of them, in name order, and what does not fit
 * is shortened or left out. Trigger words past a limit route nothing: a warning at the line where they begin.
 */
import type { Diagnostic, Skill, SourceLocation, Target } from "../../model/index.js";
import { collapse, type FrontmatterLines } from "./frontmatter.js";
import {
  CLAUDE_CODE_LISTING_MAX,
  CODEX_CATALOGUE_CHARS,
  CODEX_DESCRIPTION_MAX,
  CODEX_NAME_MAX,
  SOURCES,
} from "./rules.js";

/** Characters as Codex and Claude Code count them (code points); most text has no surrogate pair to count once. */
const length = (s: string) => (/[\uD800-\uDFFF]/.test(s) ? [...s].length : s.length);

/** The first words from `index` (codepoints) of `text`, for a message. */
function wordsFrom(text: string, index: number): string {
  const words = [...text].slice(index).join("").trim().split(/\s+/);
  return `${words.slice(0, 6).join(" ")}${words.length > 6 ? " …" : ""}`;
}

/**
 * The place in SKILL.md of the `index`-th character of the scalar at `key` (plain, quoted, or a `|`/`>` block):
 * its lines are walked, each line break counting as one character, as YAML folds or keeps it.
 */
export function locateInScalar(lines: FrontmatterLines, key: string, index: number): SourceLocation {
  const start = lines.value(key);
  const text = lines.source.text.split("\n");
  let row = start.line - 2; // the frontmatter's first line is SKILL.md's second
  if (row < 0 || row >= text.length) return start;
  let col = start.column - 1;
  const head = text[row]!.slice(col);
  const block = /^[|>]/.test(head);
  if (/^["']/.test(head)) col += 1;
  let seen = 0;
  for (let first = true; row < text.length; row++, first = false) {
    const raw = text[row]!;
    if (!first && raw.trim() !== "" && !/^\s/.test(raw)) break; // the next key: the scalar ended
    if (first && block) continue; // the indicator line holds no text
    const from = first ? col : raw.length - raw.trimStart().length;
    const content = raw.slice(from).trimEnd();
    const n = length(content);
    if (seen + n >= index) return { file: start.file, line: row + 2, column: from + (index - seen) + 1 };
    seen += n + 1;
  }
  return start;
}

const warning = (at: SourceLocation, code: string, message: string): Diagnostic => ({
  ...at,
  severity: "warning",
  code,
  message,
});

/** Claude Code: words past the 1,536th character of `description` + `when_to_use` are not listed. */
export function claudeCodeListing(skill: Skill, lines: FrontmatterLines): Diagnostic[] {
  const description = skill.frontmatter.description;
  if (typeof description !== "string") return [];
  const whenToUse = typeof skill.frontmatter.when_to_use === "string" ? skill.frontmatter.when_to_use : "";
  const total = length(description) + length(whenToUse);
  if (total <= CLAUDE_CODE_LISTING_MAX) return [];
  const inDescription = length(description) > CLAUDE_CODE_LISTING_MAX;
  const key = inDescription ? "description" : "when_to_use";
  const index = inDescription ? CLAUDE_CODE_LISTING_MAX : CLAUDE_CODE_LISTING_MAX - length(description);
  const text = inDescription ? description : whenToUse;
  return [
    warning(
      locateInScalar(lines, key, index),
      "target/listing-cut",
      `Claude Code lists description + when_to_use up to ${CLAUDE_CODE_LISTING_MAX.toLocaleString("en-US")} characters (these are ${total.toLocaleString("en-US")}): from here ("${wordsFrom(text, index)}") nothing reaches the router; put the trigger words first (${SOURCES.claudeCodeSkills})`,
    ),
  ];
}

/** A skill's line in Codex's list, as its renderer writes it (a repository-relative path: Codex prints an absolute one). */
export function codexLine(skill: Skill): string {
  const name = typeof skill.frontmatter.name === "string" ? collapse(skill.frontmatter.name) : skill.name;
  const description = collapse(skill.description);
  return `- ${name}: ${description} (file: ${skill.path})\n`;
}

/**
 * The skills one Codex session started at the repository root lists: those of the root `.agents/skills` it loads
 * (a name and a description within its limits, frontmatter a YAML parser reads), by name then path.
 */
export function codexCatalogue(skills: readonly Skill[]): Skill[] {
  const named = skills
    .filter((s) => s.path.startsWith(".agents/skills/") && !s.quotedYaml && codexLoads(s))
    .map((s) => ({ s, name: codexName(s) }));
  named.sort((a, b) => cmp(a.name, b.name) || cmp(a.s.path, b.s.path));
  return named.map((n) => n.s);
}

function codexLoads(s: Skill): boolean {
  const { name, description } = s.frontmatter;
  if (typeof name !== "string" || typeof description !== "string") return false;
  const n = length(collapse(name));
  const d = length(collapse(description));
  return n > 0 && d > 0 && n <= CODEX_NAME_MAX && d <= CODEX_DESCRIPTION_MAX;
}

const codexName = (s: Skill) =>
  typeof s.frontmatter.name === "string" ? collapse(s.frontmatter.name) : s.name;
const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Each skill's line length, and whether it fits Codex's budget whole (it goes on past an entry that does not fit). */
export function codexFit(
  catalogue: readonly Skill[],
  budget = CODEX_CATALOGUE_CHARS,
): Map<Skill, { fit: boolean; cost: number }> {
  const fits = new Map<Skill, { fit: boolean; cost: number }>();
  let used = 0;
  for (const skill of catalogue) {
    const cost = length(codexLine(skill));
    const fit = used + cost <= budget;
    if (fit) used += cost;
    fits.set(skill, { fit, cost });
  }
  return fits;
}

/** Codex: a skill whose line does not fit the list's budget is routed by a shortened description, or not at all. */
export function codexListing(skills: readonly Skill[], lineOf: (s: Skill) => FrontmatterLines): Diagnostic[] {
  const fits = codexFit(codexCatalogue(skills));
  let total = 0;
  let kept = 0;
  for (const { fit, cost } of fits.values()) {
    total += cost;
    if (fit) kept++;
  }
  if (total <= CODEX_CATALOGUE_CHARS) return [];
  const message = `Codex's skill list is ${total.toLocaleString("en-US")} characters here, over its ${CODEX_CATALOGUE_CHARS.toLocaleString("en-US")} (when it does not know the model's context window; else about 2 % of it): ${kept} of ${fits.size} skills fit whole, and Codex shortens descriptions or leaves skills out, so this one's trigger words may not reach the model (${SOURCES.codexSkills})`;
  return [...fits]
    .filter(([, f]) => !f.fit)
    .map(([s]) => warning(lineOf(s).value("description"), "target/codex-catalogue", message));
}

/** Listing findings of the targets that list skills. */
export function listingFindings(
  skill: Skill,
  lines: FrontmatterLines,
  targets: readonly Target[],
): Diagnostic[] {
  return targets.includes("claude-code") ? claudeCodeListing(skill, lines) : [];
}
