import { posix } from "node:path";
import type { Assertion, Case, CaseFile } from "../../model/index.js";
import { splitFrontmatter } from "../skill-file.js";
import { parseSourceFile, type SourceFile } from "../source-file.js";
import type { SuiteReader } from "../suite-context.js";
import { notGraded, warnUnknownKeys } from "./not-graded.js";
import type { SuiteFormatLoader } from "./types.js";

type Raw = Record<string, unknown>;
const isObject = (v: unknown): v is Raw => !!v && typeof v === "object" && !Array.isArray(v);

/** Keys of case.yaml that describe the case and are not checks: read or passed over without a word. */
const DESCRIPTIVE = new Set(["schema_version", "name", "description", "tags"]);
/** Run settings of `claude plugin eval` that skillgate's own settings replace: each a "not graded" notice. */
const RUN_SETTINGS: Record<string, readonly string[]> = {
  execution: ["max_turns", "timeout_seconds", "allowed_tools"],
  context: ["scaffold_script"],
};
/** Keys read below, or named by a notice (`expected_outcome` is prose that no grader of its own checks). */
const KNOWN = new Set([...DESCRIPTIVE, "context", "execution", "graders", "runs", "expected_outcome"]);

/**
 * Claude Code's `claude plugin eval` suites: `<plugin>/evals/<case>/` holding `case.yaml` (its
 * `execution.prompt`) or `prompt.md`, and `graders/*.md` (frontmatter `type`, the pattern or rubric as body).
 * Read from a plugin's own `evals/` for the plugin's one skill (discovery places that folder). `regex` graders on
 * the reply become `regex` / `not-regex`, `llm` graders `judge`, `tool_used` of the `Skill` tool `skill-used` /
 * `not-skill-used`; `context.add_dirs` folders are copied into the workspace. Everything else is a located "not
 * graded" notice and the rest of the case runs.
 */
export const pluginEvalFormat: SuiteFormatLoader = {
  format: "claude-plugin-eval",
  onlyWhereNamed: true,
  detect(reader, root) {
    return caseDirs(reader, root).length > 0;
  },
  load(reader, root, draft) {
    for (const dir of caseDirs(reader, root)) {
      const part = { part: "case" as const, caseId: posix.basename(dir) };
      const { value: c, ok } = reader.withinPart(part, () => loadCase(reader, dir));
      if (c && ok) draft.cases.push(c);
    }
  },
};

/** The case folders below `root`: each holds a `case.yaml` or a `prompt.md`. */
function caseDirs(reader: SuiteReader, root: string): string[] {
  return [...(reader.dirs.list(root) ?? [])]
    .filter(([name, e]) => e.kind === "dir" && !e.link && !name.startsWith("."))
    .map(([name]) => posix.join(root, name))
    .filter((d) => reader.exists(posix.join(d, "case.yaml")) || reader.exists(posix.join(d, "prompt.md")))
    .sort();
}

function loadCase(reader: SuiteReader, dir: string): Case | undefined {
  const id = posix.basename(dir);
  const caseFile = posix.join(dir, "case.yaml");
  const src = reader.exists(caseFile) ? reader.read(caseFile) : undefined;
  if (reader.exists(caseFile) && !src) return undefined; // does not parse: its error is the case's
  const spec = isObject(src?.value) ? src.value : {};
  const prompt = promptOf(reader, dir, spec);
  const loc = src?.locate([]) ?? { file: posix.join(dir, "prompt.md"), line: 1, column: 1 };
  if (prompt === undefined || prompt.trim() === "") {
    reader.error(loc, "suite/plugin-eval", "a case needs `execution.prompt` in case.yaml or a prompt.md");
    return undefined;
  }
  if (src) caseNotices(reader, src, spec);
  const assertions = [...graderFiles(reader, dir)];
  const files = src ? addedDirs(reader, src, dir, spec) : [];
  const c: Case = { id, prompt, files, assertions, vars: {}, loc, literal: true };
  return reader.checkCase(c, "a grader in graders/ (`regex`, `llm`, or `tool_used` of the Skill tool)")
    ? c
    : undefined;
}

/** `execution.prompt` of case.yaml, else prompt.md without its frontmatter. */
function promptOf(reader: SuiteReader, dir: string, spec: Raw): string | undefined {
  const execution = isObject(spec.execution) ? spec.execution : {};
  if (typeof execution.prompt === "string") return execution.prompt;
  const file = posix.join(dir, "prompt.md");
  if (!reader.exists(file)) return undefined;
  const text = reader.readText(file);
  if (text === undefined) return undefined;
  const split = splitFrontmatter(text);
  return typeof split === "string" ? text : split.body;
}

/** Unknown keys (warnings) and the run settings and prose no check stands for ("not graded" notices). */
function caseNotices(reader: SuiteReader, src: SourceFile, spec: Raw): void {
  warnUnknownKeys(reader, src, spec, [], KNOWN, "is not a key of case.yaml");
  for (const [group, keys] of Object.entries(RUN_SETTINGS)) {
    const g = spec[group];
    if (isObject(g))
      for (const k of keys) if (g[k] !== undefined) notGraded(reader, src, [group, k], `\`${k}\``);
  }
  for (const key of ["runs", "expected_outcome", "graders"])
    if (spec[key] !== undefined)
      notGraded(
        reader,
        src,
        [key],
        key === "graders" ? "a `graders:` list (graders/*.md are read)" : `\`${key}\``,
      );
}

/** `context.add_dirs`: every file of each folder (relative to the case), copied under the folder's name. */
function addedDirs(reader: SuiteReader, src: SourceFile, dir: string, spec: Raw): CaseFile[] {
  const context = isObject(spec.context) ? spec.context : {};
  const dirs = Array.isArray(context.add_dirs) ? context.add_dirs : [];
  return dirs.flatMap((d, i) => {
    const rel = typeof d === "string" ? posix.normalize(posix.join(dir, d)) : "";
    if (!rel || !reader.inside(rel, dir) || !reader.isDir(rel)) {
      reader.error(
        src.locate(["context", "add_dirs", i]),
        "suite/file-missing",
        `\`${String(d)}\` is no folder of this case (${dir}/)`,
      );
      return [];
    }
    return filesBelow(reader, rel).map((from) => ({
      from,
      to: posix.join(String(d), from.slice(rel.length + 1)),
    }));
  });
}

function filesBelow(reader: SuiteReader, dir: string): string[] {
  const out: string[] = [];
  for (const [name, e] of reader.dirs.list(dir) ?? []) {
    const p = posix.join(dir, name);
    if (e.link) continue;
    if (e.kind === "dir") out.push(...filesBelow(reader, p));
    else if (e.kind === "file") out.push(p);
  }
  return out.sort();
}

/** Every `graders/*.md` of the case, each as the assertion it maps to (or a notice). */
function* graderFiles(reader: SuiteReader, dir: string): Generator<Assertion> {
  for (const file of reader.list(posix.join(dir, "graders"), /\.md$/i)) {
    const text = reader.readText(file);
    if (text === undefined) continue;
    const split = splitFrontmatter(text);
    if (typeof split === "string") {
      reader.notice(
        { file, line: 1, column: 1 },
        "suite/not-graded",
        "not graded: a grader without frontmatter",
      );
      continue;
    }
    const fm = parseSourceFile(file, split.fmText, 1);
    if (!isObject(fm.value)) {
      reader.notice(
        { file, line: 2, column: 1 },
        "suite/not-graded",
        "not graded: its frontmatter is no mapping",
      );
      continue;
    }
    const body = { text: split.body.trim(), loc: { file, line: split.close + 2, column: 1 } };
    const a = grader(reader, fm, fm.value, body, posix.basename(file, ".md"));
    if (a) yield a;
  }
}

/** One grader: its frontmatter (`fm`) and its body (the regex or the rubric). */
function grader(
  reader: SuiteReader,
  fm: SourceFile,
  g: Raw,
  body: { text: string; loc: Case["loc"] },
  name: string,
): Assertion | undefined {
  const raw = graderAssertion(g, body.text, name);
  if (typeof raw === "string") {
    notGraded(reader, fm, raw === "type" ? ["type"] : [raw], `grader \`${name}\` (${describe(g)})`);
    return undefined;
  }
  const a = reader.assertion(raw, fm, [], { foreign: true });
  return a && { ...a, loc: a.type === "judge" || a.type === "regex" ? body.loc : fm.locate([]) };
}

/** The skillgate assertion a grader is, or the key that has no equivalent. */
function graderAssertion(g: Raw, body: string, name: string): Raw | string {
  const id = `grader-${name}`;
  if (g.type === "llm") return body ? { id, type: "judge", value: body } : "type";
  if (g.type === "regex") {
    if (g.target !== undefined && g.target !== "reply" && g.target !== "output") return "target";
    const match = g.match ?? "contains";
    if (match !== "contains" && match !== "not_contains") return "match";
    if (!body) return "type";
    const flags = typeof g.flags === "string" ? { flags: g.flags } : {};
    return { id, type: match === "contains" ? "regex" : "not-regex", value: body, ...flags };
  }
  if (g.type === "tool_used" && g.tool === "Skill") {
    const min = typeof g.min === "number" ? g.min : 1;
    if (g.max === 0 && min === 0) return { id, type: "not-skill-used" };
    if (min >= 1 && g.max === undefined) return { id, type: "skill-used" };
    return "max";
  }
  return g.type === "tool_used" ? "tool" : "type";
}

const describe = (g: Raw) =>
  Object.entries(g)
    .filter(([k]) => k !== "weight")
    .map(([k, v]) => `${k}: ${typeof v === "string" ? v : JSON.stringify(v)}`)
    .join(", ");
