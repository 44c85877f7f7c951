import picomatch from "picomatch";
import type { AssertionOutcome } from "../../model/check.js";
import type { Assertion } from "../../model/suite.js";
import { show } from "../vars.js";
import { excerpt, missingValue, outcome, VALUE_OR_VALUES, valueList } from "./common.js";
import { allOfComparator } from "./contains.js";
import { listComparator } from "./one-of.js";
import type { AssertionContext, AssertionType } from "./registry.js";

const MAX_LISTED = 10;

function matcher(pattern: string): (p: string) => boolean {
  const norm = pattern.replace(/^\.\//, "");
  return picomatch(norm, { dot: true });
}

function listFiles(names: string[]): string {
  if (names.length === 0) return "no files";
  const shown = names.slice(0, MAX_LISTED).join(", ");
  return names.length > MAX_LISTED ? `${shown}, … (${names.length} files)` : shown;
}

/** Every path (or glob) of `value`/`values` names a file the agent wrote. */
export const fileExists: AssertionType = {
  type: "file-exists",
  level: "final-state",
  compare: listComparator(false, "required"),
  schema: {
    type: "object",
    properties: {
      value: { type: "string", minLength: 1 },
      values: { type: "array", minItems: 1, items: { type: "string", minLength: 1 } },
    },
    additionalProperties: false,
    ...VALUE_OR_VALUES,
  },
  async evaluate(a, ctx) {
    const patterns = valueList(a).map(String);
    const written = Object.keys(ctx.trial.files).sort();
    const missing = patterns.filter((p) => !written.some(matcher(p)));
    const expected = `file${patterns.length > 1 ? "s" : ""} ${patterns.map((p) => show(p)).join(", ")} in the workspace`;
    return outcome(
      missing.length === 0,
      expected,
      missing.length === 0
        ? "present"
        : `${missing.map((p) => show(p)).join(", ")} absent; written: ${listFiles(written)}`,
    );
  },
};

/** The file `file` (path or glob: any match) contains every one of `value`/`values`. */
export const fileContains: AssertionType = {
  type: "file-contains",
  level: "final-state",
  compare: allOfComparator(false, true),
  schema: {
    type: "object",
    required: ["file"],
    properties: {
      file: { type: "string", minLength: 1 },
      value: { type: ["string", "number"] },
      values: { type: "array", minItems: 1, items: { type: ["string", "number"] } },
    },
    additionalProperties: false,
    ...VALUE_OR_VALUES,
  },
  async evaluate(a: Assertion, ctx: AssertionContext): Promise<AssertionOutcome> {
    const file = String(a.params.file);
    const needles = valueList(a).map(String);
    const expected = `${file} to contain ${needles.map((n) => show(n)).join(" and ")}`;
    const isMatch = matcher(file);
    const candidates = Object.keys(ctx.trial.files).filter(isMatch).sort();
    if (candidates.length === 0) {
      return missingValue(
        `${file} was not written (written: ${listFiles(Object.keys(ctx.trial.files).sort())})`,
        expected,
      );
    }
    for (const c of candidates) {
      const text = ctx.trial.files[c] ?? "";
      if (needles.every((n) => text.includes(n))) return outcome(true, expected, `${c} contains them`);
    }
    const first = candidates[0]!;
    const text = ctx.trial.files[first] ?? "";
    const absent = needles.filter((n) => !text.includes(n));
    return outcome(
      false,
      expected,
      `${absent.map((n) => show(n)).join(", ")} missing from ${first} ${excerpt(text)}`,
    );
  },
};
