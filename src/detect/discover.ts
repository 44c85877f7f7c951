import { hash } from "node:crypto";
import { join, posix } from "node:path";
import picomatch from "picomatch";
import { globSync } from "tinyglobby";
import type { Diagnostic, Skill, SkillFolderContent, Suite, ValidationProfile } from "../model/index.js";
import { readRegularFile, sha256OfFile } from "../util/read-file.js";
import { DirIndex } from "./dir-index.js";
import { SUITE_FORMATS, type SuiteDraft } from "./formats/index.js";
import { parseSkillFile } from "./skill-file.js";
import { type AssertionTypeLookup, SuiteReader } from "./suite-context.js";
import { SEED_EVALS_DIR, touchedBy } from "./touched.js";

/** Where teams keep skills (DESIGN.md § Repository conventions). */
export const DEFAULT_SKILL_GLOBS = [
  ".claude/skills/*/SKILL.md",
  ".agents/skills/*/SKILL.md",
  ".github/skills/*/SKILL.md",
  ".agent/skills/*/SKILL.md",
  "skills/*/SKILL.md",
];

export { SEED_EVALS_DIR };

export interface DiscoverOptions {
  globs?: string[];
  include?: string[];
  exclude?: string[];
  profile: ValidationProfile;
  assertionTypes: AssertionTypeLookup;
  /** Base side of a PR whose changed files are known: take untouched skills from head's discovery. */
  reuse?: ReuseUnchanged;
}

export interface Discovery {
  repoDir: string;
  skills: Skill[];
  diagnostics: Diagnostic[];
}

/**
 * A discovery to take unchanged skills from: when the PR's changed files are known (PR API or git), a skill
 * folder and suite none of them touch is the same on both sides, so the base side reuses head's record
 * instead of reading and parsing it again. The comparison then measures exactly what the PR changed.
 */
export interface ReuseUnchanged {
  from: Discovery;
  changedFiles: readonly string[];
}

/** Finds every skill and its eval suite; never throws on bad input (diagnostics carry every problem). */
export function discoverRepository(repoDir: string, opts: DiscoverOptions): Discovery {
  const diagnostics: Diagnostic[] = [];
  const dirs = new DirIndex(repoDir);
  const reuse = opts.reuse && reusable(opts.reuse);
  const files = findSkillFiles(repoDir, opts.globs ?? DEFAULT_SKILL_GLOBS, dirs);
  const include = opts.include?.length ? picomatch(opts.include, { dot: true }) : undefined;
  const exclude = opts.exclude?.length ? picomatch(opts.exclude, { dot: true }) : undefined;
  const skills: Skill[] = [];
  const byName = new Map<string, Skill>();
  const fresh = new Set<Skill>();
  for (const path of files) {
    if (include && !include(path)) continue;
    if (exclude?.(path)) continue;
    const kept = reuse?.unchanged(path);
    const skill = kept ? { ...kept } : loadSkill(repoDir, path, opts.profile, dirs, diagnostics);
    if (!skill) continue;
    if (!kept) fresh.add(skill);
    const clash = byName.get(skill.name);
    if (clash) {
      diagnostics.push({
        ...(skill.loc.name ?? skill.loc.frontmatter),
        severity: "error",
        code: "skill/duplicate-name",
        message: `skill name \`${skill.name}\` is also used by ${clash.path}; names must be unique in a repository`,
      });
      continue;
    }
    byName.set(skill.name, skill);
    skills.push(skill);
  }
  const reader = new SuiteReader(repoDir, opts.assertionTypes, dirs);
  for (const skill of skills) {
    if (!fresh.has(skill)) continue; // a reused record keeps its suite
    const suite = loadSuite(reader, skill, diagnostics);
    if (suite) skill.suite = suite;
  }
  // Suites in the seed folder with no skill: the skill was renamed or deleted, or the folder name is wrong.
  for (const [dir, entry] of [...(dirs.list(SEED_EVALS_DIR) ?? [])].sort(([a], [b]) => (a < b ? -1 : 1)))
    if (entry.kind === "dir" && !byName.has(dir))
      diagnostics.push({
        file: posix.join(SEED_EVALS_DIR, dir),
        line: 1,
        column: 1,
        severity: "warning",
        code: "suite/orphan",
        message: `eval suite \`${dir}\` has no skill of that name`,
      });
  return { repoDir, skills, diagnostics: dedupe(diagnostics) };
}

/**
 * SKILL.md paths matching the globs, sorted. A `<folder>/<star>/SKILL.md` glob is listed directly, and every
 * subfolder is a candidate: reading its SKILL.md tells whether there is one (listing each folder to ask first
 * costs five system calls per skill).
 */
function findSkillFiles(repoDir: string, globs: readonly string[], dirs: DirIndex): string[] {
  const found = new Set<string>();
  const general: string[] = [];
  for (const glob of globs) {
    const m = ONE_LEVEL_GLOB.exec(glob);
    if (!m) {
      general.push(glob);
      continue;
    }
    const [, parent = "", file = ""] = m;
    if (parent.split("/").some((p) => IGNORED_DIRS.has(p))) continue;
    for (const [name, entry] of dirs.list(parent) ?? []) {
      if (entry.kind !== "dir" || IGNORED_DIRS.has(name)) continue;
      found.add(`${parent}/${name}/${file}`);
    }
  }
  if (general.length)
    for (const path of globSync(general, {
      cwd: repoDir,
      dot: true,
      onlyFiles: true,
      ignore: [...IGNORED_DIRS].map((d) => `**/${d}/**`),
      expandDirectories: false,
    }))
      found.add(path);
  return [...found].sort();
}

/** A literal folder, one `*` level, a literal file name: the shape of every default glob. */
const ONE_LEVEL_GLOB = /^((?:[^*?[\]{}()!\\/]+\/)*[^*?[\]{}()!\\/]+)\/\*\/([^*?[\]{}()!\\/]+)$/;
const IGNORED_DIRS = new Set(["node_modules", ".git"]);

function reusable(reuse: ReuseUnchanged) {
  const touched = touchedBy(reuse.changedFiles);
  const byPath = new Map(reuse.from.skills.map((s) => [s.path, s]));
  return {
    /** Head's record of the skill at this path, when the PR touches neither its folder nor its suite. */
    unchanged(path: string): Skill | undefined {
      const s = byPath.get(path);
      return s && !touched(s) ? s : undefined;
    },
  };
}

/** The skill at `path`, or undefined when there is no SKILL.md file there (a diagnostic when it cannot be read). */
function loadSkill(
  repoDir: string,
  path: string,
  profile: ValidationProfile,
  dirs: DirIndex,
  diagnostics: Diagnostic[],
): Skill | undefined {
  const dir = posix.dirname(path);
  let bytes: Buffer | undefined;
  try {
    bytes = readRegularFile(join(repoDir, path));
  } catch (e) {
    diagnostics.push({
      file: path,
      line: 1,
      column: 1,
      severity: "error",
      code: "skill/unreadable",
      message: `cannot read SKILL.md: ${(e as Error).message}`,
    });
    return undefined;
  }
  if (!bytes) return undefined;
  const raw = bytes.toString("utf8");
  const parsed = parseSkillFile(path, raw, profile);
  diagnostics.push(...parsed.diagnostics);
  return {
    name: parsed.name && /^[a-z0-9-]{1,64}$/.test(parsed.name) ? parsed.name : posix.basename(dir),
    dir,
    path,
    description: parsed.description ?? "",
    version: parsed.version,
    frontmatter: parsed.frontmatter,
    body: parsed.body,
    raw,
    folder: new SkillFolder(repoDir, dir, dirs, { [posix.basename(path)]: bytes }),
    loc: parsed.loc,
  };
}

/** A skill folder's files and content hash, read on first use (see `Skill.folder`). */
class SkillFolder implements SkillFolderContent {
  private content?: SkillFolderContent;

  constructor(
    private readonly repoDir: string,
    private readonly dir: string,
    private readonly dirs: DirIndex,
    /** Contents already read (SKILL.md), dropped once hashed. */
    private known?: Record<string, Buffer>,
  ) {}

  get files(): string[] {
    return this.read().files;
  }

  get contentHash(): string {
    return this.read().contentHash;
  }

  toJSON(): SkillFolderContent {
    return this.read();
  }

  private read(): SkillFolderContent {
    if (!this.content) {
      this.content = hashSkillFolder(this.repoDir, this.dir, this.dirs, this.known);
      this.known = undefined;
    }
    return this.content;
  }
}

/**
 * What the agent sees of a skill: every regular file of its folder but `evals/` (symbolic links are never
 * installed), hashed by path and content. `known` holds contents already read (SKILL.md), by relative path.
 */
export function hashSkillFolder(
  repoDir: string,
  dir: string,
  dirs: DirIndex = new DirIndex(repoDir),
  known: Record<string, Buffer> = {},
): { files: string[]; contentHash: string } {
  const files: string[] = [];
  const walk = (rel: string) => {
    for (const [name, e] of dirs.list(rel ? `${dir}/${rel}` : dir) ?? []) {
      const p = rel ? `${rel}/${name}` : name;
      if ((!rel && name === "evals") || e.link) continue;
      if (e.kind === "dir") walk(p);
      else if (e.kind === "file") files.push(p);
    }
  };
  walk("");
  files.sort();
  // sha256 over `path \0 sha256(content) \n` per file, as one string (the same bytes as updating per piece).
  let listing = "";
  for (const f of files) {
    const bytes = known[f];
    listing += `${f}\0${bytes ? hash("sha256", bytes, "hex") : sha256OfFile(join(repoDir, dir, f))}\n`;
  }
  return { files, contentHash: hash("sha256", listing, "hex") };
}

/** Loads the suite of a skill from `.agent/evals/<name>/` and/or `<skill-dir>/evals/`, all formats. */
export function loadSuite(reader: SuiteReader, skill: Skill, diagnostics: Diagnostic[]): Suite | undefined {
  const start = reader.sourceFiles.length;
  const firstDiagnostic = reader.diagnostics.length;
  // The skill folder itself is not listed for this (a `stat` of its `evals/` costs one system call, a listing five).
  const roots = [posix.join(SEED_EVALS_DIR, skill.name), posix.join(skill.dir, "evals")].filter((r, i) =>
    i === 0 ? reader.isDir(r) : reader.probeDir(r),
  );
  if (roots.length === 0) return undefined;
  const draft: SuiteDraft = { cases: [], formats: [] };
  for (const root of roots)
    for (const format of SUITE_FORMATS)
      if (format.detect(reader, root)) {
        format.load(reader, root, draft);
        if (!draft.formats.includes(format.format)) draft.formats.push(format.format);
      }
  const ids = new Map<string, string>();
  for (const c of draft.cases) {
    const prev = ids.get(c.id);
    if (prev)
      reader.error(c.loc, "suite/duplicate-case", `case id \`${c.id}\` is already defined in ${prev}`);
    else ids.set(c.id, c.loc.file);
  }
  diagnostics.push(...reader.diagnostics.slice(firstDiagnostic));
  if (draft.formats.length === 0) {
    diagnostics.push({
      file: roots[0]!,
      line: 1,
      column: 1,
      severity: "warning",
      code: "suite/empty",
      message:
        "eval folder holds no suite file (meta.json, prompts/, trigger-eval.json, evals.json or trigger_tests.yaml)",
    });
    return undefined;
  }
  return {
    skill: skill.name,
    root: roots[0]!,
    formats: draft.formats,
    meta: draft.meta ?? {
      thresholds: {},
      vars: {},
      loc: { file: roots[0]!, line: 1, column: 1 },
      keyLoc: {},
    },
    cases: draft.cases,
    trigger: draft.trigger,
    sourceFiles: [...new Set(reader.sourceFiles.slice(start))],
  };
}

function dedupe(ds: Diagnostic[]): Diagnostic[] {
  const seen = new Set<string>();
  return ds.filter((d) => {
    const k = `${d.file}:${d.line}:${d.column}:${d.message}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}
