import { posix } from "node:path";
import type { Skill } from "../model/index.js";

/** The seed layout keeps suites here; `<skill-dir>/evals/` is the other place. */
export const SEED_EVALS_DIR = ".agent/evals";

/**
 * Whether a PR's changed files (PR API or git, both sides of a rename) touch a skill: its folder, either
 * suite folder (also one the PR deleted or added) or a file its suite reads. One set lookup per folder, so
 * 3,000 changed files against 10,000 skills stay cheap. Without a list everything counts as touched.
 */
export function touchedBy(changedFiles: readonly string[] | undefined): (s: Skill) => boolean {
  if (!changedFiles) return () => true;
  const changed = new Set(changedFiles);
  const dirs = new Set<string>();
  for (const f of changed)
    for (let d = posix.dirname(f); d !== "." && d !== "/"; d = posix.dirname(d)) dirs.add(d);
  return (s) =>
    changed.has(s.path) ||
    dirs.has(s.dir) ||
    dirs.has(posix.join(SEED_EVALS_DIR, s.name)) ||
    (s.suite !== undefined && (dirs.has(s.suite.root) || s.suite.sourceFiles.some((f) => changed.has(f))));
}
