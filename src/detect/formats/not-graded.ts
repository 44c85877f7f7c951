import type { Assertion } from "../../model/index.js";
import type { PathSegment, SourceFile } from "../source-file.js";
import type { SuiteReader } from "../suite-context.js";

/** A key of another tool's format that skillgate cannot grade: a located notice, no assertion. */
export function notGraded(
  reader: SuiteReader,
  src: SourceFile,
  path: PathSegment[],
  what: string,
): Assertion[] {
  reader.notice(src.locateKey(path), "suite/not-graded", `not graded: ${what} has no skillgate equivalent`);
  return [];
}

/**
 * A rubric (Vally's stimuli, waza's scenarios): each sentence a judge check `rubric-<n>`, located at its entry; an
 * empty or non-text entry is a "not graded" notice.
 */
export function rubricChecks(
  reader: SuiteReader,
  src: SourceFile,
  raw: unknown,
  at: PathSegment[],
): Assertion[] {
  const out: Assertion[] = [];
  (Array.isArray(raw) ? raw : []).forEach((r, j) => {
    const path = [...at, "rubric", j];
    if (typeof r !== "string" || r.trim() === "") {
      notGraded(reader, src, path, "this rubric entry");
      return;
    }
    const x = reader.assertion({ id: `rubric-${j + 1}`, type: "judge", value: r }, src, path, {
      foreign: true,
    });
    if (x) out.push({ ...x, loc: src.locate(path) });
  });
  return out;
}

/**
 * Keys of `value` (at `at` in `src`) a format does not read: one located `suite/unknown-key` warning each,
 * "`key` <saying>: ignored". With `once`, a set kept over one file, each key is reported once per file.
 */
export function warnUnknownKeys(
  reader: SuiteReader,
  src: SourceFile,
  value: object,
  at: PathSegment[],
  known: ReadonlySet<string>,
  saying: string,
  once?: Set<string>,
): void {
  for (const key of Object.keys(value)) {
    if (known.has(key) || once?.has(key)) continue;
    once?.add(key);
    const message = `\`${key}\` ${saying}: ignored${once ? " (reported once per file)" : ""}`;
    reader.warn(src.locateKey([...at, key]), "suite/unknown-key", message);
  }
}
