import { createHash } from "node:crypto";
import { closeSync, openSync, readdirSync, readSync, realpathSync, statSync } from "node:fs";
import { isAbsolute, relative, resolve } from "node:path";
import type { TreeView } from "./dependencies.js";

/** Bytes hashed per read: files are compared whole, never cut, and never held in memory whole. */
const HASH_CHUNK_BYTES = 1024 * 1024;
/** Largest file read as text (to find its imports or its first changed line); larger ones are only hashed. */
const MAX_TEXT_BYTES = 2 * 1024 * 1024;

/**
 * A checkout as the suite comparison reads it (`verdict/dependencies.ts`): whole-file SHA-256 digests streamed
 * from disk, text for parsing, folder listings. A path that leaves the checkout (`..`, or a link resolving
 * outside it) reads as absent; undefined `root`: an empty tree.
 */
export function checkoutTree(root: string | undefined): TreeView {
  const realRoot = root ? realpathSync(root) : undefined;
  const digests = new Map<string, string | undefined>();
  /** The absolute path of a regular file inside the checkout, with its size, or undefined. */
  const locate = (rel: string): { abs: string; size: number } | undefined => {
    if (!root || !realRoot) return undefined;
    const abs = resolve(root, rel);
    const inside = relative(root, abs);
    if (inside === "" || inside.startsWith("..") || isAbsolute(inside)) return undefined;
    try {
      const real = realpathSync(abs);
      const within = relative(realRoot, real);
      if (within === "" || within.startsWith("..") || isAbsolute(within)) return undefined;
      const st = statSync(real);
      return st.isFile() ? { abs: real, size: st.size } : undefined;
    } catch {
      return undefined;
    }
  };
  const digest = (rel: string): string | undefined => {
    if (digests.has(rel)) return digests.get(rel);
    const at = locate(rel);
    let out: string | undefined;
    if (at) {
      const hash = createHash("sha256");
      const buf = Buffer.allocUnsafe(HASH_CHUNK_BYTES);
      const fd = openSync(at.abs, "r");
      try {
        for (let n = readSync(fd, buf); n > 0; n = readSync(fd, buf)) hash.update(buf.subarray(0, n));
        out = hash.digest("hex");
      } finally {
        closeSync(fd);
      }
    }
    digests.set(rel, out);
    return out;
  };
  const text = (rel: string): string | undefined => {
    const at = locate(rel);
    if (!at || at.size > MAX_TEXT_BYTES) return undefined;
    const buf = Buffer.alloc(at.size);
    const fd = openSync(at.abs, "r");
    try {
      let off = 0;
      for (let n = 1; off < at.size && n > 0; off += n) n = readSync(fd, buf, off, at.size - off, off);
      return buf.subarray(0, off).toString("utf8");
    } finally {
      closeSync(fd);
    }
  };
  const list = (dir: string): string[] => {
    if (!root) return [];
    const out: string[] = [];
    const walk = (rel: string) => {
      let entries: import("node:fs").Dirent[];
      try {
        entries = readdirSync(resolve(root, rel), { withFileTypes: true });
      } catch {
        return;
      }
      for (const e of entries) {
        const child = `${rel}/${e.name}`;
        if (e.isDirectory() && e.name !== ".git") walk(child);
        else if (e.isFile()) out.push(child);
      }
    };
    const inside = relative(root, resolve(root, dir));
    if (inside === "" || inside.startsWith("..") || isAbsolute(inside)) return [];
    walk(dir);
    return out.sort();
  };
  return { digest, text, list };
}
