import { posix } from "node:path";
import picomatch from "picomatch";
import type { Diagnostic, Skill, SkillsSelection, ValidationProfile } from "../model/index.js";
import { appendAll } from "../util/append.js";
import { filesAtBase, reusable } from "./base-reuse.js";
import { nameCopies } from "./copies.js";
import { DirIndex } from "./dir-index.js";
import { findPlugins, type PluginManifest, type PluginRoot } from "./layout.js";
import { type LoadContext, loadSkill } from "./load-skill.js";
import { loadSuite } from "./load-suite.js";
import type { ListedPlugin } from "./marketplace.js";
import { pluginEvalRoots, readManifest, readMarketplaces } from "./plugin-sources.js";
import { listRepositoryFiles, NAMED_SUITE_FILES, type RepositoryFiles } from "./repo-files.js";
import { repositoryName } from "./repo-name.js";
import { followLinks } from "./skill-links.js";
import { byCodepoint, claimNames } from "./skill-names.js";
import { readByName, strayTriggerSets } from "./stray-trigger-sets.js";
import { type AssertionTypeLookup, SuiteReader } from "./suite-context.js";
import { orphanSeedSuites, placeSuites } from "./suite-roots.js";
import { SEED_EVALS_DIR } from "./touched.js";
import { unreadEvalFiles } from "./unread-files.js";
import { caseInputFiles, gradingFiles, withholdSuiteFiles } from "./withheld.js";

export { hashSkillFolder } from "./skill-folder.js";

export { SEED_EVALS_DIR };

/** Configured `skills:` (and `--glob`): only matching SKILL.md files are skills; the rest are counted. */
export interface DiscoverOptions extends SkillsSelection {
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
  let repoName: { value?: string } | undefined;
  const ctx: LoadContext = {
    repoDir,
    profile: opts.profile,
    dirs,
    diagnostics,
    candidates: new Set(files.skillFiles),
    realRepo: undefined,
    plugins,
    repoName: () => {
      repoName ??= { value: repositoryName(repoDir, env) };
      return repoName.value;
    },
  };
  const { loaded, fresh, outsideGlobs } = loadCandidates(ctx, files.skillFiles, narrowing(opts), reuse);
  const { skills, holders } = claimNames(loaded, opts.profile, diagnostics);
  diagnostics.push(...followLinks(repoDir, skills, files.links, fresh));
  attachSuites(new SuiteReader(repoDir, opts.assertionTypes, dirs), {
    dirs,
    skills,
    plugins,
    fresh,
    namedSuiteFiles: files.namedSuiteFiles,
    diagnostics,
  });
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

/**
 * Each SKILL.md path that is a skill of its own, loaded (or, on a reusing base side, head's record copied): a
 * `skill.md` beside a `SKILL.md`, one inside another skill's folder and one the globs leave out are not.
 */
function loadCandidates(
  ctx: LoadContext,
  skillFiles: readonly string[],
  narrowed: ((path: string) => boolean) | undefined,
  reuse: ReturnType<typeof reusable>,
): { loaded: Skill[]; fresh: Set<Skill>; outsideGlobs: string[] } {
  const { candidates, diagnostics } = ctx;
  const candidateDirs = new Set(skillFiles.map((f) => f.slice(0, Math.max(0, f.lastIndexOf("/")))));
  const outsideGlobs: string[] = [];
  const fresh = new Set<Skill>();
  const loaded: Skill[] = [];
  // Codepoint order: git's tree order and a folder walk list `a-b/` and `a/` differently.
  for (const path of [...skillFiles].sort(byCodepoint)) {
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
  return { loaded, fresh, outsideGlobs };
}

/**
 * Places the suite files, loads each fresh skill's suite (a reused record keeps its own) and says what suite
 * files are withheld from the agent or left unread.
 */
function attachSuites(
  reader: SuiteReader,
  at: {
    dirs: DirIndex;
    skills: Skill[];
    plugins: readonly PluginRoot[];
    fresh: ReadonlySet<Skill>;
    namedSuiteFiles: string[];
    diagnostics: Diagnostic[];
  },
): void {
  const { dirs, skills, plugins, fresh, diagnostics } = at;
  const placement = placeSuites(reader, skills, at.namedSuiteFiles, (s) => fresh.has(s));
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
  const suites = skills.flatMap((s) => (s.suite ? [s.suite] : []));
  const graded = new Set([...read, ...suites.flatMap(gradingFiles)]);
  const inputs = new Set(suites.flatMap(caseInputFiles).filter((f) => !graded.has(f)));
  appendAll(diagnostics, withholdSuiteFiles(skills, new Set([...graded, ...inputs]), fresh, inputs));
  appendAll(
    diagnostics,
    unreadEvalFiles(dirs, skills, plugins, read, new Set(diagnostics.map((d) => d.file)), (s) =>
      fresh.has(s),
    ),
  );
}

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

function dedupe(ds: Diagnostic[]): Diagnostic[] {
  const seen = new Set<string>();
  return ds.filter((d) => {
    const k = `${d.file}:${d.line}:${d.column}:${d.message}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}
