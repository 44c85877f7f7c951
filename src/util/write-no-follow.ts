/**
 * Writing a report file into a checkout without ever following a symbolic link. The checkout is the pull
 * request's: a PR can commit `skillgate-report.json` (or a folder on the way to it) as a link to any path, and a
 * plain `writeFile` run by the Action (as root, under `elevate.ts`) would overwrite what it points to. Here every
 * folder between the checkout and the file must be a real folder (missing ones are made one at a time), and a
 * link at the file's own path is removed (the link, never its target) before a new file is made in its place.
 */
import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  mkdirSync,
  openSync,
  readlinkSync,
  unlinkSync,
  writeSync,
} from "node:fs";
import { dirname, isAbsolute, join, relative, sep } from "node:path";

/** A path that cannot be written without following a link: nothing was written. */
export class LinkInPath extends Error {
  constructor(
    /** The link (or non-folder), relative to the checkout. */
    readonly at: string,
    message: string,
  ) {
    super(message);
    this.name = "LinkInPath";
  }
}

/** What happened on the way: the link that stood where the file now is (relative to the checkout), if any. */
export interface NoFollowWrite {
  replacedLink?: { at: string; target: string };
}

const { O_WRONLY, O_CREAT, O_TRUNC, O_EXCL } = constants;
const O_NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const O_NONBLOCK = constants.O_NONBLOCK ?? 0;

function lstatOrUndefined(path: string) {
  try {
    return lstatSync(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw e;
  }
}

/** Makes `dir` (inside `root`) folder by folder; throws `LinkInPath` at the first link or non-folder. */
function realFolders(root: string, dir: string): void {
  const rel = relative(root, dir);
  if (!rel) return;
  let cur = root;
  for (const part of rel.split(sep)) {
    cur = join(cur, part);
    let st = lstatOrUndefined(cur);
    if (!st) {
      try {
        mkdirSync(cur);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
      }
      st = lstatSync(cur);
    }
    const at = relative(root, cur);
    if (st.isSymbolicLink())
      throw new LinkInPath(at, `${at} is a symbolic link in the checkout: nothing is written through it`);
    if (!st.isDirectory()) throw new LinkInPath(at, `${at} is not a folder`);
  }
}

/**
 * The first link on the way from `root` to `path` (a folder or the file itself), relative to `root`, with what it
 * points to; undefined when there is none or `path` is not below `root`. Looks only (lstat), changes nothing.
 */
export function linkOnPath(root: string, path: string): { at: string; target: string } | undefined {
  const rel = relative(root, path);
  if (rel === "" || rel.startsWith("..") || isAbsolute(rel)) return undefined;
  let cur = root;
  for (const part of rel.split(sep)) {
    cur = join(cur, part);
    const st = lstatOrUndefined(cur);
    if (!st) return undefined;
    if (st.isSymbolicLink()) return { at: relative(root, cur), target: readlinkSync(cur) };
  }
  return undefined;
}

/** Opens `path` for writing without following a link there; a FIFO or device is refused, never waited on. */
function openNoFollow(path: string, exclusive: boolean): number {
  const fd = openSync(
    path,
    O_WRONLY | O_CREAT | O_NONBLOCK | O_NOFOLLOW | (exclusive ? O_EXCL : O_TRUNC),
    0o644,
  );
  if (!fstatSync(fd).isFile()) {
    closeSync(fd);
    throw new Error(`${path} is not a regular file`);
  }
  return fd;
}

/**
 * Writes `data` at `path`. Below `root` (the checkout) no link is followed: a folder on the way that is a link is
 * a `LinkInPath` (nothing written); a link at `path` itself is removed and a new file made there, which the
 * result reports. Outside `root` (a path the workflow chose, e.g. under RUNNER_TEMP) folders are made as usual,
 * and the file itself is still never opened through a link.
 */
export function writeFileNoFollow(root: string, path: string, data: string | Buffer): NoFollowWrite {
  const rel = relative(root, path);
  const inside = rel !== "" && !rel.startsWith("..") && !isAbsolute(rel);
  if (inside) realFolders(root, dirname(path));
  else mkdirSync(dirname(path), { recursive: true });
  const result: NoFollowWrite = {};
  let fd: number;
  try {
    fd = openNoFollow(path, false);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "ELOOP") throw e;
    // A link where the file goes: it is removed, never written through.
    const target = readlinkSync(path);
    unlinkSync(path);
    result.replacedLink = { at: inside ? rel : path, target };
    fd = openNoFollow(path, true);
  }
  try {
    const bytes = typeof data === "string" ? Buffer.from(data) : data;
    for (let off = 0; off < bytes.length; ) off += writeSync(fd, bytes, off);
  } finally {
    closeSync(fd);
  }
  return result;
}
