import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join, posix } from "node:path";
import picomatch from "picomatch";
import { globSync } from "tinyglobby";
import type { Diagnostic, Skill, Suite, ValidationProfile } from "../model/index.js";
import { SUITE_FORMATS, type SuiteDraft } from "./formats/index.js";
import { parseSkillFile } from "./skill-file.js";
import { type AssertionTypeLookup, SuiteReader } from "./suite-context.js";

/** Where teams keep skills (DESIGN.md § Repository conventions). */
export const DEFAULT_SKILL_GLOBS = [
  ".claude/skills/*/SKILL.md",
  ".agents/skills/*/SKILL.md",
  ".github/skills/*/SKILL.md",
  ".agent/skills/*/SKILL.md",
  "skills/*/SKILL.md",
];

/** The seed layout keeps suites here; `<skill-dir>/evals/` is the other place. */
export const SEED_EVALS_DIR = ".agent/evals";

export interface DiscoverOptions {
  globs?: string[];
  include?: string[];
  exclude?: string[];
  profile: ValidationProfile;
  assertionTypes: AssertionTypeLookup;
}

export interface Discovery {
  repoDir: string;
  skills: Skill[];
  diagnostics: Diagnostic[];
}

/** Finds every skill and its eval suite; never throws on bad input (diagnostics carry every problem). */
export function discoverRepository(repoDir: string, opts: DiscoverOptions): Discovery {
  const diagnostics: Diagnostic[] = [];
  const globs = opts.globs ?? DEFAULT_SKILL_GLOBS;
  const files = globSync(globs, {
    cwd: repoDir,
    dot: true,
    onlyFiles: true,
    ignore: ["**/node_modules/**", "**/.git/**"],
    expandDirectories: false,
  }).sort();
  const include = opts.include?.length ? picomatch(opts.include, { dot: true }) : undefined;
  const exclude = opts.exclude?.length ? picomatch(opts.exclude, { dot: true }) : undefined;
  const skills: Skill[] = [];
  const byName = new Map<string, Skill>();
  for (const path of files) {
    if (include && !include(path)) continue;
    if (exclude?.(path)) continue;
    const skill = loadSkill(repoDir, path, opts.profile, diagnostics);
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
  for (const skill of skills) {
    const suite = loadSuite(repoDir, skill, opts.assertionTypes, diagnostics);
    if (suite) skill.suite = suite;
  }
  // Suites in the seed folder with no skill: the skill was renamed or deleted, or the folder name is wrong.
  for (const dir of listDirs(join(repoDir, SEED_EVALS_DIR)))
    if (!byName.has(dir))
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

function loadSkill(
  repoDir: string,
  path: string,
  profile: ValidationProfile,
  diagnostics: Diagnostic[],
): Skill {
  const dir = posix.dirname(path);
  const raw = readFileSync(join(repoDir, path), "utf8");
  const parsed = parseSkillFile(path, raw, profile);
  diagnostics.push(...parsed.diagnostics);
  const { files, contentHash } = hashSkillFolder(repoDir, dir);
  return {
    name: parsed.name && /^[a-z0-9-]{1,64}$/.test(parsed.name) ? parsed.name : posix.basename(dir),
    dir,
    path,
    description: parsed.description ?? "",
    version: parsed.version,
    frontmatter: parsed.frontmatter,
    body: parsed.body,
    raw,
    contentHash,
    files,
    loc: parsed.loc,
  };
}

/** What the agent sees of a skill: every file of its folder but `evals/`, hashed by path and content. */
export function hashSkillFolder(repoDir: string, dir: string): { files: string[]; contentHash: string } {
  const files: string[] = [];
  const walk = (rel: string) => {
    for (const e of readdirSync(join(repoDir, dir, rel), { withFileTypes: true })) {
      const p = rel ? `${rel}/${e.name}` : e.name;
      if (!rel && e.name === "evals") continue;
      if (e.isDirectory()) walk(p);
      else if (e.isFile()) files.push(p);
    }
  };
  walk("");
  files.sort();
  const h = createHash("sha256");
  for (const f of files) {
    h.update(f);
    h.update("\0");
    h.update(
      createHash("sha256")
        .update(readFileSync(join(repoDir, dir, f)))
        .digest("hex"),
    );
    h.update("\n");
  }
  return { files, contentHash: h.digest("hex") };
}

/** Loads the suite of a skill from `.agent/evals/<name>/` and/or `<skill-dir>/evals/`, all formats. */
export function loadSuite(
  repoDir: string,
  skill: Skill,
  assertionTypes: AssertionTypeLookup,
  diagnostics: Diagnostic[],
): Suite | undefined {
  const reader = new SuiteReader(repoDir, assertionTypes);
  const roots = [posix.join(SEED_EVALS_DIR, skill.name), posix.join(skill.dir, "evals")].filter((r) =>
    reader.isDir(r),
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
  diagnostics.push(...reader.diagnostics);
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
    sourceFiles: [...new Set(reader.sourceFiles)],
  };
}

function listDirs(abs: string): string[] {
  try {
    return readdirSync(abs, { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name)
      .sort();
  } catch {
    return [];
  }
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
