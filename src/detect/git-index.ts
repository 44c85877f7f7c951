import { readFileSync, realpathSync, statSync } from "node:fs";
import { dirname, isAbsolute, join, relative, resolve, sep } from "node:path";

/** A git work tree holding a folder: where its files and its index are, and the folder's path inside it. */
export interface GitCheckout {
  workTree: string;
  gitDir: string;
  /** `repoDir` relative to the work tree, POSIX, `""` at its top. */
  prefix: string;
}

/**
 * The git work tree `repoDir` lies in, found by looking for `.git` (a folder, or a file naming the git folder
 * of a linked worktree or submodule) in it and its parents; undefined when there is none. No process is
 * started: a fork from a large process costs more than the whole listing.
 */
export function findGitCheckout(repoDir: string): GitCheckout | undefined {
  let real: string;
  try {
    real = realpathSync(repoDir);
  } catch {
    return undefined;
  }
  for (let dir = real; ; dir = dirname(dir)) {
    const dotGit = join(dir, ".git");
    const st = statSync(dotGit, { throwIfNoEntry: false });
    if (st?.isDirectory() && isGitDirectory(dotGit)) return checkout(dir, dotGit, real);
    if (st?.isFile()) {
      const m = /^gitdir:\s*(.+?)\s*$/m.exec(readFileSync(dotGit, "utf8"));
      if (!m) return undefined;
      return checkout(dir, resolve(dir, m[1]!), real);
    }
    if (dirname(dir) === dir) return undefined;
  }
}

/**
 * What git itself asks of a `.git` folder before it takes it for a repository (`is_git_directory`): a `HEAD`, and
 * `objects/` and `refs/` folders of its own or of the common folder `commondir` names. Git passes over any other
 * `.git` folder (an empty one left in /tmp, say) and goes on up; so do we, instead of asking git about a folder
 * it will refuse.
 */
function isGitDirectory(gitDir: string): boolean {
  const is = (p: string, kind: "file" | "dir") => {
    const st = statSync(p, { throwIfNoEntry: false });
    return kind === "file" ? st?.isFile() === true : st?.isDirectory() === true;
  };
  if (!is(join(gitDir, "HEAD"), "file")) return false;
  let common = gitDir;
  if (is(join(gitDir, "commondir"), "file")) {
    try {
      common = resolve(gitDir, readFileSync(join(gitDir, "commondir"), "utf8").trim());
    } catch {
      return false;
    }
  }
  return is(join(common, "objects"), "dir") && is(join(common, "refs"), "dir");
}

function checkout(workTree: string, gitDir: string, repoDir: string): GitCheckout {
  const rel = relative(workTree, repoDir);
  return { workTree, gitDir, prefix: rel.split(sep).join("/") };
}

/** Entry modes git stores for what is not a file: a submodule (gitlink) and a sparse index's folder. */
const GITLINK = 0o160000;
const SYMLINK = 0o120000;
const SPARSE_DIR = 0o040000;

/**
 * The paths `git ls-files --cached` lists under the checkout's prefix (relative to it) whose file name is one of
 * `names`, read from the index file (formats 2, 3 and 4). Only those paths are decoded: on 23,000 entries that
 * is most of the cost. Undefined whenever the index is not one this reader is sure of: another hash than
 * SHA-1, a split or sparse index, a truncated or odd file. The caller then asks git itself.
 */
export function readIndexPaths(
  git: GitCheckout,
  names: readonly string[],
  /** When given, every symbolic link's path (mode 120000) is added to it, whatever its name. */
  links?: string[],
): string[] | undefined {
  if (!sha1Repository(git.gitDir)) return undefined;
  let buf: Buffer;
  try {
    buf = readFileSync(join(git.gitDir, "index"));
  } catch {
    return undefined;
  }
  if (buf.length < 12 || buf.toString("latin1", 0, 4) !== "DIRC") return undefined;
  const version = buf.readUInt32BE(4);
  if (version < 2 || version > 4) return undefined;
  const count = buf.readUInt32BE(8);
  const prefix = git.prefix ? `${git.prefix}/` : "";
  const wanted = names.map((n) => Buffer.from(`/${n}`));
  const paths: string[] = [];
  // Format 4 compresses each path against the previous one: it is rebuilt here.
  let path = Buffer.alloc(4096);
  let pathLength = 0;
  let at = 12;
  for (let n = 0; n < count; n++) {
    const start = at;
    if (at + 62 > buf.length) return undefined;
    const mode = buf.readUInt32BE(at + 24);
    const flags = buf.readUInt16BE(at + 60);
    const nameLength = flags & 0xfff;
    at += 62;
    if (flags & 0x4000) {
      if (version < 3) return undefined;
      at += 2; // extended flags (skip-worktree, intent-to-add): the path is listed either way, as git does
    }
    let from: Buffer;
    let pathStart: number;
    let pathEnd: number;
    if (version === 4) {
      let c = buf[at++];
      if (c === undefined) return undefined;
      let strip = c & 127;
      while (c & 128) {
        c = buf[at++];
        if (c === undefined) return undefined;
        strip = ((strip + 1) << 7) | (c & 127);
      }
      const kept = pathLength - strip;
      if (kept < 0) return undefined;
      const end = nulAfter(buf, at, nameLength === 0xfff ? -1 : nameLength - kept);
      if (end < 0) return undefined;
      const length = kept + end - at;
      if (length > path.length) {
        const bigger = Buffer.alloc(length * 2);
        path.copy(bigger, 0, 0, kept);
        path = bigger;
      }
      buf.copy(path, kept, at, end);
      pathLength = length;
      at = end + 1;
      from = path;
      pathStart = 0;
      pathEnd = length;
    } else {
      const end = nulAfter(buf, at, nameLength === 0xfff ? -1 : nameLength);
      if (end < 0) return undefined;
      from = buf;
      pathStart = at;
      pathEnd = end;
      // Entries are padded with 1–8 NULs to a multiple of 8 bytes from the entry's start.
      at = start + ((end - start + 8) & ~7);
    }
    const kind = mode & 0o170000;
    if (kind === SPARSE_DIR) return undefined;
    if (kind === GITLINK) continue; // a submodule: its files are its own repository's
    if (links && kind === SYMLINK) {
      const p = from.toString("utf8", pathStart, pathEnd);
      if (!prefix || p.startsWith(prefix)) links.push(prefix ? p.slice(prefix.length) : p);
    }
    if (!endsWithName(from, pathStart, pathEnd, wanted)) continue;
    const p = from.toString("utf8", pathStart, pathEnd);
    if (prefix && !p.startsWith(prefix)) continue;
    paths.push(prefix ? p.slice(prefix.length) : p);
  }
  // A split index keeps most entries in another file: what was read here is not the whole list.
  for (let ext = at; ext + 8 <= buf.length - 20; ) {
    const sig = buf.toString("latin1", ext, ext + 4);
    const size = buf.readUInt32BE(ext + 4);
    if (sig === "link" || sig === "sdir") return undefined;
    ext += 8 + size;
  }
  return paths;
}

/**
 * The offset of the NUL ending a path that starts at `at`: `length` bytes on when the entry gives it (checked),
 * else the first NUL (a name of 4,095 bytes or more); -1 when there is none.
 */
function nulAfter(buf: Buffer, at: number, length: number): number {
  if (length >= 0) return buf[at + length] === 0 ? at + length : -1;
  let i = at;
  while (i < buf.length && buf[i] !== 0) i++;
  return i < buf.length ? i : -1;
}

/** Whether bytes `start..end` end with one of `wanted` (`/name`), or are exactly a name. */
function endsWithName(b: Buffer, start: number, end: number, wanted: readonly Buffer[]): boolean {
  for (const w of wanted) {
    const len = end - start;
    if (len < w.length - 1) continue;
    let i = w.length - 1;
    let j = end - 1;
    while (i > 0 && b[j] === w[i]) {
      i--;
      j--;
    }
    if (i === 0 && (len === w.length - 1 || b[j] === 0x2f)) return true;
  }
  return false;
}

/** SHA-256 repositories store 32-byte object names in the index: their config says so (a linked worktree's is the common folder's). */
function sha1Repository(gitDir: string): boolean {
  const config = (dir: string) => {
    try {
      return readFileSync(join(dir, "config"), "utf8");
    } catch {
      return undefined;
    }
  };
  let text = config(gitDir);
  if (text === undefined) {
    try {
      const common = readFileSync(join(gitDir, "commondir"), "utf8").trim();
      text = config(isAbsolute(common) ? common : join(gitDir, common));
    } catch {
      return false;
    }
  }
  return text !== undefined && !/objectformat\s*=\s*sha256/i.test(text);
}
