/**
 * The frontmatter rules of each target: the keys and value types a client accepts, and the limits past which it
 * does not load a skill. Only targets the base names are checked, and what such a target refuses is an error;
 * a rule of a target not named is never reported here (the profile's warnings stay as they are).
 */
import { posix } from "node:path";
import type { Diagnostic, Skill, SourceLocation, Target } from "../../model/index.js";
import { splitFrontmatter } from "../skill-file.js";
import { parseSourceFile, type SourceFile } from "../source-file.js";
import {
  CODEX_DESCRIPTION_MAX,
  CODEX_NAME_MAX,
  SOURCES,
  STRICT_NAME,
  TARGET_TITLES,
  UPLOAD_KEYS,
} from "./rules.js";

/** The frontmatter of a skill with positions, parsed again only when a rule needs a key's line. */
export class FrontmatterLines {
  private parsed: SourceFile | undefined;
  constructor(readonly skill: Skill) {}
  get source(): SourceFile {
    if (!this.parsed) {
      const split = splitFrontmatter(this.skill.raw.replace(/^\uFEFF/, ""));
      this.parsed = parseSourceFile(this.skill.path, typeof split === "string" ? "" : split.fmText, 1);
    }
    return this.parsed;
  }
  key(key: string): SourceLocation {
    return key in this.skill.frontmatter ? this.source.locateKey([key]) : this.skill.loc.frontmatter;
  }
  value(key: string): SourceLocation {
    if (key === "description" && this.skill.loc.description) return this.skill.loc.description;
    if (key === "name" && this.skill.loc.name) return this.skill.loc.name;
    return key in this.skill.frontmatter ? this.source.locate([key]) : this.skill.loc.frontmatter;
  }
}

type Rule = (skill: Skill, lines: FrontmatterLines) => Diagnostic[];

const error = (at: SourceLocation, code: string, message: string): Diagnostic => ({
  ...at,
  severity: "error",
  code,
  message,
});

/** claude.ai and the Skills API refuse an upload whose frontmatter has a key beyond the spec's six. */
const uploadKeys: Rule = (skill, lines) =>
  Object.keys(skill.frontmatter)
    .filter((k) => !(UPLOAD_KEYS as readonly string[]).includes(k))
    .map((k) =>
      error(
        lines.key(k),
        "target/upload-key",
        `\`${k}\`: ${TARGET_TITLES["claude-api"]} refuses the skill ("unexpected key in SKILL.md frontmatter"; it accepts only ${UPLOAD_KEYS.join(", ")}): move it under \`metadata:\` or drop it (${SOURCES.claudeUpload})`,
      ),
    );

/** `gh skill publish` checks the strict name rule, name = folder, both keys, and a string `allowed-tools`. */
const ghSkillPublish: Rule = (skill, lines) => {
  const fm = skill.frontmatter;
  const out: Diagnostic[] = [];
  const refuses = `${TARGET_TITLES["gh-skill"]} refuses it (${SOURCES.ghSkillPublish})`;
  if (Array.isArray(fm["allowed-tools"]))
    out.push(
      error(
        lines.value("allowed-tools"),
        "target/gh-skill-allowed-tools",
        `\`allowed-tools\` is a list, which Claude Code reads but ${refuses}: write one space-separated string (the spec's type is still open: ${SOURCES.allowedToolsType})`,
      ),
    );
  for (const key of ["name", "description"] as const)
    if (typeof fm[key] !== "string")
      out.push(error(lines.value(key), "target/gh-skill-missing", `no \`${key}\` string: ${refuses}`));
  const name = fm.name;
  if (typeof name === "string") {
    if (!STRICT_NAME.test(name) || name.length > CODEX_NAME_MAX)
      out.push(
        error(
          lines.value("name"),
          "target/gh-skill-name",
          `name \`${name}\` is outside the agentskills.io rule (1–64 lowercase letters, digits, single hyphens): ${refuses}`,
        ),
      );
    const folder = posix.basename(skill.dir);
    if (skill.dir !== "." && name !== folder)
      out.push(
        error(
          lines.value("name"),
          "target/gh-skill-name-folder",
          `name \`${name}\` differs from its folder \`${folder}\`: ${refuses}`,
        ),
      );
  }
  return out;
};

/** Codex loads no skill whose name or description is missing, not a string, or too long once whitespace is collapsed. */
const codexLoads: Rule = (skill, lines) => {
  const out: Diagnostic[] = [];
  const notLoaded = `${TARGET_TITLES.codex} does not load the skill (${SOURCES.codexLoader})`;
  for (const [key, max] of [
    ["name", CODEX_NAME_MAX],
    ["description", CODEX_DESCRIPTION_MAX],
  ] as const) {
    const value = skill.frontmatter[key];
    if (typeof value !== "string" || value.trim() === "") {
      out.push(error(lines.value(key), "target/codex-missing", `no \`${key}\` string: ${notLoaded}`));
      continue;
    }
    const length = [...collapse(value)].length;
    if (length > max)
      out.push(
        error(
          lines.value(key),
          "target/codex-length",
          `${key} is ${length} characters once Codex joins its lines; over ${max.toLocaleString("en-US")}, ${notLoaded}`,
        ),
      );
  }
  return out;
};

/** Codex reads a name or description as one line: runs of whitespace become one space. */
export function collapse(s: string): string {
  return s.split(/\s+/).filter(Boolean).join(" ");
}

/**
 * Claude Code loads frontmatter whose values need quoting by quoting them (a warning under its profile); Codex,
 * `gh skill publish` and the upload read it with a YAML parser, which refuses it.
 */
function strictYaml(target: Target, code: string, refuses: string): Rule {
  return (skill, lines) => {
    if (!skill.quotedYaml) return [];
    const first = lines.source.diagnostics[0];
    if (!first) return [];
    return [
      error(
        first,
        code,
        `${first.message.replace(/\s+$/, "")}: ${TARGET_TITLES[target]} reads the frontmatter as YAML and ${refuses}: put the value in quotes`,
      ),
    ];
  };
}

const both =
  (...rules: Rule[]): Rule =>
  (skill, lines) =>
    rules.flatMap((r) => r(skill, lines));

const RULES: Partial<Record<Target, Rule>> = {
  "claude-api": both(
    strictYaml("claude-api", "target/upload-yaml", `refuses the upload (${SOURCES.claudeUpload})`),
    uploadKeys,
  ),
  "gh-skill": both(
    strictYaml("gh-skill", "target/gh-skill-yaml", `refuses it (${SOURCES.ghSkillPublish})`),
    ghSkillPublish,
  ),
  codex: both(
    strictYaml("codex", "target/codex-yaml", `does not load the skill (${SOURCES.codexLoader})`),
    codexLoads,
  ),
};

/** The errors of every target in `targets` that refuses this skill's frontmatter. */
export function frontmatterFindings(
  skill: Skill,
  lines: FrontmatterLines,
  targets: readonly Target[],
): Diagnostic[] {
  return targets.flatMap((t) => RULES[t]?.(skill, lines) ?? []);
}
