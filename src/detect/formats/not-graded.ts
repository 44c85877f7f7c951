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
