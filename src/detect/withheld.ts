/**
 * What of a skill folder the agent is given: what a harness loads (the whole folder, its `evals/` too: a SKILL.md
 * may tell the agent to read a file there) minus exactly the files the suite loaders read, which hold the
 * expected answers (a skill-creator `evals/evals.json`, a waza `eval.yaml` and its `tasks/` beside SKILL.md, a
 * seed suite's `evals/prompts/`). Those are withheld from the installed copy and hashed with the suite; every other
 * file is installed and hashed with the skill. A SKILL.md that tells the agent to read a withheld file would read
 * differently in a trial than in real use: an error at the instruction (read-instructions.ts; naming one is not).
 */
import { posix } from "node:path";
import type { Diagnostic, Skill, Suite } from "../model/index.js";
import { mentionsOf, readInstructionTo } from "./read-instructions.js";

/** A folder that is told its suite files before it is first read (discover.ts's `SkillFolder`). */
interface WithholdingFolder {
  withhold(files: ReadonlySet<string>): void;
}
const withholding = (f: unknown): f is WithholdingFolder =>
  typeof (f as Partial<WithholdingFolder>).withhold === "function";

/** The input files of a suite's cases (repository-relative). */
export function caseInputFiles(suite: Suite): string[] {
  return suite.cases.flatMap((c) => c.files.map((f) => f.from));
}

/**
 * A suite's files beyond those its loader read that checks read at grading: its predicate modules and the files its
 * oracle commands name (the expected answers, or the code computing them).
 */
export function gradingFiles(suite: Suite): string[] {
  const inRoot = (rel: string) => posix.normalize(posix.join(suite.root, rel.replace(/^\.\//, "")));
  const out: string[] = [];
  for (const c of suite.cases) {
    for (const a of c.assertions)
      if (a.type === "javascript" && typeof a.params.module === "string") out.push(inRoot(a.params.module));
  }
  const oracles = [suite.meta.oracle, ...suite.cases.map((c) => c.oracle)];
  for (const w of oracles.flatMap((o) => o?.command.split(/\s+/) ?? []))
    if (/^[\w./-]+\.[a-z0-9]+$/i.test(w) && !w.startsWith("/") && !w.includes("..")) out.push(inRoot(w));
  return out;
}

/**
 * The files of `read` (repository-relative) under each folder that holds one, relative to it: a skill looks up its
 * folder instead of scanning every file a loader read (skills × suite files at registry scale). In `read`'s order.
 */
function filesUnder(read: ReadonlySet<string>): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const f of read) {
    for (let dir = posix.dirname(f); ; dir = posix.dirname(dir)) {
      const rel = dir === "." ? f : f.slice(dir.length + 1);
      const list = out.get(dir);
      if (list) list.push(rel);
      else out.set(dir, [rel]);
      if (dir === "." || dir === "/") break;
    }
  }
  return out;
}

/** The files of `read` inside the skill's folder, relative to it (`under`: `filesUnder(read)`). */
function suiteFilesIn(skill: Skill, under: ReadonlyMap<string, readonly string[]>): Set<string> {
  const own = posix.basename(skill.path);
  return new Set((under.get(skill.dir) ?? []).filter((rel) => rel !== own));
}

/** 1-based line and column of `index` in `text`. */
function position(text: string, index: number): { line: number; column: number } {
  const before = text.slice(0, index);
  const nl = before.lastIndexOf("\n");
  return { line: before.split("\n").length, column: index - nl };
}

/**
 * Tells each fresh skill's folder which of its files are suite files (`read`: every file a suite loader read) and
 * returns an error for each one its SKILL.md refers to.
 */
export function withholdSuiteFiles(
  skills: readonly Skill[],
  read: ReadonlySet<string>,
  fresh: ReadonlySet<Skill>,
  /** Cases' input files no loader or check reads (repository-relative): handed to the agent, no answer in them. */
  caseInputs: ReadonlySet<string> = new Set(),
): Diagnostic[] {
  const out: Diagnostic[] = [];
  const under = filesUnder(read);
  for (const skill of skills) {
    if (!fresh.has(skill) || !withholding(skill.folder)) continue;
    const withheld = suiteFilesIn(skill, under);
    const inRepo = (rel: string) => (skill.dir === "." ? rel : `${skill.dir}/${rel}`);
    // A case's input file that SKILL.md itself points the agent to is the skill's own (its references/ a case
    // also hands over): installed, as in real use, and no error.
    for (const rel of withheld)
      if (caseInputs.has(inRepo(rel)) && mentionsOf(skill.raw, rel).length > 0) withheld.delete(rel);
    skill.folder.withhold(withheld);
    for (const rel of withheld) {
      const at = readInstructionTo(skill.raw, rel);
      if (at === undefined) continue;
      out.push({
        file: skill.path,
        ...position(skill.raw, at),
        severity: "error",
        code: "skill/refers-to-suite-file",
        message: `${posix.basename(skill.path)} tells the agent to read ${rel}, a file of its eval suite: suite files are never installed for the agent (they hold the expected answers), so the skill would read differently in every trial than in real use; keep what the agent needs outside the suite's files`,
      });
    }
  }
  return out;
}
