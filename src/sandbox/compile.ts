/**
 * Turns an untrusted TS/JS module (ESM or CJS, with its relative imports) into one plain JS file the sandbox
 * child can load. Runs in the parent: esbuild only parses and bundles, it never executes the module.
 *
 * Transform chain: the native `esbuild` package when running from source (fast); from `dist/` (no
 * node_modules) the `esbuild-wasm` package copied next to the bundle by `scripts/bundle.mjs`; the native
 * package is also tried from dist and the wasm one from source, so either alone is enough.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { BuildFailure, BuildOptions, BuildResult, Message } from "esbuild";

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

/** `rel` (e.g. `src/sandbox/child.ts`) in the nearest ancestor of this file or of the cwd that has it. */
export function findUpwards(rel: string): string | undefined {
  for (const start of [hereDir, process.cwd()]) {
    let dir = start;
    for (;;) {
      if (existsSync(join(dir, rel))) return join(dir, rel);
      const up = dirname(dir);
      if (up === dir) break;
      dir = up;
    }
  }
  return undefined;
}

async function loadEsbuild(): Promise<EsbuildApi> {
  const candidates: (() => EsbuildApi | Promise<EsbuildApi>)[] = [];
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

/** Compiles `modulePath` (absolute) into a fresh file under the scratch folder. */
export async function compileModule(modulePath: string): Promise<CompileOutcome> {
  let api: EsbuildApi;
  try {
    api = await esbuild();
  } catch (err) {
    return { ok: false, message: (err as Error).message };
  }
  const outDir = mkdtempSync(join(scratchDir(), "module-"));
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
        logLevel: "silent",
        absWorkingDir: dirname(modulePath),
      });
      const text = result.outputFiles?.[0]?.text ?? "";
      const file = join(outDir, format === "cjs" ? "module.cjs" : "module.mjs");
      writeFileSync(file, text);
      return { ok: true, file, format };
    } catch (err) {
      const errors = (err as BuildFailure).errors;
      const message = Array.isArray(errors)
        ? formatMessages(errors, dirname(modulePath))
        : (err as Error).message;
      if (format === "cjs" && /top-level await/i.test(message)) continue;
      return { ok: false, message: `module does not compile: ${message}` };
    }
  }
  return { ok: false, message: "module does not compile" };
}

let childPromise: Promise<string> | undefined;

/**
 * Where the child's lazily loaded chunks go, beside its entry: a child process loads only the chunks of the
 * gate it runs (the bundle splits the gates and their dependencies apart).
 */
export const CHILD_CHUNK_NAMES = "sandbox-chunks/[name]-[hash]";

/**
 * Path of the sandbox child script. From dist: `sandbox-child.js` beside the bundle (with `sandbox-chunks/`).
 * From source (tests, tsx): `src/sandbox/child.ts` bundled once per process into the scratch folder with the
 * same esbuild settings as `scripts/bundle.mjs` (code splitting, minified), so tests exercise the same child
 * the bundle ships.
 */
export function childScript(): Promise<string> {
  childPromise ??= (async () => {
    if (isBundled) return join(hereDir, "sandbox-child.js");
    const source = existsSync(join(hereDir, "child.ts"))
      ? join(hereDir, "child.ts")
      : findUpwards("src/sandbox/child.ts");
    if (!source) throw new Error("cannot find the sandbox child (src/sandbox/child.ts or sandbox-child.js)");
    const api = await esbuild();
    const outdir = mkdtempSync(join(scratchDir(), "child-"));
    await api.build({
      entryPoints: { "sandbox-child": source },
      outdir,
      // The scratch folder has no package.json saying "type": "module".
      outExtension: { ".js": ".mjs" },
      bundle: true,
      splitting: true,
      chunkNames: CHILD_CHUNK_NAMES,
      platform: "node",
      target: "node20",
      format: "esm",
      minify: true,
      legalComments: "none",
      logLevel: "silent",
      banner: {
        js: "import { createRequire as __skillgateCreateRequire } from 'node:module'; const require = __skillgateCreateRequire(import.meta.url);",
      },
    });
    return join(outdir, "sandbox-child.mjs");
  })();
  return childPromise;
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
