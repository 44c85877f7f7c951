/**
 * Turns an untrusted TS/JS module (ESM or CJS, with its relative imports) into one plain JS file the sandbox
 * child can load. esbuild runs in a sandboxed compile child (compile-child.mjs), never in skillgate's process:
 * bundling reads files, and an import can name any file (`/proc/self/environ` with `{type: "text"}`,
 * `../../.git/config`, `/dev/zero`).
 *
 * One esbuild, native: from `dist/` on linux-x64 (GitHub's hosted Ubuntu runners, where the Action's sandbox
 * runs) the binary `scripts/bundle.mjs` ships in `dist/esbuild-native/`; everywhere else, and from source, the
 * installed `esbuild` package, whose optional dependency is that platform's binary. No wasm fallback: it paid
 * ~0.7 s of WebAssembly compile per sandboxed compile child for platforms the Action's dist does not serve.
 */
import { chmodSync, existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import type { BuildOptions, BuildResult, Message } from "esbuild";
import { findUpwards as findUpwardsFrom } from "../util/find-upwards.js";
import { sha256OfFile } from "../util/read-file.js";
import { childFile } from "./child-build.mjs";
import { childrenFromSource } from "./child-cache.js";
import { scrubbedEnv } from "./env.js";
import { isolation } from "./isolation/detect.js";
import type { ConfineLimits } from "./isolation/types.js";
import { MIB, spawnLimited } from "./process.js";
import { closedToOthers, readableCopy } from "./readable-copy.js";

/** OS limits of the compile child: Node and esbuild's threads, no file written but the answer. */
const COMPILE_CONFINE_LIMITS: ConfineLimits = Object.freeze({
  processes: 256,
  fileSizeBytes: 1024 * 1024,
  tmpBytes: 16 * 1024 * 1024,
  openFiles: 1024,
  // The run's own cap (its rssLimitMb) replaces these two (process.ts): here only so the record is whole.
  dataBytes: 1024 * MIB,
  memoryBytes: 1024 * MIB,
});

type EsbuildApi = { build(options: BuildOptions): Promise<BuildResult> };

const isBundled = process.env.SKILLGATE_BUNDLED === "1";
/** Folder of this file at run time: `dist/` when bundled, `src/sandbox/` from source. */
const hereDir = dirname(fileURLToPath(import.meta.url));

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

/** esbuild's JS API in this process (building the sandbox children from source): the files the compile child uses. */
async function loadEsbuild(): Promise<EsbuildApi> {
  const files = esbuildFiles();
  // esbuild's JS API reads ESBUILD_BINARY_PATH once, when it loads; nothing else sees the variable.
  const before = process.env.ESBUILD_BINARY_PATH;
  process.env.ESBUILD_BINARY_PATH = files.binary;
  try {
    return createRequire(import.meta.url)(files.main) as EsbuildApi;
  } finally {
    if (before === undefined) delete process.env.ESBUILD_BINARY_PATH;
    else process.env.ESBUILD_BINARY_PATH = before;
  }
}

/** Bundled and on the platform whose binary dist/ ships. */
function shipsNativeEsbuild(): boolean {
  return isBundled && `${process.platform}-${process.arch}` === NATIVE_ESBUILD_PLATFORM;
}

/** Why no esbuild was found, and what to do about it. */
function noEsbuildMessage(errors: string[]): string {
  const platform = `${process.platform}-${process.arch}`;
  const fix = !isBundled
    ? "run `npm ci` in skillgate's folder: the esbuild dependency brings this platform's binary"
    : platform === NATIVE_ESBUILD_PLATFORM
      ? "dist/esbuild-native/ is incomplete: restore dist/ as committed (or run `npm run bundle`)"
      : `dist/ ships esbuild for ${NATIVE_ESBUILD_PLATFORM} only (GitHub's ubuntu-* runners): run the Action there, or install skillgate with npm on ${platform} so its esbuild dependency brings this platform's binary`;
  return `no esbuild for ${platform}: ${fix} (${errors.join("; ")})`;
}

/** The platform whose native esbuild binary `scripts/bundle.mjs` ships in `dist/esbuild-native/`. */
const NATIVE_ESBUILD_PLATFORM = "linux-x64";

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
      if (!m?.location || typeof m.location.file !== "string") return String(m?.text);
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

/** Time and memory a compile may take (esbuild is fast: a second is a large module on a busy machine). */
const COMPILE_LIMITS = Object.freeze({ timeoutMs: 30_000, memoryMb: 1024 });
/** Bundled code kept from the compile child; a module beyond it does not compile. */
const MAX_COMPILED_BYTES = 32 * 1024 * 1024;

/** Where esbuild lives on disk: its JS API's `lib/main.js`, its binary and the folders to bind. */
export interface EsbuildFiles {
  main: string;
  binary: string;
  folders: string[];
}

function esbuildFiles(): EsbuildFiles {
  const packageOf = (main: string) => dirname(dirname(main));
  const candidates: (() => EsbuildFiles)[] = [];
  if (shipsNativeEsbuild()) {
    const dir = join(hereDir, "esbuild-native");
    candidates.push(() => ({
      main: join(dir, "lib", "main.js"),
      binary: join(dir, "bin", "esbuild"),
      folders: [dir],
    }));
  }
  // esbuild's JS API cannot be bundled: always the installed package's, never an inlined copy.
  for (const req of requirers())
    candidates.push(() => {
      const main = req.resolve("esbuild");
      const binary = createRequire(main).resolve(`@esbuild/${process.platform}-${process.arch}/bin/esbuild`);
      return { main, binary, folders: [packageOf(main), dirname(dirname(binary))] };
    });
  const errors: string[] = [];
  for (const find of candidates) {
    try {
      const files = find();
      if (existsSync(files.main) && existsSync(files.binary)) return files;
      errors.push(`${existsSync(files.main) ? files.binary : files.main} is missing`);
    } catch (err) {
      errors.push((err as Error).message.split("\n")[0] ?? "");
    }
  }
  throw new Error(noEsbuildMessage(errors));
}

/** The compile child's script: beside the bundle in dist/, beside this file from source. */
function compileChildScript(): string {
  const here = join(hereDir, COMPILE_CHILD);
  return existsSync(here) ? here : (findUpwards(join("src", "sandbox", COMPILE_CHILD)) ?? here);
}

const COMPILE_CHILD = "compile-child.mjs";

interface ChildAnswer {
  ok: boolean;
  format?: "cjs" | "esm";
  code?: string;
  inputs?: string[];
  errors?: Message[];
}

function within(path: string, root: string): boolean {
  const rel = relative(root, path);
  return rel === "" || (!rel.startsWith(`..${sep}`) && rel !== ".." && !isAbsolute(rel));
}

/**
 * Compiles `modulePath` (absolute) in the compile child, confined to `root`, into a fresh file under the scratch
 * folder. The child runs inside the sandbox (bubblewrap where the machine has it) with a time and memory limit and
 * the scrubbed environment; its answer is data: the bundled code and the files it read.
 */
async function buildModule(modulePath: string, root: string): Promise<Built> {
  // No esbuild here is this machine's fault, not the module's: it throws (the gate could not run, exit 3).
  const files = esbuildFiles();
  const script = compileChildScript();
  // The sandbox uid reads the module's folder through its mode bits: a folder closed to it is copied for it.
  const copy =
    (await isolation()).level === "uid+namespaces" && closedToSandbox(modulePath, root)
      ? readableCopy(root, scratchDir())
      : undefined;
  try {
    const built = await compileIn(
      copy?.dir ?? root,
      join(copy?.dir ?? root, relative(root, modulePath)),
      files,
      script,
    );
    // What the compile read, as the module's own files (the copy goes; the originals are what may change).
    if (copy && built.inputs)
      built.inputs = new Map(
        [...built.inputs].map(([file, hash]) => [join(root, relative(copy.dir, file)), hash] as const),
      );
    return built;
  } finally {
    copy?.remove();
  }
}

/** Whether the sandbox uid ("others") could not read the module where it lies (`uid+namespaces` only). */
function closedToSandbox(modulePath: string, root: string): boolean {
  return closedToOthers(root) || (statSync(modulePath).mode & 0o004) === 0;
}

/** Compiles `modulePath` in the compile child, its folder `root` bound read-only. */
async function compileIn(
  root: string,
  modulePath: string,
  files: EsbuildFiles,
  script: string,
): Promise<Built> {
  let answer = "";
  let tooLarge = false;
  const out = await spawnLimited({
    command: process.execPath,
    args: ["--max-old-space-size=256", script],
    cwd: root,
    env: scrubbedEnv({ ESBUILD_BINARY_PATH: files.binary }),
    stdin: JSON.stringify({ entry: modulePath, root, esbuild: files.main }),
    timeoutMs: COMPILE_LIMITS.timeoutMs,
    rssLimitMb: COMPILE_LIMITS.memoryMb,
    resultChannel: true,
    onResultChunk: (chunk) => {
      if (answer.length + chunk.length > MAX_COMPILED_BYTES) tooLarge = true;
      else answer += chunk;
    },
    confine: {
      readOnly: [process.execPath, script, ...files.folders, root],
      limits: COMPILE_CONFINE_LIMITS,
    },
  });
  const fail = (message: string): Built => ({
    outcome: { ok: false, message: `module does not compile: ${message}` },
  });
  if (tooLarge) return fail(`the bundle is larger than ${MAX_COMPILED_BYTES} bytes`);
  if (out.killedFor === "timeout")
    return fail(`the compile took longer than ${COMPILE_LIMITS.timeoutMs} ms (killed)`);
  if (out.killedFor === "memory")
    return fail(`the compile used more than ${COMPILE_LIMITS.memoryMb} MiB (killed)`);
  let reply: ChildAnswer;
  try {
    reply = JSON.parse(answer) as ChildAnswer;
  } catch {
    const why =
      out.spawnError ??
      (out.stderr.trim().split("\n").slice(-3).join(" ") || `exit ${out.exitCode ?? out.signal}`);
    return fail(`the compiler gave no answer (${why})`);
  }
  if (!reply.ok || typeof reply.code !== "string" || (reply.format !== "cjs" && reply.format !== "esm"))
    return fail(formatMessages(reply.errors ?? [{ text: "no output" } as Message], root));
  const outDir = mkdtempSync(join(scratchDir(), "module-"));
  // Made for this module: readable by a sandbox uid once bound into its sandbox (mkdtemp makes it 0700).
  chmodSync(outDir, 0o755);
  const file = join(outDir, reply.format === "cjs" ? "module.cjs" : "module.mjs");
  writeFileSync(file, reply.code, { mode: 0o644 });
  const inputs = new Map<string, string>();
  // Only files inside the module's folder are inputs (the answer is the sandbox's word, not to be trusted).
  for (const input of reply.inputs ?? [])
    if (typeof input === "string" && within(resolve(root, input), root))
      inputs.set(resolve(root, input), digest(resolve(root, input)) ?? "");
  return { outcome: { ok: true, file, format: reply.format }, inputs };
}

/** Compiled modules of this process by path: several gates (and predicates) on one module compile it once. */
const compiledModules = new Map<string, Promise<Built>>();

function stillCurrent(built: Built): boolean {
  if (!built.outcome.ok || !built.inputs || built.inputs.size === 0) return false;
  for (const [file, hash] of built.inputs) if (digest(file) !== hash) return false;
  return true;
}

/**
 * The module (absolute path) compiled into one JS file under the scratch folder, its imports confined to `root`
 * (default: the module's own folder). A compile of this process is reused while every file it read (the module,
 * its relative imports, packages inside `root`) has the same content; concurrent calls for one module share one
 * compile. Failed compiles are not kept.
 */
export async function compileModule(
  modulePath: string,
  root: string = dirname(modulePath),
): Promise<CompileOutcome> {
  const key = `${root}\0${modulePath}`;
  const pending = compiledModules.get(key);
  if (pending) {
    const built = await pending;
    if (stillCurrent(built)) return built.outcome;
    if (compiledModules.get(key) === pending) compiledModules.delete(key);
  }
  const fresh = compiledModules.get(key) ?? buildModule(modulePath, root);
  compiledModules.set(key, fresh);
  // A build that threw (a folder that cannot be handed to the sandbox) is not kept either.
  const built = await fresh.catch((err: unknown) => {
    if (compiledModules.get(key) === fresh) compiledModules.delete(key);
    throw err;
  });
  if (!built.outcome.ok && compiledModules.get(key) === fresh) compiledModules.delete(key);
  return built.outcome;
}

let childDirPromise: Promise<string> | undefined;

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
    return childrenFromSource(root, { cacheDir, esbuild, scratch: scratchDir });
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
