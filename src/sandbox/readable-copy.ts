/**
 * A module's folder handed to the sandbox uid. At `uid+namespaces` the sandbox reads a bound folder through its mode
 * bits as "others"; a folder closed to them (mode 700, as `mktemp -d` and many home folders are) would make a correct
 * module fail to load. skillgate then gives the sandbox a copy, as it does for trials: a fresh folder of its own,
 * open to others, holding the folder's files, folders and links (links copied as links, never followed; other
 * special files left out). Ownership never changes: the copy is skillgate's, readable by modes alone.
 *
 * A folder too large to copy is not judged: `FolderUnreadable`, a usage error (exit 2), never a failed check.
 */
import {
  chmodSync,
  copyFileSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readlinkSync,
  rmSync,
  symlinkSync,
} from "node:fs";
import { join } from "node:path";
import { InputError } from "../model/diagnostics.js";

/** Entries and bytes a copy may hold: a module's folder, not a home folder or a repository's node_modules. */
export const COPY_LIMITS = { entries: 10_000, bytes: 256 * 1024 * 1024 };

/** The sandbox cannot be given what it must read: the caller stops with a usage error, never a FAIL. */
class FolderUnreadable extends InputError {}

/** Whether the sandbox uid ("others") can list and enter `dir`. */
export function closedToOthers(dir: string): boolean {
  return (lstatSync(dir).mode & 0o005) !== 0o005;
}

interface Entry {
  rel: string;
  kind: "dir" | "file" | "link";
  executable: boolean;
}

/** The entries below `dir` (relative paths, parents first), within COPY_LIMITS or FolderUnreadable. */
function listTree(dir: string): Entry[] {
  const entries: Entry[] = [];
  let bytes = 0;
  const tooLarge = (what: string) =>
    new FolderUnreadable(
      `the folder ${dir} is closed to the sandbox's uid (mode ${(lstatSync(dir).mode & 0o777).toString(8)}) and too large to copy for it (${what}): make it readable by others (chmod o+rx ${dir}) or move the module to a folder of its own`,
    );
  const walk = (rel: string): void => {
    for (const name of readdirSync(join(dir, rel))) {
      const r = rel ? join(rel, name) : name;
      const st = lstatSync(join(dir, r));
      const kind = st.isDirectory() ? "dir" : st.isFile() ? "file" : st.isSymbolicLink() ? "link" : undefined;
      if (!kind) continue; // a FIFO, socket or device is nothing a module imports
      if (entries.length >= COPY_LIMITS.entries) throw tooLarge(`more than ${COPY_LIMITS.entries} entries`);
      if (kind === "file") bytes += st.size;
      if (bytes > COPY_LIMITS.bytes) throw tooLarge(`more than ${COPY_LIMITS.bytes / 1024 / 1024} MiB`);
      entries.push({ rel: r, kind, executable: (st.mode & 0o100) !== 0 });
      if (kind === "dir") walk(r);
    }
  };
  walk("");
  return entries;
}

export interface ReadableCopy {
  dir: string;
  remove(): void;
}

/**
 * A copy of `dir` in a fresh folder under `parent` that the sandbox uid can read: folders 755, files 644 (755 when
 * executable). Throws FolderUnreadable when `dir` is larger than COPY_LIMITS or skillgate cannot read it itself.
 */
export function readableCopy(dir: string, parent: string): ReadableCopy {
  let entries: Entry[];
  try {
    entries = listTree(dir);
  } catch (err) {
    if (err instanceof FolderUnreadable) throw err;
    throw new FolderUnreadable(
      `cannot read the folder ${dir} to copy it for the sandbox: ${(err as Error).message}`,
    );
  }
  const copy = mkdtempSync(join(parent, "module-folder-"));
  try {
    chmodSync(copy, 0o755);
    for (const e of entries) {
      const from = join(dir, e.rel);
      const to = join(copy, e.rel);
      if (e.kind === "dir") mkdirSync(to, { mode: 0o755 });
      else if (e.kind === "link") symlinkSync(readlinkSync(from), to);
      else {
        copyFileSync(from, to);
        chmodSync(to, e.executable ? 0o755 : 0o644);
      }
    }
    // mkdir's mode passes through the umask: set it outright.
    for (const e of entries) if (e.kind === "dir") chmodSync(join(copy, e.rel), 0o755);
  } catch (err) {
    rmSync(copy, { recursive: true, force: true });
    throw new FolderUnreadable(`cannot copy the folder ${dir} for the sandbox: ${(err as Error).message}`);
  }
  return { dir: copy, remove: () => rmSync(copy, { recursive: true, force: true }) };
}
