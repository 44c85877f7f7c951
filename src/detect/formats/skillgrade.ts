import { posix } from "node:path";
import type { Assertion, Case, CaseFile } from "../../model/index.js";
import type { PathSegment, SourceFile } from "../source-file.js";
import type { SuiteReader } from "../suite-context.js";
import { notGraded, warnUnknownKeys } from "./not-graded.js";
import type { SuiteDraft } from "./types.js";
import { scenarioId } from "./waza-scenarios.js";

type Raw = Record<string, unknown>;
const isObject = (v: unknown): v is Raw => !!v && typeof v === "object" && !Array.isArray(v);

/** Top-level keys of skillgrade's `eval.yaml` (its config loader reads these). */
const TOP_KEYS = new Set(["version", "skill", "defaults", "tasks"]);
/** Keys of a skillgrade task; run settings among them come from skillgate's own configuration. */
const TASK_KEYS = new Set([
  "name",
  "instruction",
  "workspace",
  "graders",
  "solution",
  "agent",
  "provider",
  "trials",
  "timeout",
  "docker",
  "trialConfig",
  "env",
  "environment",
  "agentWorkingDir",
  "grader_model",
]);

/**
 * Whether an `eval.yaml` is skillgrade's (mgechev/skillgrade): `defaults:` at the top, or tasks written with an
 * `instruction` (waza's tasks have `prompt` / `inputs.prompt`). Read by that shape, never as a broken waza file.
 */
export function isSkillgradeEval(spec: Raw): boolean {
  return (
    isObject(spec.defaults) ||
    (Array.isArray(spec.tasks) && spec.tasks.some((t) => isObject(t) && "instruction" in t))
  );
}

/**
 * skillgrade's `eval.yaml`, read as skillgrade reads it: each task's `instruction` (inline, or a file beside
 * eval.yaml when it is one line naming one) is the prompt, `workspace` files are copied, `llm_rubric` graders
 * (inline or a file) are judge checks. `deterministic` graders run a script in skillgrade's container and
 * `tool_usage` counts another harness's tools: "not graded" notices, and the rest of the task runs.
 */
export function loadSkillgrade(reader: SuiteReader, src: SourceFile, root: string, draft: SuiteDraft): void {
  const spec = src.value as Raw;
  warnUnknownKeys(reader, src, spec, [], TOP_KEYS, "is not a key of skillgrade's eval.yaml");
  const defaults = isObject(spec.defaults) ? spec.defaults : {};
  if (defaults.trialConfig !== undefined)
    notGraded(reader, src, ["defaults", "trialConfig"], "`trialConfig` (setup commands skillgrade runs)");
  const shared = workspaceFiles(reader, src, defaults.workspace, ["defaults", "workspace"], root);
  if (!Array.isArray(spec.tasks)) {
    reader.notice(src.locate([]), "suite/not-read", "eval.yaml has no `tasks` list: no case is read from it");
    return;
  }
  spec.tasks.forEach((t, i) => {
    const part = { part: "case" as const, caseId: taskId(t, i) };
    const { value: c, ok } = reader.withinPart(part, () =>
      loadTask(reader, src, t, ["tasks", i], part.caseId, root, shared),
    );
    if (c && ok) draft.cases.push(c);
  });
}

function taskId(t: unknown, i: number): string {
  const name = isObject(t) && typeof t.name === "string" ? t.name : "";
  return /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/.test(name) ? name : scenarioId(t, i);
}

function loadTask(
  reader: SuiteReader,
  src: SourceFile,
  t: unknown,
  at: PathSegment[],
  id: string,
  root: string,
  shared: CaseFile[],
): Case | undefined {
  if (isObject(t) && t.conversation !== undefined && t.instruction === undefined) {
    // The multi-turn fork's `conversation:` (an opener, scripted replies, a persona): one prompt cannot stand in.
    notGraded(reader, src, [...at, "conversation"], "a multi-turn `conversation`");
    return undefined;
  }
  if (
    !isObject(t) ||
    typeof t.name !== "string" ||
    typeof t.instruction !== "string" ||
    t.instruction.trim() === ""
  ) {
    reader.error(
      src.locate(at),
      "suite/skillgrade-task",
      "a skillgrade task needs a `name` and an `instruction` (skillgrade rejects it otherwise)",
    );
    return undefined;
  }
  warnUnknownKeys(reader, src, t, at, TASK_KEYS, "is not a key of a skillgrade task");
  if (t.trialConfig !== undefined)
    notGraded(reader, src, [...at, "trialConfig"], "`trialConfig` (setup commands skillgrade runs)");
  const assertions: Assertion[] = [];
  (Array.isArray(t.graders) ? t.graders : []).forEach((g, j) => {
    const path = [...at, "graders", j];
    const rubric =
      isObject(g) && g.type === "llm_rubric" && typeof g.rubric === "string" ? g.rubric : undefined;
    if (rubric === undefined || rubric.trim() === "") {
      notGraded(
        reader,
        src,
        path,
        `grader${isObject(g) && typeof g.type === "string" ? ` \`${g.type}\`` : ""}`,
      );
      return;
    }
    const text = fileOrInline(reader, rubric, root);
    const x = reader.assertion({ id: `rubric-${j + 1}`, type: "judge", value: text }, src, path, {
      foreign: true,
    });
    if (x) assertions.push({ ...x, loc: src.locate(path) });
  });
  const own = workspaceFiles(reader, src, t.workspace, [...at, "workspace"], root);
  // A task's file replaces the default copied to the same place, as skillgrade merges them.
  const files = [...shared.filter((f) => !own.some((o) => o.to === f.to)), ...own];
  const c: Case = {
    id,
    prompt: fileOrInline(reader, t.instruction, root),
    files,
    assertions,
    vars: {},
    loc: src.locate(at),
    literal: true,
  };
  return reader.checkCase(c, "`graders` of type `llm_rubric`") ? c : undefined;
}

/**
 * skillgrade's `resolveFileOrInline`: one line naming a file beside eval.yaml is that file's text; anything else
 * (several lines, no such file) is the text itself.
 */
function fileOrInline(reader: SuiteReader, value: string, root: string): string {
  const trimmed = value.trim();
  if (trimmed.includes("\n")) return trimmed;
  const rel = posix.normalize(posix.join(root, trimmed));
  if (!reader.inside(rel, root) || !reader.exists(rel) || reader.isDir(rel)) return trimmed;
  return reader.readText(rel)?.trim() ?? trimmed;
}

/**
 * Workspace mappings (`{src, dest}`, or a path copied under its own name), as skillgate case files. A file put
 * outside the workspace (`dest: /usr/local/bin/x`), one taken from outside the suite folder, or `content` written
 * inline is a "not graded" notice: skillgate copies files of the suite folder into the workspace only.
 */
export function workspaceFiles(
  reader: SuiteReader,
  src: SourceFile,
  raw: unknown,
  path: PathSegment[],
  root: string,
): CaseFile[] {
  if (!Array.isArray(raw)) return [];
  const out: CaseFile[] = [];
  raw.forEach((w, i) => {
    const from = typeof w === "string" ? w : isObject(w) && typeof w.src === "string" ? w.src : undefined;
    const to =
      typeof w === "string"
        ? posix.basename(w)
        : isObject(w) && typeof w.dest === "string"
          ? w.dest
          : undefined;
    const at = [...path, i];
    if (from === undefined || to === undefined) {
      notGraded(reader, src, at, "a workspace file written inline (`content`)");
      return;
    }
    const rel = posix.normalize(posix.join(root, from));
    if (to.startsWith("/") || posix.normalize(to).startsWith("..")) {
      notGraded(reader, src, at, `a file installed outside the workspace (\`${to}\`)`);
      return;
    }
    if (from.startsWith("/") || !reader.inside(rel, root)) {
      notGraded(reader, src, at, `a file from outside the suite folder (\`${from}\`)`);
      return;
    }
    out.push(...reader.caseFiles([{ from, to }], root, src, at));
  });
  return out;
}
