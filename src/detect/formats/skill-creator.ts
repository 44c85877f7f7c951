import { posix } from "node:path";
import type { Assertion, Case, TriggerQuery } from "../../model/index.js";
import type { PathSegment, SourceFile } from "../source-file.js";
import type { SuiteReader } from "../suite-context.js";
import { warnUnknownKeys } from "./not-graded.js";
import type { SuiteDraft, SuiteFormatLoader } from "./types.js";

/**
 * skill-creator's trigger sets have no fixed file name (`trigger-eval.json`, `trigger_eval_set.json`,
 * `eval_set.json` …): a JSON file of a suite folder whose name says "trigger" or "eval set" is read by its content.
 */
export const TRIGGER_FILE = /^[^/]*(trigger|eval[-_]?set)[^/]*\.json$/i;
/** The seed layout's trigger file: its object form (`shouldFire`, `shouldNotFire`) is the seed loader's. */
const SEED_TRIGGER_FILE = "trigger-eval.json";

/** Keys of an `evals[]` entry skill-creator reads or writes itself (`eval_name` in its eval_metadata.json). */
const EVAL_KEYS = new Set([
  "id",
  "prompt",
  "expected_output",
  "files",
  "expectations",
  "assertions",
  "name",
  "eval_name",
  "eval_id",
  "description",
]);
const TOP_KEYS = new Set(["$schema", "skill_name", "evals"]);

/**
 * Anthropic skill-creator: `evals.json` (natural-language expectations) and `[{query, should_trigger}]`. Read as
 * skill-creator reads them: its runner and grader look at the keys they know and pass over the rest, so an
 * unknown key is a located warning, never an error; a broken entry is an error of that case alone.
 */
export const skillCreatorFormat: SuiteFormatLoader = {
  format: "skill-creator",
  detect(reader, root) {
    // A trigger file in the object form (`trigger-eval.json` of the seed layout) is the seed loader's.
    return reader.exists(posix.join(root, "evals.json")) || triggerFiles(reader, root).length > 0;
  },
  load(reader, root, draft) {
    const evalsFile = posix.join(root, "evals.json");
    if (reader.exists(evalsFile)) loadEvalsFile(reader, evalsFile, root, draft);
    for (const file of triggerFiles(reader, root)) loadTriggerFile(reader, file, draft);
  },
};

/** The trigger files of a suite folder that are not the seed layout's own (its object-form trigger-eval.json). */
function triggerFiles(reader: SuiteReader, root: string): string[] {
  return reader
    .list(root, TRIGGER_FILE)
    .filter((f) => posix.basename(f) !== SEED_TRIGGER_FILE || !seedOwnsTriggerFile(reader, f));
}

/** The seed layout's keys, and the placeholders `skillgate init` writes for them. */
const SEED_TRIGGER_KEY = /^(TODO-)?should(Not)?Fire$/;

/**
 * Whether a `trigger-eval.json` is the seed layout's, checked strictly (a wrong key is an error): one that does not
 * parse, one with `shouldFire` / `shouldNotFire`, or an object with no trigger lists in a seed suite folder (beside
 * `meta.json` or `prompts/`, where a misspelt key is ours to report). Any other shape is another tool's file under
 * the same name, read by its shape or named, never an error.
 */
export function seedOwnsTriggerFile(reader: SuiteReader, file: string): boolean {
  const src = reader.read(file);
  if (!src) return true;
  const v = src.value;
  if (!v || typeof v !== "object" || Array.isArray(v)) return false;
  const o = v as Record<string, unknown>;
  if (Object.keys(o).some((k) => SEED_TRIGGER_KEY.test(k))) return true;
  if (Object.values(o).some((x) => Array.isArray(x) && x.length > 0 && x.every(isTriggerItem))) return false;
  const dir = posix.dirname(file);
  return reader.exists(posix.join(dir, "meta.json")) || reader.isDir(posix.join(dir, "prompts"));
}

/**
 * A trigger file of another tool, read by its shape: skill-creator's array `[{query, should_trigger}]`, or an
 * object holding such lists under keys of its own (`{skill_name, queries: [...]}`). A file of neither shape is
 * not a trigger set: one located notice, never an error, as it is no file skillgate's formats define.
 */
export function loadTriggerFile(reader: SuiteReader, file: string, draft: SuiteDraft): void {
  const src = reader.withinPart({ part: "trigger" }, () => reader.read(file)).value;
  if (!src) return;
  const v = src.value;
  if (Array.isArray(v) && v.some(isTriggerItem)) {
    reader.withinPart({ part: "trigger" }, () => loadTriggerArray(reader, src, [], draft));
    return;
  }
  const o = v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  const lists = Object.keys(o).filter(
    (k) => Array.isArray(o[k]) && (o[k] as unknown[]).length > 0 && (o[k] as unknown[]).every(isTriggerItem),
  );
  for (const key of lists)
    reader.withinPart({ part: "trigger" }, () => loadTriggerArray(reader, src, [key], draft));
  if (lists.length === 0)
    reader.notice(
      src.locate([]),
      "suite/not-read",
      "not read: no trigger queries in a shape skillgate knows (skill-creator's `[{query, should_trigger}]`, or the seed layout's `{shouldFire, shouldNotFire}` in trigger-eval.json); nothing in this file is gated",
    );
}

function loadEvalsFile(reader: SuiteReader, file: string, root: string, draft: SuiteDraft): void {
  // A file that does not parse takes its cases with it, nothing else.
  const src = reader.withinPart({ part: "case" }, () => reader.read(file)).value;
  if (!src) return;
  const v = src.value;
  if (Array.isArray(v)) {
    // A trigger set saved as evals.json (the array form of run_eval.py's --eval-set).
    reader.withinPart({ part: "trigger" }, () => loadTriggerArray(reader, src, [], draft));
    return;
  }
  if (!v || typeof v !== "object") {
    reader.withinPart({ part: "case" }, () =>
      reader.error(
        src.locate([]),
        "suite/skill-creator-evals",
        "evals.json must be an object with an `evals` list",
      ),
    );
    return;
  }
  const o = v as Record<string, unknown>;
  if (!Array.isArray(o.evals)) {
    // No `evals`: lists of trigger queries under another key are read as a trigger set; anything else is not
    // skill-creator's format, said once and not read.
    const lists = Object.keys(o).filter(
      (k) => Array.isArray(o[k]) && (o[k] as unknown[]).every(isTriggerItem),
    );
    for (const key of lists)
      reader.withinPart({ part: "trigger" }, () => loadTriggerArray(reader, src, [key], draft));
    const rest = Object.keys(o).filter((k) => !lists.includes(k) && !TOP_KEYS.has(k));
    if (lists.length === 0 || rest.length > 0)
      reader.notice(
        src.locate([]),
        "suite/not-read",
        `not graded: ${lists.length === 0 ? "no `evals` list (skill-creator's format) and no trigger queries" : `\`${rest.join("`, `")}\``} in this evals.json; skillgate reads \`evals\` entries and \`[{query, should_trigger}]\` lists`,
      );
    return;
  }
  warnUnknownKeys(reader, src, o, [], TOP_KEYS, "is not a key of skill-creator's evals.json");
  if (o.evals.length > 0 && o.evals.every(isTriggerItem)) {
    // Entries that are all trigger queries (`input` or `query`, `should_trigger`): a trigger set, as the
    // eval runners that write them read it (richfrem's eval_runner.py reads prompt, query or input).
    reader.withinPart({ part: "trigger" }, () => loadTriggerArray(reader, src, ["evals"], draft));
    return;
  }
  (o.evals as unknown[]).forEach((e, i) => {
    const part = { part: "case" as const, caseId: caseId(e, i) };
    const { value: c, ok } = reader.withinPart(part, () => loadEval(reader, src, e, i, root, draft));
    if (c && ok) draft.cases.push(c);
  });
}

function caseId(e: unknown, i: number): string {
  const id = e && typeof e === "object" ? (e as { id?: unknown }).id : undefined;
  if (typeof id === "number" || (typeof id === "string" && /^\d+$/.test(id))) return `eval-${id}`;
  if (typeof id === "string" && /^[A-Za-z0-9][A-Za-z0-9._:-]*$/.test(id)) return id;
  return `eval-${i + 1}`;
}

function loadEval(
  reader: SuiteReader,
  src: SourceFile,
  e: unknown,
  i: number,
  root: string,
  draft: SuiteDraft,
): Case | undefined {
  const at = ["evals", i];
  if (!e || typeof e !== "object" || Array.isArray(e)) {
    reader.error(
      src.locate(at),
      "suite/skill-creator-evals",
      `evals[${i}] must be an object with a \`prompt\``,
    );
    return undefined;
  }
  const o = e as Record<string, unknown>;
  if (typeof o.prompt !== "string" || o.prompt.trim() === "") {
    reader.error(
      src.locate(o.prompt === undefined ? at : [...at, "prompt"]),
      "suite/skill-creator-evals",
      `evals[${i}] has no \`prompt\` (a non-empty string): this case cannot run`,
    );
    return undefined;
  }
  const id = caseId(e, i);
  if (o.id !== undefined && id === `eval-${i + 1}` && String(o.id) !== String(i + 1))
    reader.warn(
      src.locate([...at, "id"]),
      "suite/skill-creator-id",
      `id is not a number or a name: read as \`${id}\``,
    );
  for (const key of Object.keys(o))
    if (!EVAL_KEYS.has(key))
      reader.warn(
        src.locateKey([...at, key]),
        "suite/not-graded",
        `\`${key}\` is not read by skill-creator's grader: not graded`,
      );
  const assertions: Assertion[] = [];
  for (const key of ["expectations", "assertions"] as const) {
    const list = o[key];
    if (list === undefined) continue;
    if (!Array.isArray(list)) {
      reader.error(src.locate([...at, key]), "suite/skill-creator-evals", `\`${key}\` must be a list`);
      continue;
    }
    list.forEach((x, j) => {
      const a = expectation(reader, src, [...at, key, j], x, assertions.length + 1);
      if (a) assertions.push(a);
    });
  }
  const c: Case = {
    id,
    prompt: o.prompt,
    // skill-creator's paths are relative to the skill folder (`evals/files/x.pdf`); a suite kept elsewhere
    // (`evals/evals.json` at the repository root) resolves them from the folder above it.
    files: filesOf(reader, src, o.files, [...at, "files"], filesBase(root, draft.skillDir)),
    assertions,
    vars: {},
    loc: src.locate(at),
    literal: true,
  };
  return reader.checkCase(c, "`expectations` (natural-language checks a judge grades) or `assertions`")
    ? c
    : undefined;
}

/** One entry of `expectations` / `assertions`: a sentence is a judge check, an object with `type` one of ours. */
function expectation(
  reader: SuiteReader,
  src: SourceFile,
  path: PathSegment[],
  x: unknown,
  n: number,
): Assertion | undefined {
  const text =
    typeof x === "string"
      ? x
      : x && typeof x === "object" && !("type" in x)
        ? ["text", "check", "description", "expectation"]
            .map((k) => (x as Record<string, unknown>)[k])
            .find((t): t is string => typeof t === "string")
        : undefined;
  if (x && typeof x === "object" && "type" in x) return typedCheck(reader, src, path, x, n);
  if (text === undefined || text.trim() === "") {
    reader.warn(src.locate(path), "suite/not-graded", "expectation with no text: not graded");
    return undefined;
  }
  // A natural-language check: graded by the configured judge, never implied.
  const a = reader.assertion({ id: `expectation-${n}`, type: "judge", value: text }, src, path, {
    foreign: true,
  });
  return a && { ...a, loc: src.locate(path) };
}

/**
 * An object with a `type`: with an `id` it is written as skillgate's assertion (strict); without one it is the
 * file's own check (`{type, value, description}`, a convention of some forks), read as another tool's: an id of
 * its place, and a type skillgate lacks (`regex_match`) a "not graded" notice at its line, never an error.
 */
function typedCheck(
  reader: SuiteReader,
  src: SourceFile,
  path: PathSegment[],
  x: object,
  n: number,
): Assertion | undefined {
  if ("id" in x) return reader.assertion(x, src, path);
  const o = x as Record<string, unknown>;
  if (typeof o.type !== "string" || !reader.knowsAssertionType(o.type)) {
    reader.notice(
      src.locate(path),
      "suite/not-graded",
      `not graded: a check of type \`${String(o.type)}\` has no skillgate equivalent`,
    );
    return undefined;
  }
  const a = reader.assertion({ ...o, id: `assertion-${n}` }, src, path, { foreign: true });
  return a && { ...a, loc: src.locate(path) };
}

function filesOf(reader: SuiteReader, src: SourceFile, raw: unknown, path: PathSegment[], base: string) {
  if (raw === undefined) return [];
  if (!Array.isArray(raw) || raw.some((f) => typeof f !== "string" || f === "")) {
    reader.error(src.locate(path), "suite/skill-creator-evals", "`files` must be a list of paths");
    return [];
  }
  return reader.caseFiles(raw, base, src, path);
}

/** Where a trigger query's text is: run_eval.py's `query`, else `prompt` or `input` (forks and other runners). */
const QUERY_KEYS = ["query", "prompt", "input"] as const;
/** Keys only a case has: an entry holding one is a case, whatever else it says. */
const CASE_ONLY_KEYS = ["expectations", "assertions", "expected_output", "files"];

export function isTriggerItem(q: unknown): boolean {
  if (!q || typeof q !== "object" || Array.isArray(q)) return false;
  const o = q as Record<string, unknown>;
  return (
    typeof o.should_trigger === "boolean" &&
    !CASE_ONLY_KEYS.some((k) => k in o) &&
    QUERY_KEYS.some((k) => typeof o[k] === "string")
  );
}

/**
 * `[{query, should_trigger}]` at `at` in `src`. run_eval.py reads `query` and `should_trigger` and passes over
 * every other key (`rationale`, `category` …): one warning per unknown key, at its first use. `prompt` for
 * `query` (forks of skill-creator accept either) is read, with a warning.
 */
function loadTriggerArray(reader: SuiteReader, src: SourceFile, at: PathSegment[], draft: SuiteDraft): void {
  const list = (
    at.length === 0 ? src.value : (src.value as Record<string, unknown>)[at[0] as string]
  ) as unknown[];
  const fire: TriggerQuery[] = [];
  const noFire: TriggerQuery[] = [];
  const warned = new Set<string>();
  list.forEach((q, i) => {
    const path = [...at, i];
    const o = q && typeof q === "object" && !Array.isArray(q) ? (q as Record<string, unknown>) : undefined;
    const key = QUERY_KEYS.find((k) => typeof o?.[k] === "string");
    const query = key && (o![key] as string);
    if (!o || query === undefined || query.trim() === "" || typeof o.should_trigger !== "boolean") {
      reader.error(
        src.locate(path),
        "suite/skill-creator-trigger",
        "a trigger query needs `query` (a non-empty string) and `should_trigger` (true or false)",
      );
      return;
    }
    for (const k of Object.keys(o)) {
      if (k === "query" || k === "should_trigger" || warned.has(k)) continue;
      warned.add(k);
      reader.warn(
        src.locateKey([...path, k]),
        k === key ? "suite/trigger-prompt-key" : "suite/unknown-key",
        k === key
          ? `\`${k}\` read as the query (skill-creator's run_eval.py reads \`query\`)`
          : `\`${k}\` is not read by skill-creator's run_eval.py: ignored (reported once per file)`,
      );
    }
    (o.should_trigger ? fire : noFire).push({ prompt: query, weight: 1, loc: src.locate(path) });
  });
  addTriggers(draft, fire, noFire, src.locate(at));
}

function filesBase(root: string, skillDir: string): string {
  if (skillDir === "." || root === skillDir || root.startsWith(`${skillDir}/`)) return skillDir;
  return posix.dirname(root);
}

export function addTriggers(
  draft: SuiteDraft,
  fire: TriggerQuery[],
  noFire: TriggerQuery[],
  loc: TriggerQuery["loc"],
): void {
  if (!draft.trigger) draft.trigger = { shouldFire: [], shouldNotFire: [], loc };
  draft.trigger.shouldFire.push(...fire);
  draft.trigger.shouldNotFire.push(...noFire);
}
