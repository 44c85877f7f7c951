import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

/** A fresh temp folder holding `files` (repository-relative path → content); its path. */
export function writeRepo(files: Record<string, string>, prefix = "sg-repo-"): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  for (const [p, c] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, p)), { recursive: true });
    writeFileSync(join(dir, p), c);
  }
  return dir;
}
