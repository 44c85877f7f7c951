import { readdirSync, statSync } from "node:fs";
import { join, posix } from "node:path";

export type EntryKind = "file" | "dir" | "other";

export interface DirEntry {
  /** What the entry is, after following a symbolic link. */
  kind: EntryKind;
  /** A symbolic link: followed for lookups, never installed for an agent (it could point anywhere). */
  link: boolean;
}

/**
 * One `readdir` per folder, remembered: discovery asks "is there a `meta.json`, a `prompts/`, an `evals/`?"
 * tens of thousands of times on a large repository, and one listing answers all the questions about a folder
 * for the price of one system call (on a CI runner's disk a `stat` costs about as much as a `readdir`).
 * Paths are repository-relative POSIX paths; `""` is the root. Symbolic links are followed, as `stat` would.
 */
export class DirIndex {
  private readonly listings = new Map<string, Map<string, DirEntry> | null>();

  constructor(readonly root: string) {}

  /** The entries of a folder, or undefined when it is not a readable folder. */
  list(rel: string): ReadonlyMap<string, DirEntry> | undefined {
    const key = clean(rel);
    let listing = this.listings.get(key);
    if (listing === undefined) {
      // Ask the parent's listing first: a readdir of a missing folder throws, and thousands of throws cost more
      // than the listings themselves.
      listing = key === "" || this.kind(key) === "dir" ? this.read(key) : null;
      this.listings.set(key, listing);
    }
    return listing ?? undefined;
  }

  /**
   * The entry `name` of folder `rel` when that folder's listing is already in memory: `null` when the listing
   * says there is none, undefined when the folder was never listed (nothing is read to answer).
   */
  peek(rel: string, name: string): DirEntry | null | undefined {
    const listing = this.listings.get(clean(rel));
    if (listing === undefined) return undefined;
    return listing?.get(name) ?? null;
  }

  kind(rel: string): EntryKind | undefined {
    const norm = clean(rel);
    if (norm === "") return this.list("") ? "dir" : undefined;
    if (norm.startsWith("../")) return undefined;
    const slash = norm.lastIndexOf("/");
    return this.list(slash < 0 ? "" : norm.slice(0, slash))?.get(norm.slice(slash + 1))?.kind;
  }

  exists(rel: string): boolean {
    return this.kind(rel) !== undefined;
  }

  isDir(rel: string): boolean {
    return this.kind(rel) === "dir";
  }

  /**
   * `isDir`, but a folder whose parent has not been listed is asked with one `stat` (following links, as a
   * listing would) and the parent stays unlisted: for a folder whose siblings nobody asks about, like a skill's
   * `evals/`, a listing costs five system calls.
   */
  probeDir(rel: string): boolean {
    const norm = clean(rel);
    const slash = norm.lastIndexOf("/");
    if (slash < 0 || norm.startsWith("../") || this.listings.has(norm.slice(0, slash)))
      return this.isDir(norm);
    try {
      return statSync(join(this.root, norm), { throwIfNoEntry: false })?.isDirectory() ?? false;
    } catch {
      return false;
    }
  }

  isFile(rel: string): boolean {
    return this.kind(rel) === "file";
  }

  private read(rel: string): Map<string, DirEntry> | null {
    const abs = join(this.root, rel);
    let entries: import("node:fs").Dirent[];
    try {
      entries = readdirSync(abs, { withFileTypes: true });
    } catch {
      return null;
    }
    const out = new Map<string, DirEntry>();
    for (const e of entries) {
      let kind: EntryKind = e.isDirectory() ? "dir" : e.isFile() ? "file" : "other";
      const link = e.isSymbolicLink();
      if (link) {
        const target = statSync(join(abs, e.name), { throwIfNoEntry: false });
        kind = target?.isDirectory() ? "dir" : target?.isFile() ? "file" : "other";
      }
      out.set(e.name, { kind, link });
    }
    return out;
  }
}

/** `a/./b/`, `a//b` → `a/b`; `.` → ``. Most paths are already clean, and discovery asks about 100,000 of them. */
function clean(rel: string): string {
  if (rel === "" || rel === ".") return "";
  if (!/(^|\/)\.\.?(\/|$)|\/\/|\/$/.test(rel)) return rel;
  const norm = posix.normalize(rel).replace(/\/+$/, "");
  return norm === "." ? "" : norm;
}
