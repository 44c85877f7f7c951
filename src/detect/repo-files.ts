import { execFileSync } from "node:child_process";
import { posix } from "node:path";
import type { DirIndex } from "./dir-index.js";

/** The file names a skill is read from: skills-ref accepts lowercase `skill.md` when there is no `SKILL.md`. */
export const SKILL_FILE_NAMES = ["SKILL.md", "skill.md"] as const;

/**
 * Suite files that may sit anywhere and name their skill (skill-creator `evals.json` by `skill_name`, waza's
 * `eval.yaml` and `trigger_tests.yaml` by `skill`), and a Claude Code plugin's manifest.
 */
export const NAMED_SUITE_FILES = new Set([
  "evals.json",
  "eval.yaml",
  "eval.yml",
  "eval.vally.yaml",
  "trigger_tests.yaml",
  "trigger_tests.yml",
]);
export const PLUGIN_MANIFEST = ".claude-plugin/plugin.json";
/** A Codex plugin's manifest (Codex reads it before `.claude-plugin/plugin.json` in the same folder). */
export const CODEX_PLUGIN_MANIFEST = ".codex-plugin/plugin.json";
/** A plugin marketplace's listing (see marketplace.ts; the same path, kept here so listing imports nothing more). */
export const MARKETPLACE_MANIFEST = ".claude-plugin/marketplace.json";
/** A Codex marketplace's listing: `<root>/.agents/plugins/marketplace.json`. */
export const CODEX_MARKETPLACE = ".agents/plugins/marketplace.json";

const atAnyDepth = (path: string, tail: string) => path === tail || path.endsWith(`/${tail}`);

/** A Claude Code or Codex plugin manifest at any depth. */
export function isPluginManifest(path: string): boolean {
  return atAnyDepth(path, PLUGIN_MANIFEST) || atAnyDepth(path, CODEX_PLUGIN_MANIFEST);
}

/** The folder of the plugin a manifest (see `isPluginManifest`) belongs to, repository-relative (`.` for the root). */
export function pluginDirOf(manifest: string): string {
  const tail = manifest.endsWith(CODEX_PLUGIN_MANIFEST) ? CODEX_PLUGIN_MANIFEST : PLUGIN_MANIFEST;
  return manifest === tail ? "." : manifest.slice(0, -(tail.length + 1));
}

/** Never looked into: version control and installed packages. */
export const SKIPPED_DIRS = new Set([".git", ".hg", ".svn", "node_modules"]);
/**
 * Vendored, build and cache folders: looked into only when the folder is itself a skill (a skill may well be
 * called `build`), never below that. Copies of skills there are not the repository's own.
 */
const VENDORED_DIRS = new Set([
  "vendor",
  "third_party",
  "third-party",
  "bower_components",
  "dist",
  "build",
  "out",
  "target",
  "coverage",
  "site-packages",
  "__pycache__",
  ".venv",
  "venv",
  ".tox",
  ".cache",
  ".next",
  ".nuxt",
  ".gradle",
  ".terraform",
]);

/** What discovery needs from the repository's file list: the files skills, suites and plugins are read from. */
export interface RepositoryFiles {
  /** `git`: `git ls-files` (tracked files, plus untracked ones not ignored when asked); `walk`: one walk. */
  source: "git" | "walk";
  /** Paths of `SKILL.md` / `skill.md` files, repository-relative, sorted. */
  skillFiles: string[];
  /** Paths of suite files that name their skill (`NAMED_SUITE_FILES`), sorted. */
  namedSuiteFiles: string[];
  /** Paths of `.claude-plugin/plugin.json` files, sorted. */
  pluginManifests: string[];
  /** Paths of `.claude-plugin/marketplace.json` files, sorted (absent in records made before they were read). */
  marketplaces?: string[];
  /**
   * Paths of symbolic links (git's tracked ones, or a walk's), when the listing knows them (absent in records
   * made before they were read). A skill folder holding one has files elsewhere in the repository.
   */
  links?: string[];
}

export interface ListOptions {
  /** In a git checkout, also list untracked files that are not ignored (a local working tree). */
  untracked: boolean;
}

/**
 * The repository's skill, suite and plugin files. In a git checkout `git ls-files` answers (so git-ignored
 * paths are skipped, and nothing is walked); elsewhere one walk of the folder, whose listings stay in `dirs`
 * for the suite loaders. Symbolic links to folders are never followed: the folder they point at is listed on
 * its own (a link leaving the repository is not read at all), so each real file is found once.
 */
export function listRepositoryFiles(repoDir: string, dirs: DirIndex, opts: ListOptions): RepositoryFiles {
  const listed = gitListing(repoDir, opts.untracked);
  // Git tracking nothing here is a folder it ignores or does not know: it is read as a plain folder.
  const tracked = listed && listed.paths.length > 0 ? listed : undefined;
  const links: string[] = tracked ? tracked.links : [];
  const paths = tracked?.paths ?? walk(dirs, links);
  const out: RepositoryFiles = {
    source: tracked ? "git" : "walk",
    skillFiles: [],
    namedSuiteFiles: [],
    pluginManifests: [],
    marketplaces: [],
    links: links.sort(),
  };
  for (const p of new Set(paths)) {
    const slash = p.lastIndexOf("/");
    const name = p.slice(slash + 1);
    if (name === "SKILL.md" || name === "skill.md") {
      if (!skippedSkillPath(p)) out.skillFiles.push(p);
    } else if (NAMED_SUITE_FILES.has(name)) {
      if (!skippedPath(p)) out.namedSuiteFiles.push(p);
    } else if (name === "plugin.json" && isPluginManifest(p) && !skippedPath(p)) {
      out.pluginManifests.push(p);
    } else if (name === "marketplace.json" && isMarketplace(p) && !skippedPath(p)) {
      out.marketplaces!.push(p);
    }
  }
  out.skillFiles.sort();
  out.namedSuiteFiles.sort();
  out.pluginManifests.sort();
  out.marketplaces!.sort();
  return out;
}

/** A `.claude-plugin/marketplace.json` or a Codex `.agents/plugins/marketplace.json` at any depth. */
export function isMarketplace(path: string): boolean {
  return atAnyDepth(path, MARKETPLACE_MANIFEST) || atAnyDepth(path, CODEX_MARKETPLACE);
}

const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const alternatives = (names: Iterable<string>) => [...names].map(escapeRegex).join("|");
/** A skipped folder anywhere on the path. */
const IN_SKIPPED = new RegExp(`(?:^|/)(?:${alternatives(SKIPPED_DIRS)})/`);
/** A vendored folder with at least one more folder below it (so not the skill's own folder). */
const ABOVE_VENDORED = new RegExp(`(?:^|/)(?:${alternatives(VENDORED_DIRS)})/[^/]+/`);
/** A vendored folder anywhere on the path. */
const IN_VENDORED = new RegExp(`(?:^|/)(?:${alternatives(VENDORED_DIRS)})/`);

/** A SKILL.md below a skipped folder, or below a vendored one that is not the skill's own folder. */
export function skippedSkillPath(path: string): boolean {
  return IN_SKIPPED.test(path) || ABOVE_VENDORED.test(path);
}

/** A file anywhere below a skipped or vendored folder. */
function skippedPath(path: string): boolean {
  return IN_SKIPPED.test(path) || IN_VENDORED.test(path);
}

/** Variables that would point git at another repository than the folder's own. */
const GIT_LOCATION_ENV = ["GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_COMMON_DIR", "GIT_PREFIX"];

/**
 * The files `git ls-files` lists under `repoDir` (relative to it), tracked ones with their mode so the symbolic
 * links among them are known, or undefined when it is not a git work tree or git is missing. One process: a fork
 * costs more than the listing.
 */
function gitListing(repoDir: string, untracked: boolean): { paths: string[]; links: string[] } | undefined {
  const env = { ...process.env };
  for (const k of GIT_LOCATION_ENV) delete env[k];
  let stdout: string;
  try {
    stdout = execFileSync(
      "git",
      ["-C", repoDir, "ls-files", "-z", "--stage", ...(untracked ? ["--others", "--exclude-standard"] : [])],
      { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"], env, maxBuffer: 1024 * 1024 * 1024 },
    );
  } catch {
    return undefined;
  }
  const paths: string[] = [];
  const links: string[] = [];
  // `<mode> <object> <stage>\t<path>` for a tracked file (once per stage in a conflict), the bare path for an
  // untracked one (whose mode git does not say: a link not yet added is not among the links).
  for (const entry of stdout.split("\0")) {
    if (entry === "") continue;
    const tab = entry.indexOf("\t");
    if (tab < 0) {
      paths.push(entry);
      continue;
    }
    const path = entry.slice(tab + 1);
    paths.push(path);
    if (entry.startsWith("120000 ")) links.push(path);
  }
  return { paths, links: [...new Set(links)] };
}

/**
 * Every file path below the root, by one walk through `dirs` (each folder listed once, the listing kept).
 * Skipped folders are not entered; a vendored folder only to see whether it is a skill itself; symbolic links
 * to folders are not followed.
 */
function walk(dirs: DirIndex, links: string[]): string[] {
  const files: string[] = [];
  const stack = [""];
  while (stack.length > 0) {
    const rel = stack.pop()!;
    const vendored = rel !== "" && VENDORED_DIRS.has(posix.basename(rel));
    for (const [name, e] of dirs.list(rel) ?? []) {
      const p = rel ? `${rel}/${name}` : name;
      if (e.link) links.push(p);
      if (e.kind === "file") files.push(p);
      else if (e.kind === "dir" && !e.link && !vendored && !SKIPPED_DIRS.has(name)) stack.push(p);
    }
  }
  return files;
}
