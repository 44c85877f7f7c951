import { posix } from "node:path";
import type { Skill } from "../model/index.js";
import { agentNameOf } from "./copies.js";

/** The seed layout keeps suites here; `<skill-dir>/evals/` is the other place. */
export const SEED_EVALS_DIR = ".agent/evals";

/**
 * A skill's folder under `.agent/evals/`: `<name>`, or `<plugin>/<name>` for a plugin's skill; by the name the
 * agent knows (every copy of a skill reads the same one).
 */
export function seedSuiteDir(s: Pick<Skill, "name" | "agentName" | "namespace">): string {
  return s.namespace
    ? posix.join(SEED_EVALS_DIR, s.namespace, localName(s))
    : posix.join(SEED_EVALS_DIR, agentNameOf(s));
}

/** The name a skill has within its namespace (its frontmatter name). */
export function localName(s: Pick<Skill, "name" | "agentName" | "namespace">): string {
  const name = agentNameOf(s);
  return s.namespace ? name.slice(s.namespace.length + 1) : name;
}

/**
 * Whether a PR's changed files (PR API or git, both sides of a rename) touch a skill: its folder, either
 * suite folder (also one the PR deleted or added), a file its suite reads, or a suite file naming it
 * (`named`, read from both sides). One set lookup per folder, so 3,000 changed files against 10,000 skills stay
 * cheap. Without a list everything counts as touched. A root skill's folder is the repository: any change
 * touches it.
 */
export function touchedBy(
  changedFiles: readonly string[] | undefined,
  named: ReadonlySet<string> = new Set(),
): (s: Skill) => boolean {
  if (!changedFiles) return () => true;
  const changed = new Set(changedFiles);
  const dirs = new Set<string>();
  for (const f of changed)
    for (let d = posix.dirname(f); d !== "." && d !== "/"; d = posix.dirname(d)) dirs.add(d);
  return (s) =>
    (s.dir === "." && changed.size > 0) ||
    changed.has(s.path) ||
    dirs.has(s.dir) ||
    dirs.has(seedSuiteDir(s)) ||
    named.has(agentNameOf(s)) ||
    (s.linkTargets?.some((t) => changed.has(t) || dirs.has(t)) ?? false) ||
    (s.suite !== undefined &&
      (suiteDirs(s).some((d) => dirs.has(d)) || s.suite.sourceFiles.some((f) => changed.has(f))));
}

/** The folders a skill's suite was read from (its root and the folder of every file it read). */
function suiteDirs(s: Skill): string[] {
  if (!s.suite) return [];
  return [s.suite.root, ...s.suite.sourceFiles.map((f) => posix.dirname(f))];
}

/** Whether a diagnostic's file belongs to a skill: its folder, or a file or folder of its suite. */
export function skillOwnsFile(skill: Skill, file: string): boolean {
  if (skill.dir === "." ? !file.startsWith("../") : file.startsWith(`${skill.dir}/`)) return true;
  const suite = skill.suite;
  if (!suite) return file.startsWith(`${seedSuiteDir(skill)}/`);
  return (
    suite.sourceFiles.includes(file) ||
    file === suite.root ||
    file.startsWith(`${suite.root}/`) ||
    file.startsWith(`${seedSuiteDir(skill)}/`)
  );
}
