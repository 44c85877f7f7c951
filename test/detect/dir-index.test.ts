import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DirIndex } from "../../src/detect/dir-index.js";

describe("DirIndex", () => {
  it("answers for lexically normalised paths, missing folders, files posing as folders and links", () => {
    const root = mkdtempSync(join(tmpdir(), "sg-dirs-"));
    mkdirSync(join(root, "a/b"), { recursive: true });
    writeFileSync(join(root, "a/b/f.txt"), "x");
    writeFileSync(join(root, "top.md"), "x");
    symlinkSync(join(root, "a"), join(root, "link"));
    symlinkSync(join(root, "nowhere"), join(root, "dangling"));
    const d = new DirIndex(root);
    expect(d.isDir("a")).toBe(true);
    expect(d.isDir("a/b/")).toBe(true);
    expect(d.isFile("a/./b/f.txt")).toBe(true);
    expect(d.isFile("a//b/f.txt")).toBe(true);
    expect(d.isFile("a/c/../b/f.txt")).toBe(true);
    expect(d.exists("a/b/missing")).toBe(false);
    expect(d.list("a/missing/deeper")).toBeUndefined();
    expect(d.list("top.md")).toBeUndefined();
    expect(d.isDir(".")).toBe(true);
    expect(d.exists("..")).toBe(false);
    expect(d.exists("../outside")).toBe(false);
    expect(d.isFile("link/b/f.txt")).toBe(true);
    expect(d.list("")!.get("link")).toEqual({ kind: "dir", link: true });
    expect(d.list("")!.get("dangling")).toEqual({ kind: "other", link: true });
    expect([...d.list("a/b")!.keys()]).toEqual(["f.txt"]);
  });
});
