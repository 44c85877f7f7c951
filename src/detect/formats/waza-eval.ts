import { posix } from "node:path";
import picomatch from "picomatch";
import type { Assertion, Case, CaseFile } from "../../model/index.js";
import type { PathSegment, SourceFile } from "../source-file.js";
import type { SuiteReader } from "../suite-context.js";
import { notGraded, warnUnknownKeys } from "./not-graded.js";
import { isSkillgradeEval, loadSkillgrade } from "./skillgrade.js";
import type { SuiteDraft } from "./types.js";
import { loadVally } from "./vally.js";
import { loadScenarios } from "./waza-scenarios.js";

/** waza's names, and Vally's (dotnet/skills keeps `eval.vally.yaml`, for a while beside an older `eval.yaml`). */
export const WAZA_EVAL_FILES = ["eval.yaml", "eval.yml", "eval.vally.yaml"];
const VALLY_FILE = "eval.vally.yaml";

/**
 * Keys of waza's `eval.yaml` (its published schema), and of the older dialect its own repository still writes
 * (`executor`, `model` at the top, tasks inline).
 */
const EVAL_KEYS = new Set([
  "$schema",
  "name",
  "description",
  "skill",
  "version",
  "schemaVersion",
  "agent",
  "config",
  "hooks",
  "inputs",
  "tasks_from",
  "range",
  "graders",
  "metrics",
  "tasks",
  "baseline",
  "executor",
  "model",
  "maxTokens",
  "validators",
]);
/** Keys of a waza task (file or inline). */
const TASK_KEYS = new Set([
  "id",
  "name",
  "description",
  "enabled",
  "context_dir",
  "timeout_seconds",
  "tags",
  "inputs",
  "expected",
  "graders",
  "validators",
  "prompt",
  "expectedOutput",
  "fixture",
]);

type Raw = Record<string, unknown>;
const isObject = (v: unknown): v is Raw => !!v && typeof v === "object" && !Array.isArray(v);

/**
 * waza `eval.yaml` read as waza reads it: tasks from the `tasks` globs (each file's `inputs.prompt`) or written
 * inline (`id`, `prompt`, `expected`, `validators`), global `graders` on every task. What maps onto skillgate's
 * assertions is graded (`docs/formats.md` lists the mapping); what does not (code graders run Python, behaviour
 * limits, tool names of another harness) is a located "not graded" notice, and the rest of the task runs.
 * Unknown keys are warnings. A file with `scenarios:` is the dotnet/skills dialect (`waza-scenarios.ts`).
 */
export function loadWazaEval(reader: SuiteReader, root: string, draft: SuiteDraft): void {
  for (const name of WAZA_EVAL_FILES) {
    const file = posix.join(root, name);
    if (!reader.exists(file)) continue;
    const older = WAZA_EVAL_FILES.filter((n) => n !== VALLY_FILE && reader.exists(posix.join(root, n)));
    if (name === VALLY_FILE && older.length > 0) {
      // The same stimuli twice would be every case twice: the eval.yaml beside it is read, this one named.
      reader.notice(
        { file, line: 1, column: 1 },
        "suite/not-read",
        `not read: ${older.join(" and ")} beside it is read as this folder's suite (a second file of the same cases would run each twice)`,
      );
      continue;
    }
    const src = reader.withinPart({ part: "case" }, () => reader.read(file)).value;
    if (!src) continue;
    if (!isObject(src.value)) {
      reader.withinPart({ part: "case" }, () =>
        reader.error(
          src.locate([]),
          "suite/waza-eval",
          `${name} must be a mapping (waza's eval specification)`,
        ),
      );
      continue;
    }
    const spec = src.value;
    if (Array.isArray(spec.scenarios)) {
      loadScenarios(reader, src, draft);
      continue;
    }
    // Other tools' files under waza's name, told by their shape: Vally's `stimuli`, skillgrade's `instruction`s.
    if (Array.isArray(spec.stimuli)) {
      loadVally(reader, src, root, draft);
      continue;
    }
    if (isSkillgradeEval(spec)) {
      loadSkillgrade(reader, src, root, draft);
      continue;
    }
    warnUnknownKeys(reader, src, spec, [], EVAL_KEYS, "is not a key of waza's eval.yaml");
    if (spec.tasks_from !== undefined)
      reader.notice(
        src.locateKey(["tasks_from"]),
        "suite/not-read",
        "`tasks_from` is not read: list the task files in `tasks`",
      );
    const global = [
      ...graders(reader, src, spec.graders, ["graders"], "suite"),
      ...graders(reader, src, spec.validators, ["validators"], "suite"),
    ];
    if (!Array.isArray(spec.tasks)) {
      reader.notice(
        src.locate([]),
        "suite/not-read",
        `${name} has no \`tasks\` list: no case is read from it`,
      );
      continue;
    }
    spec.tasks.forEach((t, i) => {
      if (typeof t === "string") {
        for (const taskFile of taskFiles(reader, root, [t])) {
          const part = { part: "case" as const, caseId: posix.basename(taskFile).replace(/\.ya?ml$/i, "") };
          const { value: c, ok } = reader.withinPart(part, () => {
            const task = reader.read(taskFile);
            return task && loadTask(reader, task, [], root, global, part);
          });
          if (c && ok) draft.cases.push(c);
        }
      } else {
        const part = { part: "case" as const, caseId: `task-${i + 1}` };
        const { value: c, ok } = reader.withinPart(part, () =>
          loadTask(reader, src, ["tasks", i], root, global, part),
        );
        if (c && ok) draft.cases.push(c);
      }
    });
  }
}

/** One waza task at `at` in `src` (a task file, or an inline entry of `tasks`). */
function loadTask(
  reader: SuiteReader,
  src: SourceFile,
  at: PathSegment[],
  root: string,
  global: Assertion[],
  part: { caseId?: string },
): Case | undefined {
  const t = at.length === 0 ? src.value : (src.value as { tasks: unknown[] }).tasks[at[1] as number];
  if (!isObject(t)) {
    reader.error(src.locate(at), "suite/waza-task", "a waza task must be a mapping with a prompt");
    return undefined;
  }
  if (t.enabled === false) {
    reader.notice(
      src.locateKey([...at, "enabled"]),
      "suite/not-read",
      "task disabled (`enabled: false`): not run, as waza skips it",
    );
    return undefined;
  }
  if (typeof t.id === "string" && t.id !== "") part.caseId = t.id;
  warnUnknownKeys(reader, src, t, at, TASK_KEYS, "is not a key of a waza task");
  const inputs = isObject(t.inputs) ? t.inputs : undefined;
  const prompt =
    typeof inputs?.prompt === "string" ? inputs.prompt : typeof t.prompt === "string" ? t.prompt : undefined;
  if (prompt === undefined || prompt.trim() === "") {
    reader.error(
      src.locate(at),
      "suite/waza-task",
      "task has no prompt (`inputs.prompt`, or `prompt` inline): it cannot run",
    );
    return undefined;
  }
  const assertions: Assertion[] = [
    ...expected(reader, src, t.expected, [...at, "expected"]),
    ...expectedOutput(reader, src, t.expectedOutput, [...at, "expectedOutput"]),
    ...graders(reader, src, t.graders, [...at, "graders"], "task"),
    ...graders(reader, src, t.validators, [...at, "validators"], "task"),
    ...global,
  ];
  const c: Case = {
    id: part.caseId!,
    prompt,
    files: [
      ...inputFiles(reader, src, inputs?.files, [...at, "inputs", "files"], root),
      ...inputFiles(
        reader,
        src,
        t.fixture === undefined ? undefined : [{ path: t.fixture }],
        [...at, "fixture"],
        root,
      ),
    ],
    assertions,
    vars: {},
    loc: src.locate(at),
    literal: true,
  };
  return reader.checkCase(c, "`graders` of type `text` (or `expected.output_contains`)") ? c : undefined;
}

/** `inputs.files` (`{path}` from the fixtures folder waza is given, else beside eval.yaml; `{content}` inline). */
function inputFiles(
  reader: SuiteReader,
  src: SourceFile,
  raw: unknown,
  path: PathSegment[],
  root: string,
): CaseFile[] {
  if (!Array.isArray(raw)) return [];
  const out: CaseFile[] = [];
  raw.forEach((f, i) => {
    const rel = isObject(f) && typeof f.path === "string" ? f.path : typeof f === "string" ? f : undefined;
    if (rel === undefined) {
      reader.notice(
        src.locate([...path, i]),
        "suite/not-read",
        "inline file content is not copied into the workspace",
      );
      return;
    }
    const from = ["fixtures", "."]
      .map((d) => posix.normalize(posix.join(d, rel)))
      .find((p) => reader.exists(posix.join(root, p)));
    if (from === undefined) {
      reader.notice(
        src.locate([...path, i]),
        "suite/not-read",
        `file \`${rel}\` not found in ${root}/fixtures/ or ${root}/: not copied (waza takes it from --context-dir)`,
      );
      return;
    }
    out.push(...reader.caseFiles([{ from, to: rel }], root, src, [...path, i]));
  });
  return out;
}

/** waza `expected`: a mapping of checks, or (the inline dialect) a sentence, which a judge grades. */
function expected(reader: SuiteReader, src: SourceFile, raw: unknown, at: PathSegment[]): Assertion[] {
  if (raw === undefined) return [];
  if (typeof raw === "string") return judge(reader, src, at, raw, "expected");
  if (!isObject(raw)) {
    reader.notice(
      src.locate(at),
      "suite/not-graded",
      "not graded: `expected` is neither a mapping nor a sentence",
    );
    return [];
  }
  const out: Assertion[] = [];
  for (const [key, value] of Object.entries(raw)) {
    const path = [...at, key];
    const list = [value].flat().map(String);
    if (key === "output_contains" || key === "output_not_contains") {
      const type = key === "output_contains" ? "contains" : "not-contains";
      list.forEach((v, i) => {
        const p = Array.isArray(value) ? [...path, i] : path;
        out.push(...mapped(reader, src, p, { id: `${key}-${i + 1}`, type, value: v }));
      });
    } else if (key === "output_contains_any" && list.length > 0) {
      // At least one of them: one regular expression of the escaped alternatives.
      const value = `(?:${list.map((v) => v.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|")})`;
      out.push(...mapped(reader, src, path, { id: key, type: "regex", value, syntax: "re2" }));
    } else notGraded(reader, src, path, `waza expectation \`${key}\``);
  }
  return out;
}

/** The `expectedOutput` list of waza's guide: `{contains: x}`, `{regex: y}`, `{type: contains|regex|text, value}`. */
function expectedOutput(reader: SuiteReader, src: SourceFile, raw: unknown, at: PathSegment[]): Assertion[] {
  if (!Array.isArray(raw)) return [];
  return raw.flatMap((e, i) => {
    const path = [...at, i];
    const o = isObject(e) ? e : {};
    const kind =
      typeof o.type === "string" ? o.type : ["contains", "regex"].find((k) => typeof o[k] === "string");
    const value = typeof o.value === "string" ? o.value : kind ? o[kind] : undefined;
    if (typeof value !== "string" || !kind || !["contains", "regex", "text"].includes(kind))
      return notGraded(reader, src, path, "this `expectedOutput` entry");
    return mapped(reader, src, path, {
      id: `expected-output-${i + 1}`,
      ...(kind === "contains" ? { type: "icontains" } : { type: "regex", syntax: "re2" }),
      value,
    });
  });
}

/** waza `text` grader keys, and those of the older `regex` / `keyword` graders, with the assertion each becomes. */
const TEXT_KEYS: Record<string, string> = {
  contains: "icontains",
  not_contains: "not-icontains",
  contains_cs: "contains",
  not_contains_cs: "not-contains",
  regex_match: "regex",
  regex_not_match: "not-regex",
  must_match: "regex",
  must_not_match: "not-regex",
  must_contain: "icontains",
  must_not_contain: "not-icontains",
};
/** Grader types skillgate reads the config of; `prompt`/`llm` graders become a judge check of their rubric. */
const TEXT_GRADERS = new Set(["text", "regex", "keyword"]);
const JUDGE_GRADERS = new Set(["prompt", "llm"]);

/** waza graders (or the inline dialect's validators) as assertions; the rest are "not graded" notices. */
function graders(
  reader: SuiteReader,
  src: SourceFile,
  list: unknown,
  at: PathSegment[],
  scope: string,
): Assertion[] {
  if (list === undefined) return [];
  if (!Array.isArray(list)) return notGraded(reader, src, at, `\`${at[at.length - 1]}\` (not a list)`);
  return list.flatMap((g, i) => {
    const path = [...at, i];
    const grader = isObject(g) ? g : {};
    const type = typeof grader.type === "string" ? grader.type : undefined;
    const name = typeof grader.name === "string" ? grader.name : `grader-${i + 1}`;
    const idBase = `${scope}-${name}`.replace(/[\s/]+/g, "-");
    if (type && JUDGE_GRADERS.has(type)) {
      const config = isObject(grader.config) ? grader.config : {};
      const text = [config.prompt, grader.rubric].find(
        (x): x is string => typeof x === "string" && x.trim() !== "",
      );
      if (!text)
        return notGraded(reader, src, path, `grader \`${name}\` of type \`${type}\` (no rubric text)`);
      return judge(
        reader,
        src,
        [...path, typeof config.prompt === "string" ? "config" : "rubric"],
        text,
        idBase,
      );
    }
    if (type === "file" && isObject(grader.config))
      return fileGrader(reader, src, path, grader.config, idBase, name);
    if (type && TEXT_GRADERS.has(type) && !isObject(grader.config))
      return outsideConfig(reader, src, path, grader, name);
    if (!type || !TEXT_GRADERS.has(type) || !isObject(grader.config))
      return notGraded(reader, src, path, `grader \`${name}\`${type ? ` of type \`${type}\`` : ""}`);
    const out: Assertion[] = [];
    for (const [key, value] of Object.entries(grader.config)) {
      const assertionType = TEXT_KEYS[key];
      if (!assertionType) {
        notGraded(reader, src, [...path, "config", key], `\`${key}\` of grader \`${name}\``);
        continue;
      }
      [value].flat().forEach((v, j) => {
        const vPath = [...path, "config", key, ...(Array.isArray(value) ? [j] : [])];
        out.push(
          ...mapped(reader, src, vPath, {
            id: `${idBase}-${key}-${j + 1}`,
            type: assertionType,
            value: String(v),
            // waza compiles them with Go's regexp: RE2 syntax, graded as RE2 reads it.
            ...(assertionType.endsWith("regex") ? { syntax: "re2" } : {}),
          }),
        );
      });
    }
    return out;
  });
}

/**
 * A text grader whose checks are written beside `type` instead of under `config:`: waza reads a grader's checks
 * from `config` only, so they check nothing there. A warning at each such key, so it is not mistaken for graded.
 */
function outsideConfig(
  reader: SuiteReader,
  src: SourceFile,
  path: PathSegment[],
  grader: Raw,
  name: string,
): [] {
  const keys = Object.keys(grader).filter((k) => TEXT_KEYS[k]);
  if (keys.length === 0) return notGraded(reader, src, path, `grader \`${name}\` (no \`config\`)`) as [];
  for (const key of keys)
    reader.warn(
      src.locateKey([...path, key]),
      "suite/not-graded",
      `not graded: \`${key}\` of grader \`${name}\` is beside \`type\`, and waza reads a grader's checks under \`config:\` only; move it there`,
    );
  return [];
}

/**
 * waza's `file` grader: `must_exist` / `must_not_exist` paths become `file-exists` / `not-file-exists`; each
 * `content_patterns` regex (`must_match` or `regex_match`, `must_not_match` or `regex_not_match`) that is plain
 * text once unescaped becomes `file-contains` / `not-file-contains`; one that needs a regex (anchors, classes,
 * repeats) has no skillgate equivalent on a file's content and is a located "not graded" notice.
 */
function fileGrader(
  reader: SuiteReader,
  src: SourceFile,
  path: PathSegment[],
  config: Raw,
  idBase: string,
  name: string,
): Assertion[] {
  const out: Assertion[] = [];
  const cfg = [...path, "config"];
  for (const [key, type] of [
    ["must_exist", "file-exists"],
    ["must_not_exist", "not-file-exists"],
  ] as const)
    listAt(config[key]).forEach((p, j) => {
      const at = [...cfg, key, ...(Array.isArray(config[key]) ? [j] : [])];
      out.push(...mapped(reader, src, at, { id: `${idBase}-${key}-${j + 1}`, type, value: String(p) }));
    });
  listAt(config.content_patterns).forEach((entry, i) => {
    out.push(
      ...contentPattern(reader, src, [...cfg, "content_patterns", i], entry, `${idBase}-${i + 1}`, name),
    );
  });
  return out;
}

/** One `content_patterns` entry: `path` and its regexes, each as `fileGrader` says. */
function contentPattern(
  reader: SuiteReader,
  src: SourceFile,
  at: PathSegment[],
  entry: unknown,
  idBase: string,
  name: string,
): Assertion[] {
  const e = isObject(entry) ? entry : {};
  const file = e.path;
  if (typeof file !== "string")
    return notGraded(reader, src, at, `a content pattern of grader \`${name}\` (no \`path\`)`);
  const out: Assertion[] = [];
  for (const [key, type] of CONTENT_KEYS)
    listAt(e[key]).forEach((pattern, j) => {
      const pAt = [...at, key, ...(Array.isArray(e[key]) ? [j] : [])];
      const text = typeof pattern === "string" ? plainText(pattern) : undefined;
      if (text !== undefined)
        out.push(...mapped(reader, src, pAt, { id: `${idBase}-${key}-${j + 1}`, type, file, value: text }));
      else
        reader.notice(
          src.locate(pAt),
          "suite/not-graded",
          `not graded: the regex \`${String(pattern)}\` of content_patterns (${file}) needs a regex on a file's content, which skillgate's file-contains does not take`,
        );
    });
  return out;
}

/** content_patterns keys (waza's docs write both spellings) and what a plain-text pattern becomes. */
const CONTENT_KEYS = [
  ["must_match", "file-contains"],
  ["regex_match", "file-contains"],
  ["must_not_match", "not-file-contains"],
  ["regex_not_match", "not-file-contains"],
] as const;

const listAt = (v: unknown): unknown[] => (v === undefined ? [] : [v].flat());

/** The text a regex matches when it is plain text (escaped punctuation allowed), else undefined. */
function plainText(pattern: string): string | undefined {
  let out = "";
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i]!;
    if (ch === "\\") {
      const next = pattern[i + 1];
      if (next === undefined || /[A-Za-z0-9]/.test(next)) return undefined; // \d, \b, \1 …
      out += next;
      i++;
    } else if (".^$*+?()[]{}|".includes(ch)) return undefined;
    else out += ch;
  }
  return out === "" ? undefined : out;
}

/** A mapped check; one skillgate cannot run as written (a regex JavaScript cannot compile) is not graded. */
function mapped(reader: SuiteReader, src: SourceFile, path: PathSegment[], raw: Raw): Assertion[] {
  const a = reader.assertion(raw, src, path, { foreign: true });
  return a ? [{ ...a, loc: src.locate(path) }] : [];
}

function judge(
  reader: SuiteReader,
  src: SourceFile,
  path: PathSegment[],
  text: string,
  id: string,
): Assertion[] {
  return mapped(reader, src, path, { id: `${id}-judge`.replace(/[\s/]+/g, "-"), type: "judge", value: text });
}

/** The files a waza `tasks` list names: globs relative to the eval file's folder, each folder listed once. */
function taskFiles(reader: SuiteReader, root: string, globs: readonly string[]): string[] {
  const out = new Set<string>();
  for (const glob of globs) {
    const full = posix.normalize(posix.join(root, glob));
    const dir = posix.dirname(full);
    if (dir.startsWith("..") || !(dir === root || dir.startsWith(`${root}/`))) continue;
    const match = picomatch(posix.basename(full));
    for (const f of reader.list(dir, /\.ya?ml$/i)) if (match(posix.basename(f))) out.add(f);
  }
  return [...out].sort();
}
