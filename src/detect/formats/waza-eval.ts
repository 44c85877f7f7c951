import { posix } from "node:path";
import picomatch from "picomatch";
import type { Assertion, Case } from "../../model/index.js";
import { wazaEvalSchema, wazaTaskSchema } from "../schemas.js";
import type { PathSegment, SourceFile } from "../source-file.js";
import type { SuiteReader } from "../suite-context.js";
import type { SuiteDraft } from "./types.js";

export const WAZA_EVAL_FILES = ["eval.yaml", "eval.yml"];

/** waza `expected` keys skillgate grades, and the assertion each becomes. */
const EXPECTED: Record<string, string> = { output_contains: "contains", output_not_contains: "not-contains" };
/** waza `text` grader keys skillgate grades. */
const TEXT_GRADER: Record<string, string> = { regex_match: "regex", regex_not_match: "not-regex" };

/**
 * microsoft/waza `eval.yaml`: its tasks (`tasks: ["tasks/*.yaml"]`, each with `inputs.prompt`) become cases.
 * What maps onto skillgate's assertions is graded: `expected.output_contains` / `output_not_contains`, and
 * `text` graders' `regex_match` / `regex_not_match` (global graders apply to every task). Every other grader
 * and expectation (waza's `code` graders run Python, `prompt` graders a model) is a warning at its line: it
 * is not evaluated here. A task left with no check is an error, as any case with none.
 */
export function loadWazaEval(reader: SuiteReader, root: string, draft: SuiteDraft): void {
  for (const name of WAZA_EVAL_FILES) {
    const file = posix.join(root, name);
    if (!reader.exists(file)) continue;
    const src = reader.read(file);
    if (!src || !reader.validate(wazaEvalSchema, src.value, src, [], "suite/waza-eval")) continue;
    const spec = src.value as { graders?: unknown[]; tasks?: string[] };
    const global = graders(reader, src, spec.graders, ["graders"], "suite");
    for (const taskFile of taskFiles(reader, root, spec.tasks ?? [])) {
      const task = reader.read(taskFile);
      if (!task || !reader.validate(wazaTaskSchema, task.value, task, [], "suite/waza-task")) continue;
      const t = task.value as {
        id?: string;
        inputs: { prompt: string };
        expected?: Record<string, unknown>;
        graders?: unknown[];
      };
      const assertions: Assertion[] = [];
      for (const [key, value] of Object.entries(t.expected ?? {})) {
        const type = EXPECTED[key];
        if (!type) {
          reader.warn(
            task.locateKey(["expected", key]),
            "suite/waza-not-graded",
            `waza expectation \`${key}\` is not graded by skillgate`,
          );
          continue;
        }
        [value].flat().forEach((v, i) => {
          const path = ["expected", key, ...(Array.isArray(value) ? [i] : [])];
          const a = reader.assertion({ id: `${key}-${i + 1}`, type, value: String(v) }, task, path);
          if (a) assertions.push({ ...a, loc: task.locate(path) });
        });
      }
      assertions.push(...graders(reader, task, t.graders, ["graders"], "task"), ...global);
      const c: Case = {
        id: t.id ?? posix.basename(taskFile).replace(/\.ya?ml$/i, ""),
        prompt: t.inputs.prompt,
        files: [],
        assertions,
        vars: {},
        loc: task.locate([]),
      };
      reader.checkCase(c);
      draft.cases.push(c);
    }
  }
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

/** waza graders as assertions: `text` graders' regular expressions; any other grader is a located warning. */
function graders(
  reader: SuiteReader,
  src: SourceFile,
  list: unknown[] | undefined,
  at: PathSegment[],
  scope: string,
): Assertion[] {
  const out: Assertion[] = [];
  (list ?? []).forEach((g, i) => {
    const grader = g as { type?: string; name?: string; config?: Record<string, unknown> };
    const path = [...at, i];
    if (grader.type !== "text") {
      reader.warn(
        src.locate([...path, "type"]),
        "suite/waza-not-graded",
        `waza grader \`${grader.name ?? i}\` of type \`${grader.type}\` is not run by skillgate`,
      );
      return;
    }
    for (const [key, value] of Object.entries(grader.config ?? {})) {
      const type = TEXT_GRADER[key];
      if (!type) {
        reader.warn(
          src.locateKey([...path, "config", key]),
          "suite/waza-not-graded",
          `waza text grader key \`${key}\` is not graded by skillgate`,
        );
        continue;
      }
      [value].flat().forEach((v, j) => {
        const vPath = [...path, "config", key, ...(Array.isArray(value) ? [j] : [])];
        const id = `${scope}-${grader.name ?? `grader-${i + 1}`}-${key}-${j + 1}`.replace(/[\s/]+/g, "-");
        const a = reader.assertion({ id, type, value: String(v) }, src, vPath);
        if (a) out.push({ ...a, loc: src.locate(vPath) });
      });
    }
  });
  return out;
}
