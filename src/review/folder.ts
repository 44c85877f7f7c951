/**
 * The static review of one skill folder as a pull request changes it: each file read in full from both sides
 * (`static-review.ts` decides what the PR added). Links are never followed (a link in a skill folder is never
 * installed either).
 */
import { join } from "node:path";
import { readRegularFile } from "../util/read-file.js";
import { newHostFindings, type ReviewedFile, reviewFile, type StaticFinding } from "./static-review.js";

export interface FolderSide {
  /** Absolute folder of the skill on this side. */
  dir: string;
  /** Files of the skill folder, relative to it (never `evals/`). */
  files: readonly string[];
}

function bytesOf(dir: string, rel: string): Buffer | undefined {
  try {
    const b = readRegularFile(join(dir, rel), { noFollow: true });
    return Buffer.isBuffer(b) ? b : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Findings of what `head` adds to the folder against `base` (none: a new skill, every byte added). `same`, when
 * given, says a file is unchanged without reading it (the checkout's digests), and is asked first.
 */
export function reviewSkillFolder(
  head: FolderSide,
  base: FolderSide | undefined,
  opts: { allowedHost?: (host: string) => boolean; same?: (rel: string) => boolean } = {},
): StaticFinding[] {
  const atBase = new Set(base?.files ?? []);
  const reviewed: ReviewedFile[] = [];
  for (const rel of head.files) {
    if (opts.same?.(rel)) continue;
    const bytes = bytesOf(head.dir, rel);
    if (!bytes) continue;
    const before = base && atBase.has(rel) ? bytesOf(base.dir, rel) : undefined;
    reviewed.push({ file: rel, head: bytes, ...(before ? { base: before } : {}) });
  }
  return [...reviewed.flatMap(reviewFile), ...newHostFindings(reviewed, opts.allowedHost ?? (() => false))];
}
