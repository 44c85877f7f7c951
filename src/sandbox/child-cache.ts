/**
 * The sandbox children built from source (tests, tsx, the bench) by the same `childBuildOptions` as
 * `scripts/bundle.mjs`, and kept in a cache folder (node_modules/.cache/skillgate-sandbox) that later processes
 * reuse while every file the build read has the same content (sha256), as a build tool's cache would.
 *
 * One cache folder may serve several checkouts (git worktrees sharing one node_modules): each source root has a
 * manifest of its own, so a root is never handed a build whose inputs were another root's files.
 */
import { createHash } from "node:crypto";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { join, resolve } from "node:path";
import type { BuildOptions, BuildResult } from "esbuild";
import { sha256OfFile } from "../util/read-file.js";
import { childBuildOptions, childFile, gateFolders } from "./child-build.mjs";

type EsbuildApi = { build(options: BuildOptions): Promise<BuildResult> };

function digest(file: string): string | undefined {
  try {
    return sha256OfFile(file);
  } catch {
    return undefined;
  }
}

/**
 * The folder of the children built from the sources under `root`: a cached build when its inputs are unchanged,
 * else a fresh build (kept in `cacheDir` for the next process unless a file changed while it ran).
 */
export async function childrenFromSource(
  root: string,
  o: { cacheDir: string | undefined; esbuild: () => Promise<EsbuildApi>; scratch: () => string },
): Promise<string> {
  const { cacheDir } = o;
  const cached = cacheDir ? readManifest(cacheDir, root) : undefined;
  if (cacheDir && cached) return keepFresh(join(cacheDir, cached.key));
  const api = await o.esbuild();
  const outdir = mkdtempSync(join(o.scratch(), "child-"));
  const started = Date.now();
  const result = await api.build(childBuildOptions(root, outdir));
  if (!cacheDir) return outdir;
  const inputs: Record<string, string> = {};
  // The build's settings are an input too; the virtual entries (see child-build.mjs) are not files.
  const files = Object.keys(result.metafile?.inputs ?? {}).filter((f) => !f.startsWith("skillgate-child:"));
  for (const input of [...files, join(root, "src", "sandbox", "child-build.mjs")]) {
    const abs = resolve(root, input);
    const hash = digest(abs);
    // Edited while we built (mtime granularity can be coarse): the output may predate the edit.
    if (hash === undefined || statSync(abs).mtimeMs >= started - 2000) return outdir;
    inputs[abs] = hash;
  }
  return storeChild(cacheDir, root, outdir, inputs) ?? outdir;
}

/** The children built from source, as last cached under node_modules/.cache (see `childScript`). */
interface ChildManifest {
  /** The source root the build was made from. */
  root: string;
  key: string;
  /** Every file the build read (absolute) → sha256 of its content. */
  inputs: Record<string, string>;
}

/** The manifest of `root`'s builds: one per root, named by a hash of its path. */
function manifestFile(cacheDir: string, root: string): string {
  return join(
    cacheDir,
    `manifest-${createHash("sha256").update(resolve(root)).digest("hex").slice(0, 16)}.json`,
  );
}

const DAY_MS = 86_400_000;

/** Marks a cached build (or manifest) as in use, so that clearing out builds unused for a day leaves it. */
function keepFresh(path: string): string {
  try {
    const now = new Date();
    utimesSync(path, now, now);
  } catch {
    // Read-only cache: it is only cleared by whoever can write it.
  }
  return path;
}

function readManifest(cacheDir: string, root: string): ChildManifest | undefined {
  try {
    const file = manifestFile(cacheDir, root);
    const m = JSON.parse(readFileSync(file, "utf8")) as ChildManifest;
    if (m.root !== resolve(root)) return undefined;
    if (typeof m.key !== "string" || !/^[0-9a-f]{16}$/.test(m.key)) return undefined;
    for (const [file, hash] of Object.entries(m.inputs ?? {})) if (digest(file) !== hash) return undefined;
    // A gate folder added since (its files are not inputs of that build) needs a new build.
    const files = [undefined, ...gateFolders(root)].map((g) => join(cacheDir, m.key, childFile(g)));
    if (Object.keys(m.inputs ?? {}).length === 0 || !files.every((f) => existsSync(f))) return undefined;
    keepFresh(file);
    return m;
  } catch {
    return undefined;
  }
}

/** Keeps a fresh build for the next process; returns its folder, or undefined (then the scratch copy serves). */
function storeChild(
  cacheDir: string,
  root: string,
  outdir: string,
  inputs: Record<string, string>,
): string | undefined {
  try {
    const key = createHash("sha256")
      .update(JSON.stringify(Object.entries(inputs).sort()))
      .digest("hex")
      .slice(0, 16);
    const dir = join(cacheDir, key);
    if (!existsSync(join(dir, childFile(undefined)))) {
      mkdirSync(cacheDir, { recursive: true });
      const tmp = mkdtempSync(join(cacheDir, `${key}.tmp-`));
      cpSync(outdir, tmp, { recursive: true });
      try {
        renameSync(tmp, dir);
      } catch {
        rmSync(tmp, { recursive: true, force: true }); // another process stored the same build first
      }
    }
    clearUnused(cacheDir, key);
    const manifest = manifestFile(cacheDir, root);
    const tmp = `${manifest}.tmp-${process.pid}`;
    writeFileSync(tmp, JSON.stringify({ root: resolve(root), key, inputs } satisfies ChildManifest));
    renameSync(tmp, manifest);
    return keepFresh(dir);
  } catch {
    return undefined;
  }
}

/**
 * Builds and manifests no process used for a day (each use refreshes them: `keepFresh`): a root whose manifest
 * goes rebuilds, a process still running from a build touched it when it started.
 */
function clearUnused(cacheDir: string, keep: string): void {
  for (const e of readdirSync(cacheDir, { withFileTypes: true })) {
    const unused = e.name !== keep && statSync(join(cacheDir, e.name)).mtimeMs < Date.now() - DAY_MS;
    if (unused && (e.isDirectory() || /^manifest.*\.json$/.test(e.name)))
      rmSync(join(cacheDir, e.name), { recursive: true, force: true });
  }
}
