import type { SourceLocation } from "./diagnostics.js";
import type { Suite } from "./suite.js";

export type ValidationProfile = "strict" | "claude-code";

/**
 * A client a repository's skills are written for (`targets:` in the base's `.skillgate.yml`): each loads, lists
 * and accepts skills by its own rules (docs/formats.md, "Targets"). `claude-api` is an upload to claude.ai or the
 * Skills API; `gh-skill` is `gh skill publish`.
 */
export type Target = "claude-code" | "codex" | "copilot" | "gemini" | "claude-api" | "gh-skill";

export const TARGETS: readonly Target[] = [
  "claude-code",
  "codex",
  "copilot",
  "gemini",
  "claude-api",
  "gh-skill",
];

/**
 * Where a SKILL.md sits, by the public conventions: an Agent Skills folder (`.claude/skills/<s>/`,
 * `.agents/skills/<s>/`, `skills/<s>/` …), a Claude Code plugin (`plugins/<p>/skills/<s>/`, or under a folder
 * with `.claude-plugin/plugin.json`), the repository root, a curated dot-folder (`skills/.curated/<s>/`) or
 * any other folder (`scientific-skills/<s>/`: grouped).
 */
export type SkillLayout = "agent-skills" | "plugin" | "root" | "curated" | "grouped";

/** A SKILL.md found in the repository, parsed. Paths are repository-relative, POSIX separators. */
export interface Skill {
  /**
   * The skill's identity in this repository: the frontmatter `name` when valid (else the folder name), prefixed
   * `<plugin>:` for a plugin's skill, as Claude Code names them. Unique per run.
   */
  name: string;
  /**
   * Set on a copy of a skill that another root holds too (template projects each with their own
   * `.agents/skills`, per-agent folders): the name an agent knows it by (its frontmatter name, `plugin:`-prefixed),
   * while `name` is `<agentName>@<dir>`, so each copy is a skill of its own in the run. Unset otherwise: the agent's
   * name is `name`.
   */
  agentName?: string;
  /** The plugin a plugin skill belongs to; names are unique per namespace. */
  namespace?: string;
  /**
   * The folder of that plugin. Two plugins of one name in different folders (two marketplaces mirrored in one
   * repository) are installed apart, so their skills are copies, not a clash.
   */
  pluginDir?: string;
  layout: SkillLayout;
  /** Folder holding SKILL.md, e.g. `.claude/skills/split-cents`; `.` for a skill at the repository root. */
  dir: string;
  /** Path of the SKILL.md file. */
  path: string;
  description: string;
  /** `metadata.version`, the skill version (Agent Skills spec has no top-level version). */
  version?: string;
  frontmatter: Record<string, unknown>;
  body: string;
  /** Raw SKILL.md text. */
  raw: string;
  /**
   * What an agent sees of the skill folder. Discovery reads it on first use: listing every skill folder and
   * hashing every file in it would be most of what discovery costs on a large repository, and a pull request's
   * run needs it only for the skills it evaluates (and a trigger battery's catalogue). Copies of a record
   * share it.
   */
  folder: SkillFolderContent;
  /**
   * The frontmatter is invalid YAML that Claude Code reads by quoting its values (a warning under the claude-code
   * profile): clients that read it as YAML (Codex, `gh skill publish`, the upload) refuse it.
   */
  quotedYaml?: true;
  /** Where things are, for annotations. */
  loc: {
    frontmatter: SourceLocation;
    name?: SourceLocation;
    description?: SourceLocation;
    version?: SourceLocation;
  };
  suite?: Suite;
  /**
   * Where the symbolic links of the skill folder lead, repository-relative (files or folders inside the
   * repository; a link leaving it is an error, never followed): their contents are the skill's, so a change there
   * is a change of the skill.
   */
  linkTargets?: string[];
}

export interface SkillFolderContent {
  /**
   * Files of the skill folder (relative to the skill's `dir`) that are installed for the agent: all a harness
   * loads, its `evals/` too, but the files a suite is read from (`src/detect/withheld.ts`).
   */
  readonly files: string[];
  /** sha256 over those files (path + content, sorted); the suite files are hashed with the suite. */
  readonly contentHash: string;
  /**
   * The checkout the files are read from (absolute), when it is not the arm's own: a base record reused from
   * head's discovery reads head's files, the same bytes (the PR does not touch them).
   */
  readonly root?: string;
}

/** The name + description pair the router sees. */
export interface CatalogueEntry {
  name: string;
  description: string;
}
