/**
 * One bundle of the action and the CLI (scripts/bundle.mjs) per state of the sources, shared by the end-to-end
 * test files: each used to bundle its own copy (seconds of CPU and 29 MB each, ten times per `npm test`).
 * The bundle lives in the temp folder under a name that hashes everything it is built from (src/, gates/,
 * scripts/, the package files), so an edited source gets a new bundle and a stale one is never used; test files
 * asking at the same time wait for the one that builds it (a lock folder, created atomically).
 */
import { createHash } from "node:crypto";
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import { execa } from "execa";
import { afterAll, beforeAll } from "vitest";

const ROOT = resolve(import.meta.dirname, "../..");
/** What the bundle is built from: folders walked whole, and single files. */
const INPUT_DIRS = ["src", "gates", "scripts"];
const INPUT_FILES = ["package.json", "package-lock.json", "tsconfig.json"];
const PREFIX = "sg-test-dist-";
/** A lock older than this was left by a killed process. */
const STALE_LOCK_MS = 300_000;
/** Bundles of other source states (other worktrees, earlier edits) older than this are removed. */
const PRUNE_AFTER_MS = 6 * 3_600_000;

function sourceHash(): string {
  const hash = createHash("sha256");
  const add = (file: string) => {
    hash.update(`${relative(ROOT, file)}\0`);
    hash.update(readFileSync(file));
    hash.update("\0");
  };
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const p = join(dir, e.name);
      if (e.isDirectory()) {
        if (e.name !== "node_modules") walk(p);
      } else if (e.isFile()) add(p);
    }
  };
  for (const d of INPUT_DIRS) walk(join(ROOT, d));
  for (const f of INPUT_FILES) if (existsSync(join(ROOT, f))) add(join(ROOT, f));
  return hash.digest("hex").slice(0, 20);
}

function pruneOld(keep: string): void {
  for (const name of readdirSync(tmpdir())) {
    if (!name.startsWith(PREFIX) || name === keep || name.endsWith(".lock")) continue;
    const marker = join(tmpdir(), name, "complete");
    try {
      if (Date.now() - statSync(marker).mtimeMs > PRUNE_AFTER_MS)
        rmSync(join(tmpdir(), name), { recursive: true, force: true });
    } catch {
      // not complete: another process may be building it
    }
  }
}

/** Takes the lock folder; false when another process holds a live one. */
function takeLock(lock: string): boolean {
  try {
    mkdirSync(lock);
    return true;
  } catch {
    try {
      if (Date.now() - statSync(lock).mtimeMs > STALE_LOCK_MS) rmSync(lock, { recursive: true, force: true });
    } catch {
      // released meanwhile
    }
    return false;
  }
}

/**
 * The folder holding index.js, cli.js, post.js and their assets for today's sources, built on first use. Its
 * parent is world-readable (0755): a test runs the action as another user too (test/github/elevate.test.ts).
 */
export async function bundledDist(): Promise<string> {
  const name = `${PREFIX}${sourceHash()}`;
  const dir = join(tmpdir(), name);
  const out = join(dir, "dist");
  await onceAcrossProcesses(dir, "complete", "bundledDist", async () => {
    chmodSync(dir, 0o755);
    await execa(process.execPath, [join(ROOT, "scripts/bundle.mjs"), out], { cwd: ROOT });
    writeFileSync(join(dir, "complete"), `${new Date().toISOString()}\n`);
    pruneOld(name);
  });
  return out;
}

/**
 * Makes `dir` once for every test process that asks: the first to take `<dir>.lock` empties it and runs `make`,
 * which writes `marker` (a name inside `dir`) last; the others wait for the marker.
 */
export async function onceAcrossProcesses(
  dir: string,
  marker: string,
  what: string,
  make: () => Promise<void>,
): Promise<void> {
  const done = join(dir, marker);
  const lock = `${dir}.lock`;
  const deadline = Date.now() + STALE_LOCK_MS + 60_000;
  while (!existsSync(done)) {
    if (Date.now() > deadline) throw new Error(`${what}: ${done} did not appear (lock ${lock})`);
    if (!takeLock(lock)) {
      await new Promise((r) => setTimeout(r, 250));
      continue;
    }
    try {
      if (existsSync(done)) break;
      rmSync(dir, { recursive: true, force: true });
      mkdirSync(dir, { recursive: true });
      await make();
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
  }
}

/**
 * What an end-to-end test file sets up around the bundle: the CLI built once before its tests (`cliJs()`), and a
 * list of scratch folders it makes, removed after them.
 */
export function e2eFile(): { cliJs: () => string; scratch: string[] } {
  let dir = "";
  const scratch: string[] = [];
  beforeAll(async () => {
    dir = await bundledDist();
  }, 180_000);
  afterAll(() => {
    for (const d of scratch) rmSync(d, { recursive: true, force: true });
  });
  return { cliJs: () => join(dir, "cli.js"), scratch };
}
