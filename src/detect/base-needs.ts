/**
 * Which files of a PR's base the run reads, given head's discovery and the PR's changed files: a file the PR does
 * not change is at base what it is at head, so the base side needs only the folders of the skills the PR touches
 * (their SKILL.md, files and suites, read by discovery, hashed, installed and graded), the changed files
 * themselves, and the repository files the trusted agent configuration names. Everything else of the base is
 * head's (discovery reuses head's records: `ReuseUnchanged`). Where that shortcut would be wrong or dear, the
 * whole base is read (`full`, with the reason).
 */
import { posix } from "node:path";
import type { Skill } from "../model/index.js";
import { namedSkill } from "./base-reuse.js";
import { agentNameOf } from "./copies.js";
import type { Discovery } from "./discover.js";
import { isMarketplace, isPluginManifest, NAMED_SUITE_FILES, SKILL_FILE_NAMES } from "./repo-files.js";
import { parseSourceFile } from "./source-file.js";
import { suiteFileSkillName } from "./suite-roots.js";
import { localName, seedSuiteDir, touchedBy } from "./touched.js";

/** Changed files above which the whole base is read: a PR that large touches most of a small repository anyway. */
export const MAX_SPARSE_CHANGED_FILES = 2_000;

export type BaseNeeds = { paths: string[] } | { full: string };

const isSkillFile = (f: string) => (SKILL_FILE_NAMES as readonly string[]).includes(posix.basename(f));

/**
 * The base paths (files and folders, repository-relative) the run reads, or why it reads the whole base.
 * `agentPaths`: the repository paths every agent configuration of the run names (its matrix cells too,
 * src/agents/repo-paths.ts): read from the base, the trusted tree.
 */
export function baseNeeds(
  head: Discovery,
  changedFiles: readonly string[],
  agentPaths: readonly string[],
): BaseNeeds {
  if (changedFiles.length > MAX_SPARSE_CHANGED_FILES)
    return { full: `${changedFiles.length} changed files (more than ${MAX_SPARSE_CHANGED_FILES})` };
  // Discovery reads the base in full then (a renamed plugin moves every skill of it): see `reusable`.
  const manifest = changedFiles.find((f) => isPluginManifest(f) || isMarketplace(f));
  if (manifest) return { full: `the PR changes ${manifest}` };
  if (changedFiles.some((f) => /(?:^|\/)evals\/[^/]+\/(?:case\.ya?ml|prompt\.md|graders\/)/.test(f)))
    return { full: "the PR changes a plugin's eval cases" };
  // A root skill's folder is the repository.
  if (head.skills.some((s) => s.dir === ".") || changedFiles.some((f) => isSkillFile(f) && !f.includes("/")))
    return { full: "a skill at the repository root" };
  // Suite files that name their skill touch the skill they name (head's reading; the base's: `moreBaseNeeds`).
  const named = new Set<string>();
  for (const f of changedFiles)
    if (NAMED_SUITE_FILES.has(posix.basename(f))) {
      const n = namedSkill(head.repoDir, f);
      if (n) named.add(n);
    }
  const touched = touchedBy(changedFiles, named);
  const paths = new Set<string>(changedFiles);
  for (const s of head.skills) {
    if (!touched(s)) continue;
    // A javascript predicate may import files from anywhere in the repository: the base arm bundles them.
    if (readsOutsideSuite(s)) return { full: `${s.name}'s suite has javascript predicates or an oracle` };
    for (const p of skillPaths(s)) paths.add(p);
  }
  // A suite file that names its skill may sit anywhere: discovery places every one that no reused record holds.
  const untouchedSuites = new Set<string>();
  for (const s of head.skills)
    if (!touched(s)) untouchedSuites.add(seedSuiteDir(s)).add(s.dir === "." ? "evals" : `${s.dir}/evals`);
  for (const f of head.files.namedSuiteFiles) if (!untouchedSuites.has(posix.dirname(f))) paths.add(f);
  // A skill folder at base whose SKILL.md the PR changes, deletes or adds: its whole folder.
  for (const f of changedFiles) if (isSkillFile(f)) paths.add(posix.dirname(f));
  for (const p of agentPaths) paths.add(p);
  return { paths: [...paths].sort() };
}

/** The folders (and files) of a skill: its folder, its seed suite folder, its suite's folders, its link targets. */
function skillPaths(s: Skill): string[] {
  const out = [s.dir, seedSuiteDir(s), ...(s.linkTargets ?? [])];
  if (s.suite) out.push(s.suite.root, ...s.suite.sourceFiles.map((f) => posix.dirname(f)));
  return out.filter((p) => p !== ".");
}

function readsOutsideSuite(s: Skill): boolean {
  const suite = s.suite;
  if (!suite) return false;
  if (suite.meta.oracle) return true;
  return suite.cases.some(
    (c) =>
      c.oracle !== undefined ||
      c.assertions.some((a) => a.type === "javascript" || a.type === "not-javascript"),
  );
}

/**
 * What the base's own changed files add (read once the first paths are written): the seed suite folders of base
 * skills whose SKILL.md the PR changed (a PR may rename a skill, and its base suite sits under the base's name,
 * `.agent/evals/<name>/`), and the folders of skills a changed suite file names at base. `read` gives a base
 * file's text (undefined when the base has none); `namespaceOf` a skill folder's plugin.
 */
export function moreBaseNeeds(
  head: Discovery,
  changedFiles: readonly string[],
  read: (rel: string) => string | undefined,
  namespaceOf: (skillDir: string) => string | undefined,
): string[] {
  const out: string[] = [];
  for (const f of changedFiles) {
    if (isSkillFile(f)) {
      const text = read(f);
      if (text === undefined) continue;
      const name = /^---\r?\n(?:[^\n]*\n)*?name:[ \t]*["']?([^"'\n#]+?)["']?[ \t]*(?:#.*)?\r?\n/.exec(
        text,
      )?.[1];
      const ns = namespaceOf(posix.dirname(f));
      for (const n of new Set([name, posix.basename(posix.dirname(f))]))
        if (n) out.push(ns ? `.agent/evals/${ns}/${n}` : `.agent/evals/${n}`);
    } else if (NAMED_SUITE_FILES.has(posix.basename(f))) {
      const text = read(f);
      const named = text === undefined ? undefined : suiteFileSkillName(parseSourceFile(f, text).value);
      for (const s of head.skills)
        if (named && (agentNameOf(s) === named || localName(s) === named)) out.push(...skillPaths(s));
    }
  }
  return out;
}
