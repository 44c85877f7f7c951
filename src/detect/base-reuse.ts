/** The base side of a PR reusing head's discovery: its file list and which of head's skill records it may keep. */
import { join, posix } from "node:path";
import type { Skill } from "../model/index.js";
import { readRegularFile } from "../util/read-file.js";
import type { ReuseUnchanged } from "./discover.js";
import {
  isMarketplace,
  isPluginManifest,
  NAMED_SUITE_FILES,
  type RepositoryFiles,
  SKILL_FILE_NAMES,
  skippedSkillPath,
} from "./repo-files.js";
import { parseSourceFile } from "./source-file.js";
import { mayBeStrayTriggerSet, TOP_EVAL_DIRS } from "./stray-trigger-sets.js";
import { suiteFileSkillName } from "./suite-roots.js";
import { touchedBy } from "./touched.js";

/**
 * The base side's files, from head's list and the PR's changed files: a file the PR does not touch is at base
 * what it is at head, and every other one (added, deleted, renamed) is in the changed list. No walk, no git.
 */
export function filesAtBase(reuse: ReuseUnchanged): RepositoryFiles {
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
    pluginManifests: with_(head.pluginManifests, isPluginManifest),
    marketplaces: with_(head.marketplaces ?? [], isMarketplace),
  };
}

/** A file of a `claude plugin eval` case: `evals/<case>/case.yaml`, `prompt.md` or `graders/*.md`. */
const PLUGIN_EVAL_FILE = /(?:^|\/)evals\/[^/]+\/(?:case\.ya?ml|prompt\.md|graders\/[^/]+\.md)$/;

export function reusable(reuse: ReuseUnchanged, baseDir: string) {
  // A plugin renamed or added moves every skill of it into another namespace: read the base in full.
  if (reuse.changedFiles.some((f) => isPluginManifest(f) || isMarketplace(f))) return undefined;
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
