/**
 * The children built from source are cached in one folder that several checkouts may share (git worktrees with
 * one node_modules). Each checkout must get children built from its own sources: a cache entry validated only by
 * the content of another checkout's files once handed a worktree the children of another branch.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { BuildOptions, BuildResult } from "esbuild";
import { afterAll, describe, expect, it } from "vitest";
import { childFile } from "../../src/sandbox/child-build.mjs";
import { childrenFromSource } from "../../src/sandbox/child-cache.js";

const repo = resolve(import.meta.dirname, "../..");
const work = mkdtempSync(join(tmpdir(), "skillgate-child-cache-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const esbuild = async () =>
  createRequire(import.meta.url)("esbuild") as { build(o: BuildOptions): Promise<BuildResult> };
const scratch = () => work;

/** A copy of the repository's sources (src/, gates/) whose files look a minute old, as a checkout's do. */
function checkout(name: string): string {
  const root = join(work, name);
  for (const dir of ["src", "gates"])
    cpSync(join(repo, dir), join(root, dir), { recursive: true, preserveTimestamps: true });
  symlinkSync(join(repo, "node_modules"), join(root, "node_modules"));
  return root;
}

/** Appends a statement that the bundle keeps to `file`, dated a minute ago (an edit made before the build). */
function edit(file: string, marker: string): void {
  writeFileSync(
    file,
    `${readFileSync(file, "utf8")}\n(globalThis as Record<string, unknown>).cacheProbe = "${marker}";\n`,
  );
  const past = new Date(Date.now() - 60_000);
  utimesSync(file, past, past);
}

/** Whether the predicate child built in `dir` holds `marker` (an edit of child.ts, which every child includes). */
const holds = (dir: string, marker: string) =>
  readFileSync(join(dir, childFile(undefined)), "utf8").includes(marker);

describe("sandbox children cached for several checkouts", () => {
  it("each root gets children built from its own sources, in either order and again from the cache", async () => {
    const cacheDir = join(work, "cache");
    const a = checkout("a");
    const b = checkout("b");
    edit(join(b, "src", "sandbox", "child.ts"), "edited-in-b");
    const build = (root: string) => childrenFromSource(root, { cacheDir, esbuild, scratch });
    const firstA = await build(a);
    const firstB = await build(b);
    expect(holds(firstA, "edited-in-b")).toBe(false);
    expect(holds(firstB, "edited-in-b")).toBe(true);
    // A later process of each checkout, after the other stored its build: both from the cache.
    expect(await build(a)).toBe(firstA);
    expect(await build(b)).toBe(firstB);
    // An edit in one checkout gives it a new build and leaves the other's cached one as it was.
    edit(join(a, "src", "sandbox", "child.ts"), "edited-in-a");
    const editedA = await build(a);
    expect(holds(editedA, "edited-in-a")).toBe(true);
    expect(holds(editedA, "edited-in-b")).toBe(false);
    expect(await build(b)).toBe(firstB);
    expect(holds(firstB, "edited-in-a")).toBe(false);
  }, 240_000);
});
