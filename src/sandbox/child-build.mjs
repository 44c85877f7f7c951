// @ts-check
/**
 * How the sandbox children are built: shared by `scripts/bundle.mjs` (dist/) and `childScript()` in
 * compile.ts (from source, cached under node_modules/.cache), so tests run the children the bundle ships.
 *
 * One CommonJS file per gate, plus one for predicates. Each holds the child's entry (src/sandbox/child.ts) and
 * one gate's collector (`gates/<id>/probe.ts`) with its dependencies (sql.js for tenant-isolation), and
 * nothing else: the probes' generation (fast-check) and the judging run in the parent. A child is a fresh
 * Node process per gate run, so its start-up is paid every time: a CommonJS entry spares Node 20 its ESM
 * loader (~45 ms of CPU per child here, against an empty file), and one file per gate means the child
 * compiles only the code it runs.
 */
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";

/** Folder of the child files, inside the output folder (dist/ or the cache). */
export const CHILD_DIR = "sandbox-child";
const ENTRY_PREFIX = "skillgate-child:";

/**
 * Output name (no extension) of the child that runs gate `gate`, or predicates when undefined.
 * @param {string | undefined} gate
 */
function childName(gate) {
  return `${CHILD_DIR}/${gate === undefined ? "predicate" : `gate-${gate}`}`;
}

/**
 * The preload of gate `gate`'s child (`gates/<id>/preload.ts`, for the gates that have one), relative to the
 * child files' folder.
 * @param {string} gate
 */
export function preloadFile(gate) {
  return `preload-${gate}.cjs`;
}

/**
 * The child file that runs gate `gate` (or predicates, when undefined), relative to the output folder.
 * @param {string | undefined} gate
 */
export function childFile(gate) {
  return `${childName(gate)}.cjs`;
}

/**
 * The gates: one folder each under gates/ with an index.ts (the judge, run in skillgate's process) and a
 * probe.ts (the collector, run in the child); a test holds this list equal to GATE_IDS.
 * @param {string} root repository root
 */
export function gateFolders(root) {
  return readdirSync(join(root, "gates"), { withFileTypes: true })
    .filter((e) => e.isDirectory() && existsSync(join(root, "gates", e.name, "probe.ts")))
    .map((e) => e.name)
    .sort();
}

/**
 * esbuild options for every child file. Entries are virtual: `serveChild(gate, load)` with the gate's collector
 * imported lazily, so the gate's V8 flags are set before its code (and its dependencies) is evaluated. A gate
 * with a `preload.ts` gets a preload file of its own too.
 * @param {string} root repository root
 * @param {string} outdir
 * @returns {import("esbuild").BuildOptions}
 */
export function childBuildOptions(root, outdir) {
  const gates = gateFolders(root);
  const preloads = gates.filter((g) => existsSync(join(root, "gates", g, "preload.ts")));
  const entryPoints = {
    ...Object.fromEntries([undefined, ...gates].map((g) => [childName(g), `${ENTRY_PREFIX}${g ?? ""}`])),
    ...Object.fromEntries(
      preloads.map((g) => [
        `${CHILD_DIR}/${preloadFile(g).replace(/\.cjs$/, "")}`,
        join(root, "gates", g, "preload.ts"),
      ]),
    ),
  };
  const child = join(root, "src", "sandbox", "child.ts");
  /** @type {import("esbuild").Plugin} */
  const entries = {
    name: "skillgate-child-entries",
    setup(b) {
      b.onResolve({ filter: /^skillgate-child:/ }, (args) => ({
        path: args.path,
        namespace: "skillgate-child",
      }));
      b.onLoad({ filter: /.*/, namespace: "skillgate-child" }, (args) => {
        const gate = args.path.slice(ENTRY_PREFIX.length);
        const load = gate
          ? `() => import(${JSON.stringify(join(root, "gates", gate, "probe.ts"))})`
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
