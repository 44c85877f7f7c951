// @ts-check
/**
 * How the sandbox children are built: shared by `scripts/bundle.mjs` (dist/) and `childScript()` in
 * compile.ts (from source, cached under node_modules/.cache), so tests run the children the bundle ships.
 *
 * One CommonJS file per gate, plus one for predicates. Each holds the child's entry (src/sandbox/child.ts) and
 * the code of one gate with its dependencies (sql.js, postcss…), and nothing else. A child is a fresh Node
 * process per gate run, so its start-up is paid every time: a CommonJS entry spares Node 20 its ESM loader
 * (~45 ms of CPU per child here, against an empty file), and one file per gate means the child compiles only
 * the code it runs. fast-check, which six gates use, is one file beside them (`fast-check.cjs`) that they
 * require: a third-party library with no state of ours, loaded once per child like the rest.
 */
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";

/** Folder of the child files, inside the output folder (dist/ or the cache). */
export const CHILD_DIR = "sandbox-child";
const ENTRY_PREFIX = "skillgate-child:";

/** The library the gate files share, built as a file of its own beside them. */
const SHARED_LIBRARY = "fast-check";

/**
 * Output name (no extension) of the child that runs gate `gate`, or predicates when undefined.
 * @param {string | undefined} gate
 */
function childName(gate) {
  return `${CHILD_DIR}/${gate === undefined ? "predicate" : `gate-${gate}`}`;
}

/**
 * The child file that runs gate `gate` (or predicates, when undefined), relative to the output folder.
 * @param {string | undefined} gate
 */
export function childFile(gate) {
  return `${childName(gate)}.cjs`;
}

/**
 * The gates: one folder each under gates/ with an index.ts (a test holds this list equal to GATE_IDS).
 * @param {string} root repository root
 */
export function gateFolders(root) {
  return readdirSync(join(root, "gates"), { withFileTypes: true })
    .filter((e) => e.isDirectory() && existsSync(join(root, "gates", e.name, "index.ts")))
    .map((e) => e.name)
    .sort();
}

/**
 * esbuild options for every child file. Entries are virtual: `serveChild(gate, load)` with the gate's module
 * imported lazily, so the gate's V8 flags are set before its code (and its dependencies) is evaluated.
 * @param {string} root repository root
 * @param {string} outdir
 * @returns {import("esbuild").BuildOptions}
 */
export function childBuildOptions(root, outdir) {
  const gates = gateFolders(root);
  const entryPoints = {
    ...Object.fromEntries([undefined, ...gates].map((g) => [childName(g), `${ENTRY_PREFIX}${g ?? ""}`])),
    [`${CHILD_DIR}/${SHARED_LIBRARY}`]: SHARED_LIBRARY,
  };
  const child = join(root, "src", "sandbox", "child.ts");
  /** @type {import("esbuild").Plugin} */
  const entries = {
    name: "skillgate-child-entries",
    setup(b) {
      // Imported from a child file: required from the shared file beside it.
      b.onResolve({ filter: new RegExp(`^${SHARED_LIBRARY}$`) }, (args) =>
        args.kind === "entry-point" ? undefined : { path: `./${SHARED_LIBRARY}.cjs`, external: true },
      );
      b.onResolve({ filter: /^skillgate-child:/ }, (args) => ({
        path: args.path,
        namespace: "skillgate-child",
      }));
      b.onLoad({ filter: /.*/, namespace: "skillgate-child" }, (args) => {
        const gate = args.path.slice(ENTRY_PREFIX.length);
        const load = gate
          ? `() => import(${JSON.stringify(join(root, "gates", gate, "index.ts"))})`
          : "undefined";
        return {
          contents: `import { serveChild } from ${JSON.stringify(child)};\nserveChild(${gate ? JSON.stringify(gate) : "undefined"}, ${load});\n`,
          resolveDir: root,
          loader: "ts",
        };
      });
    },
  };
  return {
    absWorkingDir: root,
    entryPoints,
    outdir,
    outExtension: { ".js": ".cjs" },
    bundle: true,
    platform: "node",
    target: "node20",
    format: "cjs",
    minify: true,
    legalComments: "none",
    logLevel: "silent",
    metafile: true,
    plugins: [entries],
  };
}
