import type { SourceLocation } from "./diagnostics.js";
import type { Suite } from "./suite.js";

export type ValidationProfile = "strict" | "claude-code";

/** A SKILL.md found in the repository, parsed. Paths are repository-relative, POSIX separators. */
export interface Skill {
  /** The frontmatter `name` when valid, else the folder name. */
  name: string;
  /** Folder holding SKILL.md, e.g. `.claude/skills/split-cents`. */
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
  /** Where things are, for annotations. */
  loc: {
    frontmatter: SourceLocation;
    name?: SourceLocation;
    description?: SourceLocation;
    version?: SourceLocation;
  };
  suite?: Suite;
}

export interface SkillFolderContent {
  /** Files of the skill folder (relative to the skill's `dir`) that are installed for the agent; never `evals/`. */
  readonly files: string[];
  /** sha256 over every file of the skill folder except `evals/` (path + content, sorted). */
  readonly contentHash: string;
}

/** The name + description pair the router sees. */
export interface CatalogueEntry {
  name: string;
  description: string;
}
