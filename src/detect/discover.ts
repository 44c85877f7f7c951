import { realpathSync } from "node:fs";
import { isAbsolute, join, posix, relative, sep } from "node:path";
import picomatch from "picomatch";
import type { Diagnostic, Skill, Suite, ValidationProfile } from "../model/index.js";
import { appendAll } from "../util/append.js";
import { readRegularFile } from "../util/read-file.js";
import { agentNameOf, copyName, loadGroup, nameCopies } from "./copies.js";
import { DirIndex } from "./dir-index.js";
import { foreignChecks } from "./foreign-vars.js";
import { SUITE_FORMATS, type SuiteDraft } from "./formats/index.js";
import { pluginEvalFormat } from "./formats/plugin-eval.js";
import { loadTriggerFile } from "./formats/skill-creator.js";
import { findPlugins, type PluginManifest, type PluginRoot, qualifiedName, skillLayout } from "./layout.js";
import { type ListedPlugin, type Marketplace, readMarketplace } from "./marketplace.js";
import { parseSkillFileOnce } from "./parse-once.js";
import {
  isMarketplace,
  listRepositoryFiles,
  NAMED_SUITE_FILES,
  PLUGIN_MANIFEST,
  type RepositoryFiles,
  SKILL_FILE_NAMES,
  skippedSkillPath,
} from "./repo-files.js";
import { repositoryName } from "./repo-name.js";
import { type ExpectedName, NAME_MAX, UNICODE_NAME_PATTERN } from "./skill-file.js";
import { SkillFolder } from "./skill-folder.js";
import { parseSourceFile } from "./source-file.js";
import { mayBeStrayTriggerSet, readByName, strayTriggerSets, TOP_EVAL_DIRS } from "./stray-trigger-sets.js";
import { type AssertionTypeLookup, SuiteReader } from "./suite-context.js";
import {
  conventionalSuiteRoots,
  orphanSeedSuites,
  placeSuites,
  type SuiteRoot,
  suiteFileSkillName,
} from "./suite-roots.js";
import { SEED_EVALS_DIR, touchedBy } from "./touched.js";
import { unreadEvalFiles } from "./unread-files.js";
import { suiteInputFiles, withholdSuiteFiles } from "./withheld.js";

export { hashSkillFolder } from "./skill-folder.js";

export { SEED_EVALS_DIR };

export interface DiscoverOptions {
  /** Configured globs (`skills.globs`, `--glob`): only matching SKILL.md files are skills; the rest are counted. */
  globs?: string[];
  include?: string[];
  exclude?: string[];
  profile: ValidationProfile;
  assertionTypes: AssertionTypeLookup;
  /** Base side of a PR whose changed files are known: take untouched skills from head's discovery. */
  reuse?: ReuseUnchanged;
  /**
   * `GITHUB_REPOSITORY` / `GITHUB_WORKSPACE` name a root skill's repository when git does not; under
   * `GITHUB_ACTIONS=true` a git checkout is read as the commit it holds (tracked files only). Default
   * `process.env`.
   */
  env?: NodeJS.ProcessEnv;
}

export interface Discovery {
  repoDir: string;
  skills: Skill[];
  diagnostics: Diagnostic[];
  /** SKILL.md files the configured globs, include and exclude leave out (repository-relative, sorted). */
  outsideGlobs: string[];
  /** The files discovery read skills, suites and plugins from, and how they were listed. */
  files: RepositoryFiles;
  /**
   * The plugin manifests it read (by path) and the plugins its marketplaces list: a base side reusing this
   * discovery (`ReuseUnchanged`) reads neither again, since it reuses only when the PR changes no manifest.
   */
  plugins: {
    roots: readonly PluginRoot[];
    manifests: ReadonlyMap<string, PluginManifest>;
    listed: readonly ListedPlugin[];
  };
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

/**
 * Finds every skill of the repository (every SKILL.md, see `listRepositoryFiles`) and its eval suite in every
 * layout skillgate reads; never throws on bad input (diagnostics carry every problem).
 */
export function discoverRepository(repoDir: string, opts: DiscoverOptions): Discovery {
  const env = opts.env ?? process.env;
  const diagnostics: Diagnostic[] = [];
  const dirs = new DirIndex(repoDir);
  const reuse = opts.reuse && reusable(opts.reuse, repoDir);
  const files =
    opts.reuse && reuse
      ? filesAtBase(opts.reuse)
      : listRepositoryFiles(repoDir, dirs, { untracked: env.GITHUB_ACTIONS !== "true" });
  // Reused only when the PR changes no manifest (`reusable`): the base's are head's.
  const known = reuse ? opts.reuse?.from.plugins : undefined;
  const listed = known
    ? { plugins: [...known.listed], diagnostics: [] }
    : readMarketplaces(repoDir, dirs, files.marketplaces ?? []);
  diagnostics.push(...listed.diagnostics);
  const manifests = new Map<string, PluginManifest>();
  const plugins = findPlugins(
    files.pluginManifests,
    files.skillFiles,
    (m) => {
      const read = known?.manifests.get(m) ?? readManifest(repoDir, m);
      manifests.set(m, read);
      return read;
    },
    listed.plugins,
  );
  const narrowed = narrowing(opts);
  const candidates = new Set(files.skillFiles);
  const candidateDirs = new Set(files.skillFiles.map((f) => f.slice(0, Math.max(0, f.lastIndexOf("/")))));
  let repoName: { value?: string } | undefined;
  const ctx: LoadContext = {
    repoDir,
    profile: opts.profile,
    dirs,
    diagnostics,
    candidates,
    realRepo: undefined,
    plugins,
    repoName: () => {
      repoName ??= { value: repositoryName(repoDir, env) };
      return repoName.value;
    },
  };
  const skills: Skill[] = [];
  const outsideGlobs: string[] = [];
  /** The skills holding each agent name, in discovery order. */
  const holders = new Map<string, Skill[]>();
  const fresh = new Set<Skill>();
  const loaded: Skill[] = [];
  // Codepoint order: git's tree order and a folder walk list `a-b/` and `a/` differently.
  for (const path of [...files.skillFiles].sort(byCodepoint)) {
    const dir = posix.dirname(path);
    if ((path === "skill.md" || path.endsWith("/skill.md")) && candidates.has(posix.join(dir, "SKILL.md"))) {
      diagnostics.push({
        file: path,
        line: 1,
        column: 1,
        severity: "warning",
        code: "skill/two-skill-files",
        message: "skill.md is ignored: SKILL.md in the same folder is the skill",
      });
      continue;
    }
    const outer = enclosingSkillDir(dir, candidateDirs);
    if (outer !== undefined) {
      // An agent installs the outer folder whole: a SKILL.md inside it is one of its files (a template, a fixture).
      diagnostics.push({
        file: path,
        line: 1,
        column: 1,
        severity: "notice",
        code: "skill/nested",
        message: `inside the folder of the skill at ${outer}/: read as one of its files, not as a skill`,
      });
      continue;
    }
    if (narrowed && !narrowed(path)) {
      outsideGlobs.push(path);
      continue;
    }
    const kept = reuse?.unchanged(path);
    const skill = kept ? { ...kept } : loadSkill(ctx, path);
    if (!skill) continue;
    if (!kept) fresh.add(skill);
    loaded.push(skill);
  }
  // A skill in a folder of its own name holds that name first, as Claude Code calls it by that folder: the other of
  // two skills sharing a name is the one renamed or in error, whatever order the folders are listed in.
  loaded.sort((x, y) => Number(!inOwnFolder(x)) - Number(!inOwnFolder(y)) || byCodepoint(x.path, y.path));
  for (const skill of loaded) {
    // One agent loads one plugin, or one skills folder (`.claude/skills`, `.agents/skills` …), at a time: two
    // skills of one name there are a conflict; copies in folders no agent loads together (per-agent folders,
    // template projects, translations) are not: each is gated as a skill of its own (`nameCopies`).
    let agentName = agentNameOf(skill);
    let others = holders.get(agentName) ?? [];
    // Folders of skill folders that no agent reads (test data, examples) hold copies, never a conflict.
    const clash =
      skill.layout !== "grouped" ? others.find((o) => loadGroup(o) === loadGroup(skill)) : undefined;
    if (clash) {
      const byFolder =
        ctx.profile === "claude-code" ? folderNameIfFree(skill, agentName, holders) : undefined;
      const where = skill.namespace
        ? `in plugin ${skill.namespace}`
        : `in one skills folder (${loadGroup(skill)}/)`;
      if (byFolder === undefined) {
        diagnostics.push({
          ...(skill.loc.name ?? skill.loc.frontmatter),
          severity: "error",
          code: "skill/duplicate-name",
          message: `skill name \`${agentName}\` is also used by ${clash.path}; names must be unique ${where}`,
        });
        continue;
      }
      // Claude Code lists skills by folder: it loads both, and the shared name calls the first. So does skillgate.
      diagnostics.push({
        ...(skill.loc.name ?? skill.loc.frontmatter),
        severity: "warning",
        code: "skill/duplicate-name",
        message: `skill name \`${agentName}\` is also used by ${clash.path}: Claude Code loads both, this one as \`${byFolder}\` (its folder's name), and \`${agentName}\` calls the other; names must be unique ${where} (strict profile: error)`,
      });
      skill.name = byFolder;
      agentName = byFolder;
      // Copies of that name in folders loaded apart from this one: each is then gated under `<name>@<folder>`.
      others = holders.get(byFolder) ?? [];
    }
    if (others.length > 0)
      diagnostics.push({
        ...(skill.loc.name ?? skill.loc.frontmatter),
        severity: "notice",
        code: "skill/duplicate-copy",
        message: `a copy of skill \`${agentName}\` (also at ${others.map((o) => o.path).join(", ")}) in a folder no agent loads together with it: gated as a skill of its own, \`${copyName(agentName, skill.dir)}\``,
      });
    holders.set(agentName, [...others, skill]);
    skills.push(skill);
  }
  skills.sort((x, y) => byCodepoint(x.path, y.path));
  diagnostics.push(...followLinks(repoDir, skills, files.links, fresh));
  const reader = new SuiteReader(repoDir, opts.assertionTypes, dirs);
  const placement = placeSuites(reader, skills, files.namedSuiteFiles, (s) => fresh.has(s));
  diagnostics.push(...placement.diagnostics);
  const pluginEvals = pluginEvalRoots(reader, skills, plugins);
  // Every suite folder, asked for only when a JSON file that may be a trigger set turns up (rarely).
  let rootDirs: Set<string> | undefined;
  const inSuiteFolder = (f: string) => {
    rootDirs ??= new Set(
      skills.flatMap((s) => [...placement.rootsOf(s), ...(pluginEvals.get(s) ?? [])].map((r) => r.dir)),
    );
    return rootDirs.has(posix.dirname(f));
  };
  const stray = strayTriggerSets(
    dirs,
    skills,
    (f) => NAMED_SUITE_FILES.has(posix.basename(f)) || (readByName(f) && inSuiteFolder(f)),
    (s) => fresh.has(s),
  );
  diagnostics.push(...stray.diagnostics);
  for (const skill of skills) {
    if (!fresh.has(skill)) continue; // a reused record keeps its suite
    const roots = [...placement.rootsOf(skill), ...(pluginEvals.get(skill) ?? []), ...stray.rootsOf(skill)];
    const suite = loadSuite(reader, skill, diagnostics, roots, placement.elsewhere(skill));
    if (suite) skill.suite = suite;
  }
  diagnostics.push(...orphanSeedSuites(reader, skills, plugins));
  const read = new Set([...reader.sourceFiles, ...skills.flatMap((s) => s.suite?.sourceFiles ?? [])]);
  const suiteFiles = new Set([...read, ...skills.flatMap((s) => (s.suite ? suiteInputFiles(s.suite) : []))]);
  appendAll(diagnostics, withholdSuiteFiles(skills, suiteFiles, fresh));
  appendAll(
    diagnostics,
    unreadEvalFiles(dirs, skills, plugins, read, new Set(diagnostics.map((d) => d.file))),
  );
  nameCopies(holders);
  return {
    repoDir,
    skills,
    diagnostics: dedupe(diagnostics),
    outsideGlobs,
    files,
    plugins: { roots: plugins, manifests, listed: listed.plugins },
  };
}

const byCodepoint = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Whether the skill's folder bears the name it is called by. */
function inOwnFolder(skill: Skill): boolean {
  return qualifiedName(posix.basename(skill.dir), skill.namespace) === agentNameOf(skill);
}

/** The skill's folder name as its name, when no skill it is loaded with holds that name already. */
function folderNameIfFree(
  skill: Skill,
  taken: string,
  holders: ReadonlyMap<string, readonly Skill[]>,
): string | undefined {
  const byFolder = qualifiedName(posix.basename(skill.dir), skill.namespace);
  if (byFolder === taken) return undefined;
  const clash = (holders.get(byFolder) ?? []).some((o) => loadGroup(o) === loadGroup(skill));
  return clash ? undefined : byFolder;
}

/**
 * The symbolic links inside each fresh skill's folder: where each leads, kept as the skill's
 * `linkTargets` (its files are installed and hashed with the skill, so an edit of the target is an edit of the
 * skill); a link out of the repository or into a loop is a located error, one to nothing a warning; neither is
 * followed.
 */
function followLinks(
  repoDir: string,
  skills: readonly Skill[],
  links: readonly string[] | undefined,
  fresh: ReadonlySet<Skill>,
): Diagnostic[] {
  const out: Diagnostic[] = [];
  if (!links?.length) return out;
  const byDir = new Map(skills.filter((s) => fresh.has(s)).map((s) => [s.dir, s]));
  let realRepo: string | undefined;
  for (const link of links) {
    let owner: Skill | undefined;
    for (let d = posix.dirname(link); ; d = posix.dirname(d)) {
      owner = byDir.get(d);
      if (owner || d === ".") break;
    }
    if (!owner) continue;
    if (link === owner.path) continue; // SKILL.md: loadSkill
    const problem = (code: string, message: string, severity: Diagnostic["severity"] = "error") =>
      out.push({ file: link, line: 1, column: 1, severity, code, message });
    let real: string;
    try {
      realRepo ??= realpathSync(repoDir);
      real = realpathSync(join(repoDir, link));
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === "ELOOP")
        problem("skill/link-loop", "a loop of symbolic links in the skill folder: not installed");
      // Nothing there for any agent either (often a generated or ignored file): said, not blocking.
      else
        problem(
          "skill/link-dangling",
          "a symbolic link to nothing in the skill folder: not installed",
          "warning",
        );
      continue;
    }
    const rel = relative(realRepo, real).split(sep).join("/");
    if (rel === "" || rel.startsWith("../") || isAbsolute(rel)) {
      problem(
        "skill/link-outside",
        "a symbolic link out of the repository in the skill folder: never followed, hashed or installed",
      );
      continue;
    }
    owner.linkTargets = [...(owner.linkTargets ?? []), rel];
  }
  return out;
}

/** The common case of a valid name, tested before the Unicode rule (discovery tests 10,000 of them). */
const ASCII_NAME = /^[a-z0-9]+(-[a-z0-9]+)*$/;

/** The matcher of configured globs, include and exclude, or undefined when nothing narrows discovery. */
function narrowing(opts: DiscoverOptions): ((path: string) => boolean) | undefined {
  const globs = opts.globs?.length ? picomatch(opts.globs, { dot: true }) : undefined;
  const include = opts.include?.length ? picomatch(opts.include, { dot: true }) : undefined;
  const exclude = opts.exclude?.length ? picomatch(opts.exclude, { dot: true }) : undefined;
  if (!globs && !include && !exclude) return undefined;
  return (p) => (!globs || globs(p)) && (!include || include(p)) && !exclude?.(p);
}

/** The nearest folder above `dir` that holds a SKILL.md of its own (never the repository root). */
function enclosingSkillDir(dir: string, skillDirs: ReadonlySet<string>): string | undefined {
  for (let i = dir.lastIndexOf("/"); i > 0; i = dir.lastIndexOf("/", i - 1)) {
    const d = dir.slice(0, i);
    if (skillDirs.has(d)) return d;
  }
  return undefined;
}

/**
 * The base side's files, from head's list and the PR's changed files: a file the PR does not touch is at base
 * what it is at head, and every other one (added, deleted, renamed) is in the changed list. No walk, no git.
 */
function filesAtBase(reuse: ReuseUnchanged): RepositoryFiles {
  const head = reuse.from.files;
  const changed = reuse.changedFiles;
  const with_ = (list: string[], pick: (f: string) => boolean) => {
    const more = changed.filter(pick);
    return more.length === 0 ? list : [...new Set([...list, ...more])].sort();
  };
  return {
    source: head.source,
    skillFiles: with_(
      head.skillFiles,
      (f) => (SKILL_FILE_NAMES as readonly string[]).includes(posix.basename(f)) && !skippedSkillPath(f),
    ),
    namedSuiteFiles: with_(head.namedSuiteFiles, (f) => NAMED_SUITE_FILES.has(posix.basename(f))),
    pluginManifests: with_(
      head.pluginManifests,
      (f) => f === PLUGIN_MANIFEST || f.endsWith(`/${PLUGIN_MANIFEST}`),
    ),
    marketplaces: with_(head.marketplaces ?? [], isMarketplace),
  };
}

/** A file of a `claude plugin eval` case: `evals/<case>/case.yaml`, `prompt.md` or `graders/*.md`. */
const PLUGIN_EVAL_FILE = /(?:^|\/)evals\/[^/]+\/(?:case\.ya?ml|prompt\.md|graders\/[^/]+\.md)$/;

function reusable(reuse: ReuseUnchanged, baseDir: string) {
  // A plugin renamed or added moves every skill of it into another namespace: read the base in full.
  if (
    reuse.changedFiles.some(
      (f) => f === PLUGIN_MANIFEST || f.endsWith(`/${PLUGIN_MANIFEST}`) || isMarketplace(f),
    )
  )
    return undefined;
  // A plugin's eval case added or removed changes its skill's suite from outside the skill's folder.
  if (reuse.changedFiles.some((f) => PLUGIN_EVAL_FILE.test(f))) return undefined;
  // So may a trigger set at the repository's top or in its harness folders (`tests/trigger-evals/<skill>.json`).
  if (reuse.changedFiles.some(strayOutsideSkills)) return undefined;
  // A suite file that names its skill (anywhere in the repository) touches the skill it names, on either side.
  const named = new Set<string>();
  for (const f of reuse.changedFiles)
    if (NAMED_SUITE_FILES.has(posix.basename(f)))
      for (const dir of [baseDir, reuse.from.repoDir]) {
        const n = namedSkill(dir, f);
        if (n) named.add(n);
      }
  const touched = touchedBy(reuse.changedFiles, named);
  const byPath = new Map(reuse.from.skills.map((s) => [s.path, s]));
  return {
    /** Head's record of the skill at this path, when the PR touches neither its folder nor its suite. */
    unchanged(path: string): Skill | undefined {
      const s = byPath.get(path);
      return s && !touched(s) ? s : undefined;
    },
  };
}

/** A file the stray trigger-set search reads outside skill folders: at the top, or below `tests/`, `evals/` … */
function strayOutsideSkills(f: string): boolean {
  return mayBeStrayTriggerSet(f) && (!f.includes("/") || TOP_EVAL_DIRS.includes(f.slice(0, f.indexOf("/"))));
}

/** The skill a suite file names (`skill_name` of evals.json, `skill` of waza files), read on its own. */
export function namedSkill(repoDir: string, rel: string): string | undefined {
  let bytes: Buffer | undefined;
  try {
    bytes = readRegularFile(join(repoDir, rel));
  } catch {
    return undefined;
  }
  if (!bytes) return undefined;
  return suiteFileSkillName(parseSourceFile(rel, bytes.toString("utf8")).value);
}

/** The `name` and `skills` paths of a plugin manifest, where they are strings. */
function readManifest(repoDir: string, rel: string): PluginManifest {
  try {
    const bytes = readRegularFile(join(repoDir, rel));
    const v: unknown = bytes ? JSON.parse(bytes.toString("utf8")) : undefined;
    if (!v || typeof v !== "object") return {};
    const { name, skills } = v as { name?: unknown; skills?: unknown };
    const paths = [skills].flat().filter((p): p is string => typeof p === "string");
    return {
      ...(typeof name === "string" ? { name } : {}),
      ...(skills !== undefined ? { skills: paths } : {}),
    };
  } catch {
    return {};
  }
}

/**
 * A plugin's own `evals/` (Claude Code's `claude plugin eval` cases) is its one skill's suite: a plugin of several
 * skills tests them together, which is no one skill's verdict (its files get the unread-file notice).
 */
function pluginEvalRoots(
  reader: SuiteReader,
  skills: readonly Skill[],
  plugins: readonly PluginRoot[],
): Map<Skill, SuiteRoot[]> {
  const out = new Map<Skill, SuiteRoot[]>();
  for (const p of plugins) {
    const evals = p.dir === "." ? "evals" : `${p.dir}/evals`;
    if (!reader.isDir(evals) || !pluginEvalFormat.detect(reader, evals)) continue; // no cases: nothing to say
    const own = skills.filter(
      (s) => s.namespace === p.name && (p.dir === "." || s.dir.startsWith(`${p.dir}/`)),
    );
    if (own.length === 1) out.set(own[0]!, [{ dir: evals, formats: ["claude-plugin-eval"] }]);
  }
  return out;
}

/** The plugins every marketplace.json of the checkout lists from it, with their located problems. */
function readMarketplaces(repoDir: string, dirs: DirIndex, files: readonly string[]): Marketplace {
  const out: Marketplace = { plugins: [], diagnostics: [] };
  for (const file of files) {
    let bytes: Buffer | undefined;
    try {
      bytes = readRegularFile(join(repoDir, file));
    } catch {
      bytes = undefined;
    }
    if (!bytes) continue; // a link or a folder: Claude Code reads no marketplace there either
    const m = readMarketplace(file, bytes.toString("utf8"), (rel) => dirs.isDir(rel));
    out.plugins.push(...m.plugins);
    out.diagnostics.push(...m.diagnostics);
  }
  return out;
}

interface LoadContext {
  repoDir: string;
  profile: ValidationProfile;
  dirs: DirIndex;
  diagnostics: Diagnostic[];
  /** Every SKILL.md path found: a link to one of them is that skill again. */
  candidates: ReadonlySet<string>;
  /** The repository's real path, resolved when a link is met. */
  realRepo: string | undefined;
  plugins: readonly PluginRoot[];
  /** The repository's name, asked for only when a root skill is met. */
  repoName: () => string | undefined;
}

/** The skill at `path`, or undefined when there is no SKILL.md file there (a diagnostic when it cannot be read). */
function loadSkill(ctx: LoadContext, path: string): Skill | undefined {
  const { repoDir, diagnostics } = ctx;
  const dir = posix.dirname(path);
  const problem = (severity: Diagnostic["severity"], code: string, message: string) =>
    diagnostics.push({ file: path, line: 1, column: 1, severity, code, message });
  let bytes: Buffer | "link" | undefined;
  try {
    bytes = readRegularFile(join(repoDir, path), { noFollow: true });
    if (bytes === "link") {
      // A SKILL.md that is a symbolic link: the file it points at is read, once, and never outside the repository.
      ctx.realRepo ??= realpathSync(repoDir);
      const real = realpathSync(join(repoDir, path));
      const rel = relative(ctx.realRepo, real).split(sep).join("/");
      if (rel.startsWith("../") || isAbsolute(rel)) {
        // The agent would be handed a file the repository does not hold (#27): never read, never installed.
        problem("error", "skill/link-outside", "SKILL.md links outside the repository: not read");
        return undefined;
      }
      if (rel !== path && ctx.candidates.has(rel)) {
        // The same skill again (a per-agent folder linking to the real one): reported once, at its real path.
        problem("notice", "skill/linked", `a link to ${rel}: the same skill, reported once at its real path`);
        return undefined;
      }
      bytes = readRegularFile(real);
    }
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "ELOOP")
      problem("error", "skill/link-loop", "SKILL.md is a loop of symbolic links: not read");
    else if (code === "ENOENT")
      problem("error", "skill/link-dangling", "SKILL.md is a symbolic link to nothing: not read");
    else problem("error", "skill/unreadable", `cannot read SKILL.md: ${(e as Error).message}`);
    return undefined;
  }
  if (!bytes) return undefined;
  const raw = bytes.toString("utf8");
  const { layout, namespace, alsoIn } = skillLayout(dir, ctx.plugins);
  let expected: ExpectedName | null;
  if (layout === "root") {
    const repo = ctx.repoName();
    expected = repo
      ? { name: repo, what: "the repository's name", why: "a root skill's folder is the repository" }
      : null;
  } else expected = { name: posix.basename(dir), what: "its folder name" };
  const parsed = parseSkillFileOnce(path, raw, ctx.profile, expected);
  const fm = parsed.frontmatter;
  if (layout === "grouped" && Object.keys(fm).length > 0 && !("name" in fm) && !("description" in fm)) {
    // Frontmatter of something else (a generated page, a doc) outside any skills folder: no agent loads it.
    problem(
      "notice",
      "skill/not-a-skill",
      `not a skill: its frontmatter has neither \`name\` nor \`description\`, and no agent looks for skills in ${dir}/`,
    );
    return undefined;
  }
  appendAll(diagnostics, parsed.diagnostics);
  if (parsed.notASkill) return undefined;
  if (alsoIn)
    problem(
      "notice",
      "skill/in-several-plugins",
      `plugins ${alsoIn.join(", ")} load this skill too (each loads its skills/ folder): gated once, as a skill of plugin ${namespace}`,
    );
  const validName =
    parsed.name &&
    [...parsed.name].length <= NAME_MAX &&
    (ASCII_NAME.test(parsed.name) || UNICODE_NAME_PATTERN.test(parsed.name))
      ? parsed.name
      : undefined;
  const local =
    validName ?? (layout === "root" ? (ctx.repoName() ?? posix.basename(repoDir)) : posix.basename(dir));
  return {
    name: qualifiedName(local, namespace),
    ...(namespace ? { namespace } : {}),
    layout,
    dir,
    path,
    description: parsed.description ?? "",
    version: parsed.version,
    frontmatter: parsed.frontmatter,
    body: parsed.body,
    raw,
    folder: new SkillFolder(repoDir, dir, ctx.dirs, { [posix.basename(path)]: bytes }),
    ...(parsed.diagnostics.some((d) => d.code === "skill/frontmatter-yaml" && d.severity === "warning")
      ? { quotedYaml: true as const }
      : {}),
    loc: parsed.loc,
  };
}

/**
 * Loads the suite of a skill from its suite folders (`suiteRoots`), every format each folder may hold; `hidden`
 * files (suite files that name another skill) are left to that skill.
 */
export function loadSuite(
  reader: SuiteReader,
  skill: Skill,
  diagnostics: Diagnostic[],
  roots: readonly SuiteRoot[] = conventionalSuiteRoots(reader, skill),
  hidden: ReadonlySet<string> = new Set(),
): Suite | undefined {
  if (roots.length === 0) return undefined;
  const start = reader.sourceFiles.length;
  const firstDiagnostic = reader.diagnostics.length;
  const firstPartProblem = reader.partProblems.length;
  const draft: SuiteDraft = { skillDir: skill.dir, cases: [], formats: [] };
  reader.hide(hidden);
  try {
    for (const root of roots)
      for (const format of SUITE_FORMATS)
        if (
          (root.formats ? root.formats.includes(format.format) : !format.onlyWhereNamed) &&
          format.detect(reader, root.dir)
        ) {
          format.load(reader, root.dir, draft);
          if (!draft.formats.includes(format.format)) draft.formats.push(format.format);
        }
    for (const file of roots.flatMap((r) => r.triggerFiles ?? [])) {
      loadTriggerFile(reader, file, draft);
      if (!draft.formats.includes("skill-creator")) draft.formats.push("skill-creator");
    }
  } finally {
    reader.hide(new Set());
  }
  // Placeholders once every format has loaded: meta.json's vars and oracle are known then.
  foreignChecks(draft.cases, draft.meta);
  for (const c of draft.cases) reader.checkTemplates(c, draft.meta);
  const ids = new Map<string, string>();
  for (const c of draft.cases) {
    const prev = ids.get(c.id);
    if (prev)
      reader.error(c.loc, "suite/duplicate-case", `case id \`${c.id}\` is already defined in ${prev}`);
    else ids.set(c.id, c.loc.file);
  }
  diagnostics.push(...reader.diagnostics.slice(firstDiagnostic));
  const root = roots[0]!.dir;
  const partProblems = reader.partProblems.slice(firstPartProblem);
  if (draft.formats.length === 0) {
    diagnostics.push({
      file: root,
      line: 1,
      column: 1,
      severity: "warning",
      code: "suite/empty",
      message:
        "eval folder holds no suite file (meta.json, prompts/, trigger-eval.json, evals.json, eval.yaml or trigger_tests.yaml)",
    });
    return undefined;
  }
  const sourceFiles = [...new Set(reader.sourceFiles.slice(start))];
  const queries = (draft.trigger?.shouldFire.length ?? 0) + (draft.trigger?.shouldNotFire.length ?? 0);
  const said = reader.diagnostics.slice(firstDiagnostic).some((d) => d.code === "suite/not-read");
  if (draft.cases.length === 0 && queries === 0 && partProblems.length === 0 && !said)
    // Attached, yet nothing in it runs (`evals: []`, every task disabled …): said once, never silence.
    diagnostics.push({
      file: sourceFiles[0] ?? root,
      line: 1,
      column: 1,
      severity: "notice",
      code: "suite/no-cases",
      message: `${skill.name}'s suite files hold no case and no trigger query that skillgate reads: nothing of this skill is gated by them`,
    });
  return {
    skill: skill.name,
    root,
    formats: draft.formats,
    meta: draft.meta ?? {
      thresholds: {},
      vars: {},
      loc: { file: root, line: 1, column: 1 },
      keyLoc: {},
    },
    cases: draft.cases,
    trigger: draft.trigger,
    sourceFiles,
    ...(partProblems.length > 0 ? { partProblems } : {}),
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
