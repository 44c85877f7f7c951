/**
 * The files of a base commit that a pull request's comparison reads, written from git's objects into a folder of
 * their own: `git ls-tree` lists the blobs under the given paths, one `git cat-file --batch` reads them all. No
 * worktree, no index, nothing written for the files the PR leaves alone (at base they are what head has). Two git
 * processes, whatever the size of the repository.
 */
import { execFileSync } from "node:child_process";
import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

/** Pathspecs per `git ls-tree` call: far below any command-line limit. */
const PATHSPECS_PER_CALL = 400;
/** What one `cat-file --batch` answer may hold in all (a PR touching more than this reads a full worktree). */
const MAX_BATCH_BYTES = 512 * 1024 * 1024;

interface TreeEntry {
  mode: string;
  oid: string;
  path: string;
}

/** What `materializeTree` wrote. */
export interface Materialized {
  files: number;
  /** Symbolic links written (as links, their targets as git holds them). */
  links: number;
}

function git(repoDir: string, args: string[], input?: string): Buffer {
  return execFileSync("git", ["-C", repoDir, ...args], {
    input,
    maxBuffer: MAX_BATCH_BYTES,
    stdio: ["pipe", "pipe", "pipe"],
  });
}

/** The blobs of `sha` under `paths` (files or folders, repository-relative, taken literally). */
export function listTree(repoDir: string, sha: string, paths: readonly string[]): TreeEntry[] {
  const out: TreeEntry[] = [];
  const unique = [...new Set(paths)].filter((p) => p !== "" && p !== ".");
  for (let i = 0; i < unique.length; i += PATHSPECS_PER_CALL) {
    const chunk = unique.slice(i, i + PATHSPECS_PER_CALL);
    const text = git(repoDir, [
      "--literal-pathspecs",
      "ls-tree",
      "-r",
      "-z",
      "--full-tree",
      sha,
      "--",
      ...chunk,
    ]);
    for (const record of text.toString("utf8").split("\0")) {
      if (!record) continue;
      const tab = record.indexOf("\t");
      const [mode, type, oid] = record.slice(0, tab).split(" ");
      // Submodules (commits) have no content here; trees do not appear with -r.
      if (type !== "blob" || !mode || !oid) continue;
      out.push({ mode, oid, path: record.slice(tab + 1) });
    }
  }
  return out;
}

/**
 * Writes the blobs of `sha` under `paths` into `into` (an empty folder): files with their executable bit, links
 * as links. Folders that hold nothing at `sha` are not made.
 */
export function materializeTree(
  repoDir: string,
  sha: string,
  paths: readonly string[],
  into: string,
): Materialized {
  const entries = listTree(repoDir, sha, paths);
  const done: Materialized = { files: 0, links: 0 };
  if (entries.length === 0) return done;
  const batch = git(repoDir, ["cat-file", "--batch"], `${entries.map((e) => e.oid).join("\n")}\n`);
  const made = new Set<string>();
  let at = 0;
  for (const entry of entries) {
    // `<oid> SP <type> SP <size> LF <content> LF`, in the order asked.
    const eol = batch.indexOf(10, at);
    const header = batch.subarray(at, eol).toString("utf8").split(" ");
    const size = Number(header[2]);
    if (header[0] !== entry.oid || !Number.isSafeInteger(size))
      throw new Error(`git cat-file answered ${header.join(" ")} for ${entry.oid} (${entry.path})`);
    const content = batch.subarray(eol + 1, eol + 1 + size);
    at = eol + 1 + size + 1;
    const file = join(into, entry.path);
    const folder = dirname(file);
    if (!made.has(folder)) {
      mkdirSync(folder, { recursive: true });
      made.add(folder);
    }
    if (entry.mode === "120000") {
      symlinkSync(content.toString("utf8"), file);
      done.links++;
    } else {
      writeFileSync(file, content);
      if (entry.mode === "100755") chmodSync(file, 0o755);
      done.files++;
    }
  }
  return done;
}
