/**
 * Turns an untrusted TS/JS module (ESM or CJS, with its relative imports) into one plain JS file the sandbox
 * child can load. Runs in the parent: esbuild only parses and bundles, it never executes the module.
 *
 * Transform chain: the native `esbuild` package when running from source (fast); from `dist/` (no
 * node_modules) the native linux-x64 binary shipped in `dist/esbuild-native/` on that platform, else the
 * `esbuild-wasm` package copied next to the bundle by `scripts/bundle.mjs`; the installed packages are also
 * tried from dist, and the wasm one from source, so any one of them is enough.
 */
import { createHash } from "node:crypto";
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { BuildFailure, BuildOptions, BuildResult, Message } from "esbuild";
import { findUpwards as findUpwardsFrom } from "../util/find-upwards.js";
import { sha256OfFile } from "../util/read-file.js";
import { childBuildOptions, childFile, gateFolders } from "./child-build.mjs";

type EsbuildApi = { build(options: BuildOptions): Promise<BuildResult> };

export const isBundled = process.env.SKILLGATE_BUNDLED === "1";
/** Folder of this file at run time: `dist/` when bundled, `src/sandbox/` from source. */
export const hereDir = dirname(fileURLToPath(import.meta.url));

/** Extensions compiled as JavaScript; anything else (e.g. `.css`) is handed to the gate as text. */
export const CODE_EXTENSIONS = /\.(?:[cm]?[jt]s|[jt]sx)$/i;

let scratch: string | undefined;
/** One scratch folder per parent process, removed when it exits. */
export function scratchDir(): string {
  if (!scratch) {
    const dir = mkdtempSync(join(tmpdir(), "skillgate-sandbox-"));
    scratch = dir;
    process.on("exit", () => rmSync(dir, { recursive: true, force: true }));
  }
  return scratch;
}

let esbuildPromise: Promise<EsbuildApi> | undefined;

/** Resolvers from this file and from the working directory (when this code was bundled somewhere else). */
function requirers(): NodeJS.Require[] {
  return [createRequire(import.meta.url), createRequire(join(process.cwd(), "package.json"))];
}

/** `rel` in the nearest ancestor of this file, else of the working directory, that has it. */
function findUpwards(rel: string): string | undefined {
  return findUpwardsFrom(rel, [hereDir, process.cwd()]);
}

async function loadEsbuild(): Promise<EsbuildApi> {
  const candidates: (() => EsbuildApi | Promise<EsbuildApi>)[] = [];
  // From dist on linux-x64 (GitHub's hosted runners): the native binary shipped beside the bundle. esbuild-wasm
  // starts a second Node process that compiles a 10 MB WebAssembly module first: seconds before the first build.
  if (isBundled && `${process.platform}-${process.arch}` === NATIVE_ESBUILD_PLATFORM)
    candidates.push(() => loadNativeFromDist());
  if (isBundled)
    candidates.push(
      () => createRequire(import.meta.url)(join(hereDir, "esbuild-wasm", "lib", "main.js")) as EsbuildApi,
    );
  // esbuild's JS API cannot be bundled: always load the installed package, never an inlined copy.
  for (const req of requirers()) candidates.push(() => req("esbuild") as EsbuildApi);
  for (const req of requirers()) candidates.push(() => req("esbuild-wasm") as EsbuildApi);
  const errors: string[] = [];
  for (const load of candidates) {
    try {
      const api = await load();
      if (typeof api.build === "function") return api;
    } catch (err) {
      errors.push((err as Error).message.split("\n")[0] ?? "");
    }
  }
  throw new Error(`no JavaScript transformer available (esbuild, esbuild-wasm): ${errors.join("; ")}`);
}

/** The platform whose native esbuild binary `scripts/bundle.mjs` ships in `dist/esbuild-native/`. */
export const NATIVE_ESBUILD_PLATFORM = "linux-x64";

function loadNativeFromDist(): EsbuildApi {
  const dir = join(hereDir, "esbuild-native");
  const binary = join(dir, "bin", "esbuild");
  if (!existsSync(binary)) throw new Error(`no native esbuild at ${binary}`);
  // esbuild's JS API reads ESBUILD_BINARY_PATH once, when it loads; nothing else sees the variable.
  const before = process.env.ESBUILD_BINARY_PATH;
  process.env.ESBUILD_BINARY_PATH = binary;
  try {
    return createRequire(import.meta.url)(join(dir, "lib", "main.js")) as EsbuildApi;
  } finally {
    if (before === undefined) delete process.env.ESBUILD_BINARY_PATH;
    else process.env.ESBUILD_BINARY_PATH = before;
  }
}

function esbuild(): Promise<EsbuildApi> {
  esbuildPromise ??= loadEsbuild();
  return esbuildPromise;
}

export type CompileOutcome =
  | { ok: true; file: string; format: "cjs" | "esm" }
  | { ok: false; message: string };

function formatMessages(messages: Message[], workDir: string): string {
  return messages
    .map((m) => {
      if (!m.location) return m.text;
      const file = relative(process.cwd(), resolve(workDir, m.location.file)) || m.location.file;
      return `${file}:${m.location.line}:${m.location.column + 1}: ${m.text}`;
    })
    .join("\n");
}

interface Built {
  outcome: CompileOutcome;
  /** Absolute paths and content digests of every file the bundle read (successful builds only). */
  inputs?: Map<string, string>;
}

function digest(file: string): string | undefined {
  try {
    return sha256OfFile(file);
  } catch {
    return undefined;
  }
}

/** Compiles `modulePath` (absolute) into a fresh file under the scratch folder. */
async function buildModule(modulePath: string): Promise<Built> {
  let api: EsbuildApi;
  try {
    api = await esbuild();
  } catch (err) {
    return { outcome: { ok: false, message: (err as Error).message } };
  }
  const outDir = mkdtempSync(join(scratchDir(), "module-"));
  // Made for this module: readable by a sandbox uid once bound into its sandbox (mkdtemp makes it 0700).
  chmodSync(outDir, 0o755);
  const workDir = dirname(modulePath);
  // CJS first (loads synchronously with require); top-level await needs ESM output.
  for (const format of ["cjs", "esm"] as const) {
    try {
      const result = await api.build({
        entryPoints: [modulePath],
        bundle: true,
        platform: "node",
        target: "node20",
        format,
        write: false,
        metafile: true,
        logLevel: "silent",
        absWorkingDir: workDir,
      });
      const text = result.outputFiles?.[0]?.text ?? "";
      const file = join(outDir, format === "cjs" ? "module.cjs" : "module.mjs");
      writeFileSync(file, text, { mode: 0o644 });
      const inputs = new Map<string, string>();
      for (const input of Object.keys(result.metafile?.inputs ?? {})) {
        const abs = resolve(workDir, input);
        inputs.set(abs, digest(abs) ?? "");
      }
      return { outcome: { ok: true, file, format }, inputs };
    } catch (err) {
      const errors = (err as BuildFailure).errors;
      const message = Array.isArray(errors) ? formatMessages(errors, workDir) : (err as Error).message;
      if (format === "cjs" && /top-level await/i.test(message)) continue;
      return { outcome: { ok: false, message: `module does not compile: ${message}` } };
    }
  }
  return { outcome: { ok: false, message: "module does not compile" } };
}

/** Compiled modules of this process by path: several gates (and predicates) on one module compile it once. */
const compiledModules = new Map<string, Promise<Built>>();

function stillCurrent(built: Built): boolean {
  if (!built.outcome.ok || !built.inputs || built.inputs.size === 0) return false;
  for (const [file, hash] of built.inputs) if (digest(file) !== hash) return false;
  return true;
}

/**
 * The module (absolute path) compiled into one JS file under the scratch folder. A compile of this process
 * is reused while every file it read (the module, its relative imports, packages) has the same content;
 * concurrent calls for one module share one compile. Failed compiles are not kept.
 */
export async function compileModule(modulePath: string): Promise<CompileOutcome> {
  const pending = compiledModules.get(modulePath);
  if (pending) {
    const built = await pending;
    if (stillCurrent(built)) return built.outcome;
    if (compiledModules.get(modulePath) === pending) compiledModules.delete(modulePath);
  }
  const fresh = compiledModules.get(modulePath) ?? buildModule(modulePath);
  compiledModules.set(modulePath, fresh);
  const built = await fresh;
  if (!built.outcome.ok && compiledModules.get(modulePath) === fresh) compiledModules.delete(modulePath);
  return built.outcome;
}

let childDirPromise: Promise<string> | undefined;

/** The children built from source, as last cached under node_modules/.cache (see `childScript`). */
interface ChildManifest {
  key: string;
  /** Every file the build read (absolute) → sha256 of its content. */
  inputs: Record<string, string>;
}

function readManifest(cacheDir: string, root: string): ChildManifest | undefined {
  try {
    const m = JSON.parse(readFileSync(join(cacheDir, "manifest.json"), "utf8")) as ChildManifest;
    if (typeof m.key !== "string" || !/^[0-9a-f]{16}$/.test(m.key)) return undefined;
    for (const [file, hash] of Object.entries(m.inputs ?? {})) if (digest(file) !== hash) return undefined;
    // A gate folder added since (its files are not inputs of that build) needs a new build.
    const files = [undefined, ...gateFolders(root)].map((g) => join(cacheDir, m.key, childFile(g)));
    return Object.keys(m.inputs ?? {}).length > 0 && files.every((f) => existsSync(f)) ? m : undefined;
  } catch {
    return undefined;
  }
}

/** Keeps a fresh build for the next process; returns its folder, or undefined (then the scratch copy serves). */
function storeChild(cacheDir: string, outdir: string, inputs: Record<string, string>): string | undefined {
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
    // Builds of older sources: a process that started from one a day ago has long finished.
    for (const e of readdirSync(cacheDir, { withFileTypes: true }))
      if (
        e.isDirectory() &&
        e.name !== key &&
        statSync(join(cacheDir, e.name)).mtimeMs < Date.now() - 86_400_000
      )
        rmSync(join(cacheDir, e.name), { recursive: true, force: true });
    const manifest = join(cacheDir, `manifest.json.tmp-${process.pid}`);
    writeFileSync(manifest, JSON.stringify({ key, inputs } satisfies ChildManifest));
    renameSync(manifest, join(cacheDir, "manifest.json"));
    return dir;
  } catch {
    return undefined;
  }
}

/**
 * Path of the sandbox child that runs `gate` (undefined: predicates). From dist: `sandbox-child/` beside the
 * bundle. From source (tests, tsx, the bench): `src/sandbox/child.ts` and the gates built by the same
 * `childBuildOptions` as `scripts/bundle.mjs`, so tests exercise the children the bundle ships. That build is
 * kept in `node_modules/.cache/skillgate-sandbox/` and reused by later processes while every file it read has
 * the same content (sha256), as a build tool's cache would; a build whose inputs changed while it ran is not
 * kept.
 */
export async function childScript(gate?: string): Promise<string> {
  return join(await childDir(), childFile(gate));
}

function childDir(): Promise<string> {
  childDirPromise ??= (async () => {
    if (isBundled) return hereDir;
    const source = existsSync(join(hereDir, "child.ts"))
      ? join(hereDir, "child.ts")
      : findUpwards("src/sandbox/child.ts");
    if (!source)
      throw new Error("cannot find the sandbox child (src/sandbox/child.ts or dist/sandbox-child/)");
    const root = resolve(dirname(source), "..", "..");
    const modules = findUpwards("node_modules");
    const cacheDir = modules ? join(modules, ".cache", "skillgate-sandbox") : undefined;
    const cached = cacheDir ? readManifest(cacheDir, root) : undefined;
    if (cacheDir && cached) return join(cacheDir, cached.key);
    const api = await esbuild();
    const outdir = mkdtempSync(join(scratchDir(), "child-"));
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
    return storeChild(cacheDir, outdir, inputs) ?? outdir;
  })();
  return childDirPromise;
}

/** Data files the child needs at run time. */
export function childAssets(): { sqlWasm: string } {
  if (isBundled) return { sqlWasm: join(hereDir, "sql-wasm.wasm") };
  for (const req of requirers()) {
    try {
      return { sqlWasm: req.resolve("sql.js/dist/sql-wasm.wasm") };
    } catch {
      // try the next resolver
    }
  }
  return { sqlWasm: join(process.cwd(), "node_modules", "sql.js", "dist", "sql-wasm.wasm") };
}
