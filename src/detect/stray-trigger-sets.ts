import { statSync } from "node:fs";
import { join, posix } from "node:path";
import type { Diagnostic, Skill } from "../model/index.js";
import { readRegularFile } from "../util/read-file.js";
import { agentNameOf } from "./copies.js";
import type { DirIndex } from "./dir-index.js";
import { isTriggerItem, TRIGGER_FILE } from "./formats/skill-creator.js";
import { NAMED_SUITE_FILES, SKIPPED_DIRS } from "./repo-files.js";
import type { SuiteRoot } from "./suite-roots.js";
import { localName, SEED_EVALS_DIR } from "./touched.js";
import { INPUT_DIRS } from "./unread-files.js";

/** Folders at the top of a repository where harnesses keep the trigger sets of several skills. */
export const TOP_EVAL_DIRS = ["tests", "test", "evals", "eval"];
/** A JSON file whose name or folder says it may hold eval queries. */
const EVALISH = /eval|trigger|quer|routing|test/i;
const MAX_DEPTH = 4;
/** A trigger set is a few hundred queries; a larger file is a data set or a run's output, not read. */
const MAX_BYTES = 1024 * 1024;

/** Whether `path` may be a stray trigger set: a JSON file whose name, or whose folder's name, says eval. */
export function mayBeStrayTriggerSet(path: string): boolean {
  if (!path.endsWith(".json")) return false;
  return EVALISH.test(posix.basename(path)) || EVALISH.test(posix.basename(posix.dirname(path)));
}

export interface StrayTriggerSets {
  /** Suite roots holding the trigger files found for `skill` away from its suite folders. */
  rootsOf(skill: Skill): SuiteRoot[];
  /** A located notice per trigger set whose skill is not clear. */
  diagnostics: Diagnostic[];
}

/**
 * skill-creator's trigger sets (`[{query, should_trigger}]`) have no fixed name or place: `run_eval.py` is given
 * one with `--eval-set`. Found by their content where no format reads them (`evals/trigger_eval_set.json` aside,
 * `tests/trigger-evals/<skill>.json`, a root-level trigger file), each is attached to the skill it clearly belongs
 * to: the skill whose folder holds it, else the one skill its name or a folder on its path names, else the
 * repository's only skill. One whose skill is not clear gets one located notice (#43: no silent gaps).
 * `readByFormats` tells the files a suite loader reads already (they are not looked at again).
 */
export function strayTriggerSets(
  dirs: DirIndex,
  skills: readonly Skill[],
  readByFormats: (file: string) => boolean,
  /** Skills whose suite is read in this discovery (a record reused from head keeps its suite). */
  fresh: (s: Skill) => boolean,
): StrayTriggerSets {
  const skillDirs = new Map(skills.map((s) => [s.dir, s]));
  const found = new Map<string, Skill | undefined>();
  const consider = (file: string, owner: Skill | undefined) => {
    if (!found.has(file) && mayBeStrayTriggerSet(file) && !readByFormats(file) && isTriggerSet(dirs, file))
      found.set(file, owner ?? ownerByName(file, skills));
  };
  // In a skill's folder only folders named for evals are entered (`tests/`, `evals/`, `trigger-evals/`): its
  // scripts and references are never listed for this, so a repository of 10,000 skills pays one listing each.
  const walk = (dir: string, depth: number, owner: Skill | undefined, anyFolder: boolean) => {
    for (const [name, e] of dirs.list(dir) ?? []) {
      const path = dir === "" || dir === "." ? name : `${dir}/${name}`;
      if (e.link) continue;
      if (e.kind === "file") consider(path, owner);
      else if (
        e.kind === "dir" &&
        depth < MAX_DEPTH &&
        enterable(name) &&
        path !== SEED_EVALS_DIR &&
        !skillDirs.has(path) &&
        (anyFolder || EVALISH.test(name))
      )
        walk(path, depth + 1, owner, anyFolder);
    }
  };
  const root = skillDirs.get(".");
  for (const s of skills) if (s.dir !== "." && fresh(s)) walk(s.dir, 0, s, false);
  // The repository's top: its files and its harness folders (a root skill owns what it holds).
  for (const [name, e] of dirs.list("") ?? []) if (e.kind === "file" && !e.link) consider(name, root);
  for (const top of TOP_EVAL_DIRS) if (dirs.isDir(top) && !skillDirs.has(top)) walk(top, 1, root, true);
  // Any other top folder is listed once for a folder of trigger sets (`quality/trigger-evals/<skill>.json`).
  for (const [name, e] of dirs.list("") ?? [])
    if (
      e.kind === "dir" &&
      !e.link &&
      !TOP_EVAL_DIRS.includes(name) &&
      !skillDirs.has(name) &&
      enterable(name)
    )
      walk(name, 1, root, false);
  const only = skills.length === 1 ? skills[0] : undefined;
  const roots = new Map<Skill, SuiteRoot[]>();
  const diagnostics: Diagnostic[] = [];
  for (const [file, owner] of [...found].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const skill = owner ?? only;
    if (skill) {
      roots.set(skill, [
        ...(roots.get(skill) ?? []),
        { dir: posix.dirname(file), formats: [], triggerFiles: [file] },
      ]);
      continue;
    }
    diagnostics.push({
      file,
      line: 1,
      column: 1,
      severity: "notice",
      code: "suite/unread-file",
      message: `a skill-creator trigger set (\`[{query, should_trigger}]\`), but not for a skill skillgate can tell: it sits in no skill's folder and its name names none of the ${skills.length} skills. Nothing in it is gated; put it in the skill's evals/ folder or name it after the skill (\`tests/trigger-evals/<skill>.json\`)`,
    });
  }
  return { rootsOf: (s) => roots.get(s) ?? [], diagnostics };
}

/** A folder a stray-set search may enter: not version control, packages, or a case's input files. */
const enterable = (name: string) => !SKIPPED_DIRS.has(name) && !INPUT_DIRS.has(name);

/** A list of trigger queries, every entry of them: non-empty, and each one a trigger query. */
const isTriggerList = (x: unknown) => Array.isArray(x) && x.length > 0 && x.every(isTriggerItem);

/**
 * A JSON trigger set: an array of trigger queries, or an object holding such a list under a key of its own
 * (`{skill_name, cases: [...]}`), as `loadTriggerFile` reads it. A file that only looks like one is not read.
 */
function isTriggerSet(dirs: DirIndex, file: string): boolean {
  try {
    const abs = join(dirs.root, file);
    if ((statSync(abs, { throwIfNoEntry: false })?.size ?? MAX_BYTES + 1) > MAX_BYTES) return false;
    const bytes = readRegularFile(abs);
    const v: unknown = bytes ? JSON.parse(bytes.toString("utf8")) : undefined;
    if (Array.isArray(v)) return isTriggerList(v);
    return !!v && typeof v === "object" && Object.values(v).some(isTriggerList);
  } catch {
    return false;
  }
}

/**
 * The one skill the file's name or a folder on its path names (`tests/trigger-evals/deploy.json`,
 * `evals/deploy/trigger_eval_set.json`, `deploy-triggers.json`), nearest first; none when a name fits several.
 */
function ownerByName(file: string, skills: readonly Skill[]): Skill | undefined {
  const stem = posix.basename(file).replace(/\.json$/, "");
  const names = [
    stem,
    stem.replace(/[-_.](trigger|eval|quer|routing|set|test).*$/i, ""),
    ...posix.dirname(file).split("/").reverse(),
  ];
  for (const n of names) {
    const fits = skills.filter((s) => agentNameOf(s) === n || localName(s) === n);
    if (fits.length === 1) return fits[0];
    if (fits.length > 1) return undefined;
  }
  return undefined;
}

/** Files a loader reads from a suite folder by their name (so a stray-set search passes over them). */
export function readByName(file: string): boolean {
  const name = posix.basename(file);
  return NAMED_SUITE_FILES.has(name) || TRIGGER_FILE.test(name) || name === "meta.json";
}
