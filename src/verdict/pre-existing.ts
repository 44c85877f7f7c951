/**
 * A PR is blocked only by what it introduces: a validation error identical at base, in a file the PR does not touch,
 * is pre-existing (reported, never blocking); an error in a file the PR touches, or one the base does not have,
 * blocks. Some errors depend on other files than the one they are located in (two skills sharing a name, a suite
 * whose skill is gone): those are pre-existing only when the base has the same one.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Diagnostic } from "../model/index.js";

/** Codes whose truth depends on files other than the one they point at. */
const CROSS_FILE_CODES: ReadonlySet<string> = new Set([
  "skill/duplicate-name",
  "skill/duplicate-copy",
  "skill/nested",
  "skill/two-skill-files",
  "suite/orphan",
  "suite/names-other-skill",
  "marketplace/source-missing",
  "marketplace/source-outside",
]);

export interface BaseSide {
  dir: string;
  diagnostics: readonly Diagnostic[];
  /** The PR's changed files, when known; otherwise a file is touched when its bytes differ between the trees. */
  changedFiles?: readonly string[] | undefined;
}

const identity = (d: Diagnostic) => `${d.code}\u0000${d.file}\u0000${d.message}`;

function read(dir: string, file: string): Buffer | undefined {
  try {
    return readFileSync(join(dir, file));
  } catch {
    return undefined;
  }
}

/** Splits errors into those the PR introduced and those it found. Without a base every error is introduced. */
export function splitPreExisting(
  errors: readonly Diagnostic[],
  headDir: string,
  base: BaseSide | undefined,
): { introduced: Diagnostic[]; preExisting: Diagnostic[] } {
  const out = { introduced: [] as Diagnostic[], preExisting: [] as Diagnostic[] };
  if (!base) return { ...out, introduced: [...errors] };
  const atBase = new Set(base.diagnostics.map(identity));
  const changed = base.changedFiles ? new Set(base.changedFiles) : undefined;
  const touched = (file: string) => {
    if (changed) return changed.has(file);
    const h = read(headDir, file);
    const b = read(base.dir, file);
    return !h || !b || !h.equals(b);
  };
  for (const d of errors) {
    // Base discovery reuses head's record of an untouched skill and does not repeat its single-file problems.
    const found = atBase.has(identity(d)) || (!!changed && !CROSS_FILE_CODES.has(d.code));
    (found && !touched(d.file) ? out.preExisting : out.introduced).push(d);
  }
  return out;
}
