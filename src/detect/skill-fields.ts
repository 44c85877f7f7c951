/** The Agent Skills spec's rules for each frontmatter field, as the profile's client applies them. */
import type { Diagnostic, SourceLocation, ValidationProfile } from "../model/index.js";
import { PORTABLE_FRONTMATTER_KEYS } from "./schemas.js";
import type { SourceFile } from "./source-file.js";

/** Agent Skills spec limits (agentskills.io specification). */
export const NAME_MAX = 64;
const DESCRIPTION_MAX = 1024;
/** Claude Code lists description + when_to_use up to this many characters (ANCHORS.md). */
const CLAUDE_CODE_LISTING_MAX = 1536;
const COMPATIBILITY_MAX = 500;
/** The spec recommends a body under 500 lines. */
export const BODY_LINES_RECOMMENDED = 500;
const NAME_PATTERN = /^[a-z0-9]+(-[a-z0-9]+)*$/;
const ASCII = /^[\x00-\x7f]*$/;
/** skills-ref's rule: lowercase letters of any script, digits, single hyphens. */
export const UNICODE_NAME_PATTERN = /^[\p{Ll}\p{Lo}\p{Nd}]+(-[\p{Ll}\p{Lo}\p{Nd}]+)*$/u;

/** Keys Claude Code understands beyond the portable six (ANCHORS.md § Agent Skills). */
const CLAUDE_CODE_FRONTMATTER_KEYS = new Set([
  "when_to_use",
  "argument-hint",
  "disable-model-invocation",
  "user-invocable",
  "paths",
  "model",
  "effort",
  "context",
  "agent",
  "hooks",
  "shell",
]);

/** What a skill's `name` must equal: its folder's name, or for a skill at the repository root the repository's. */
export interface ExpectedName {
  name: string;
  /** How the message names it, e.g. "its folder name" or "the repository's name". */
  what: string;
  /** Why, when it is not obvious. */
  why?: string;
}

type Report = (loc: SourceLocation, code: string, message: string) => void;

/** One SKILL.md's frontmatter under check, and where its problems go. */
export interface FieldCheck {
  fm: SourceFile;
  frontmatter: Record<string, unknown>;
  profile: ValidationProfile;
  diagnostics: Diagnostic[];
  err: Report;
  warn: Report;
}

/** `name`: the spec's length and pattern, and equal to `expected`; returns it when it is a string. */
export function checkName(
  c: FieldCheck,
  expected: ExpectedName | null,
  loc: { name?: SourceLocation },
): string | undefined {
  const { fm, frontmatter, profile, err, warn } = c;
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

  return name;
}

/** `description`: not empty, within the spec's length, no angle brackets; returns it when it is a string. */
export function checkDescription(c: FieldCheck, loc: { description?: SourceLocation }): string | undefined {
  const { fm, frontmatter, profile, err, warn } = c;
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

  return description;
}

/** `compatibility` within the spec's length. */
export function checkCompatibility(c: FieldCheck): void {
  const { fm, frontmatter, err } = c;
  if (typeof frontmatter.compatibility === "string" && frontmatter.compatibility.length > COMPATIBILITY_MAX)
    err(
      fm.locate(["compatibility"]),
      "skill/compatibility-length",
      `compatibility is ${frontmatter.compatibility.length} characters; the spec allows ${COMPATIBILITY_MAX}`,
    );
}

/** `metadata`: a mapping of strings; returns `metadata.version` when there is one. */
export function checkMetadata(c: FieldCheck, loc: { version?: SourceLocation }): string | undefined {
  const { fm, frontmatter, profile, diagnostics, err, warn } = c;
  const metadata = jsonStringMetadata(frontmatter.metadata, fm.locate(["metadata"]), profile, diagnostics);
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

  return version;
}

/** `allowed-tools`, and every key the spec does not define. */
export function checkToolsAndKeys(c: FieldCheck): void {
  const { fm, frontmatter, profile, err, warn } = c;
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
    if (PORTABLE_FRONTMATTER_KEYS.includes(key)) continue;
    const at = fm.locateKey([key]);
    const ccOnly = CLAUDE_CODE_FRONTMATTER_KEYS.has(key);
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
}

/**
 * `metadata` written as a JSON string (OpenClaw's `metadata: '{"openclaw": {…}}'`): read as the mapping it holds.
 * Claude Code loads the skill whatever `metadata` is; the spec wants a mapping, so strict warns. A string that holds
 * no JSON mapping is not metadata at all: an error under strict, a warning by default.
 */
function jsonStringMetadata(
  metadata: unknown,
  at: SourceLocation,
  profile: ValidationProfile,
  diagnostics: Diagnostic[],
): unknown {
  if (typeof metadata !== "string") return metadata;
  let parsed: unknown;
  try {
    parsed = JSON.parse(metadata);
  } catch {
    parsed = undefined;
  }
  const mapping = !!parsed && typeof parsed === "object" && !Array.isArray(parsed);
  diagnostics.push({
    ...at,
    severity: mapping
      ? profile === "strict"
        ? "warning"
        : "notice"
      : profile === "strict"
        ? "error"
        : "warning",
    code: "skill/metadata-string",
    message: mapping
      ? "`metadata` is a JSON string (OpenClaw's style): read as the mapping it holds; the spec wants a YAML mapping"
      : "`metadata` is a string, not a mapping: Claude Code ignores it; the spec wants a mapping of strings",
  });
  // Values inside OpenClaw's mapping are its own (nested objects): not graded as the spec's string values.
  return undefined;
}
