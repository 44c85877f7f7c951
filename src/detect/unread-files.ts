import { posix } from "node:path";
import type { Diagnostic, Skill } from "../model/index.js";
import type { DirIndex } from "./dir-index.js";
import type { PluginRoot } from "./layout.js";

/** Data files an eval tool could have written. */
const DATA_FILE = /\.(json|jsonl|ya?ml)$/i;
/** A name that says "eval" (`evals-hard.json`, `trigger-eval.json`, `case.yaml`, `test_cases.json` …). */
const EVAL_NAME = /eval|trigger|scenario|case|task|test|prompt|assert|expect|grader|rubric/i;
/** Folders whose data files are cases by their place (getsentry's `evals/scenarios/*.json`). */
const CASE_DIRS = new Set(["scenarios", "cases", "tasks", "prompts", "tests", "assertions", "graders"]);
/** Folders of files a case copies into the workspace: inputs, not eval files. */
export const INPUT_DIRS = new Set([
  "files",
  "fixtures",
  "fixture",
  "_fixtures",
  "assets",
  "data",
  "inputs",
  "outputs",
  "expected",
  "workspace",
]);
/**
 * Folders at the repository's top that hold eval files of several skills. In `tests/` and `test/` (a code
 * project's own tests too) only files whose name or folder says eval or trigger count (`saysEval`).
 */
const TOP_HARNESS_DIRS = ["evals", "eval", "tests", "test"];
/** Whether a folder below the top, or the file's own name, says eval or trigger. */
const saysEval = (file: string) =>
  file
    .split("/")
    .slice(1)
    .some((seg) => /eval|trigger/i.test(seg));
/** How deep below an `evals/` folder to look (`evals/<case>/case.yaml` is 2). */
const MAX_DEPTH = 3;

const WHAT_IS_READ =
  "evals.json (skill-creator), eval.yaml with tasks/*.yaml and trigger_tests.yaml (waza; skillgrade's and Vally's eval.yaml by their shape), meta.json with prompts/ and assertions/ (skillgate), trigger sets in a JSON file whose name says trigger or eval set, and skill-creator trigger arrays `[{query, should_trigger}]` anywhere in the skill's folder";

/**
 * Files that look like eval files but that no format read (#28: no silent gaps): a second `evals-*.json` beside
 * `evals.json`, a trigger set beside `SKILL.md`, a plugin's own `evals/<case>/case.yaml`, `evals/scenarios/*.json`.
 * Each is a located notice saying what skillgate reads there instead, so a suite a maintainer believes gated is
 * never silently left out. `read` holds every file a suite format read; `named` every file a diagnostic names
 * already (a broken file is reported as broken, not as unread). Only the folders of `fresh` skills are looked
 * in: a base side's record reused from head (a folder the PR leaves alone) had its notices at head.
 */
export function unreadEvalFiles(
  dirs: DirIndex,
  skills: readonly Skill[],
  plugins: readonly PluginRoot[],
  read: ReadonlySet<string>,
  named: ReadonlySet<string>,
  fresh: (s: Skill) => boolean = () => true,
): Diagnostic[] {
  const found = new Map<string, string>();
  const report = (file: string, why: string) => {
    if (!read.has(file) && !named.has(file) && !found.has(file)) found.set(file, why);
  };
  for (const s of skills) {
    if (!fresh(s)) continue;
    const evals = posix.join(s.dir, "evals");
    for (const [name, e] of dirs.list(s.dir) ?? [])
      if (e.kind === "file" && !e.link && DATA_FILE.test(name) && EVAL_NAME.test(name))
        report(
          posix.join(s.dir, name),
          /trigger/i.test(name)
            ? `a trigger set is read from the skill's suite folder, ${evals}/trigger-eval.json`
            : `suites are read from the skill's suite folder ${evals}/: ${WHAT_IS_READ}`,
        );
    for (const file of evalLikeFiles(dirs, evals, 0))
      report(file, `in ${evals}/ skillgate reads ${WHAT_IS_READ}; see docs/formats.md`);
  }
  for (const p of plugins) {
    const evals = posix.join(p.dir, "evals");
    for (const file of evalLikeFiles(dirs, evals, 0))
      report(
        file,
        `a plugin's own ${evals}/ folder (\`claude plugin eval\` cases) is read only for a plugin of one skill, as that skill's suite: this plugin's cases test several skills at once. Each skill's suite is read from its folder's evals/ (${WHAT_IS_READ}), or from an evals.json (skill_name) or eval.yaml (skill) that names its skill`,
      );
  }
  // The repository's own eval folders (`evals/`, `tests/<skill>/evals/`): suites of several skills live there.
  for (const top of TOP_HARNESS_DIRS) {
    const broad = top === "evals" || top === "eval";
    for (const file of evalLikeFiles(dirs, top, 0, broad))
      if (broad || saysEval(file))
        report(
          file,
          `in the repository's ${top}/ folder skillgate reads ${WHAT_IS_READ}; see docs/formats.md`,
        );
  }
  return [...found]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([file, why]) => ({
      file,
      line: 1,
      column: 1,
      severity: "notice",
      code: "suite/unread-file",
      message: `this looks like an eval file, but no format skillgate reads takes it from here, so nothing in it is gated: ${why}`,
    }));
}

/** Folders of what a run wrote (its records, logs, skill-creator's `<skill>-workspace/iteration-N/`), or of a scenario's inputs. */
const RUN_RECORDS = /^(logs|results|runs|experiments|context|iteration-\d+|.+-workspace)$/;
/** Folders whose data files are eval files whatever their names (`evals/topics.json`, a scenario's set-up). */
const EVAL_DIRS = /^evals?$/;

/**
 * Data files below `dir` that are eval files by their name or their folder's (every one below the repository's
 * own `evals/` when `any`), skipping case inputs and a run's records.
 */
function evalLikeFiles(dirs: DirIndex, dir: string, depth: number, any = false): string[] {
  const out: string[] = [];
  const folder = posix.basename(dir);
  for (const [name, e] of dirs.list(dir) ?? []) {
    if (e.link) continue;
    const path = posix.join(dir, name);
    if (e.kind === "dir" && depth < MAX_DEPTH && !INPUT_DIRS.has(name) && !RUN_RECORDS.test(name))
      out.push(...evalLikeFiles(dirs, path, depth + 1, any));
    else if (
      e.kind === "file" &&
      DATA_FILE.test(name) &&
      (any || EVAL_NAME.test(name) || CASE_DIRS.has(folder) || EVAL_DIRS.test(folder))
    )
      out.push(path);
  }
  return out;
}
