// Bundles the action and CLI into self-contained files under dist/ (the Actions runtime has no node_modules).
// Usage: node scripts/bundle.mjs [OUTDIR]   (default dist; the staleness test bundles into a temp dir and compares)
import { copyFileSync, mkdirSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { childBuildOptions } from "../src/sandbox/child-build.mjs";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const outdir = resolve(process.argv[2] ?? join(root, "dist"));
const require = createRequire(import.meta.url);

/** Entry points: dist name → source. */
export const ENTRIES = {
  index: "src/main.ts",
  // the action's `post:` step: completes a check run the main step left open (cancelled, timed out)
  post: "src/post.ts",
  cli: "src/cli.ts",
};
/** Data files the bundles load at run time, copied next to them. */
const esbuildNative = dirname(require.resolve("esbuild/package.json"));
/** Native esbuild for GitHub's hosted Linux runners (NATIVE_ESBUILD_PLATFORM in src/sandbox/compile.ts). */
const nativeBinary = (() => {
  try {
    return createRequire(join(esbuildNative, "package.json")).resolve("@esbuild/linux-x64/bin/esbuild");
  } catch {
    return join(root, "node_modules/@esbuild/linux-x64/bin/esbuild");
  }
})();
export const ASSETS = {
  // The first program in a confined agent's sandbox: relays its model API connections to the egress proxy.
  "egress-relay.mjs": join(root, "src/sandbox/isolation/egress-relay.mjs"),
  // Untrusted modules are bundled in a sandboxed child running this script (plain JavaScript).
  "compile-child.mjs": join(root, "src/sandbox/compile-child.mjs"),
  // The compile child loads esbuild from these copies on linux-x64 (its JS API unbundled at
  // esbuild-native/lib/main.js, the binary at esbuild-native/bin/esbuild); elsewhere the installed package.
  "esbuild-native/package.json": join(esbuildNative, "package.json"),
  "esbuild-native/lib/main.js": join(esbuildNative, "lib/main.js"),
  "esbuild-native/bin/esbuild": nativeBinary,
  "sql-wasm.wasm": require.resolve("sql.js/dist/sql-wasm.wasm"),
};

rmSync(outdir, { recursive: true, force: true });
mkdirSync(outdir, { recursive: true });
const existing = Object.fromEntries(
  Object.entries(ENTRIES).filter(([, src]) => {
    try {
      require.resolve(join(root, src));
      return true;
    } catch {
      return false;
    }
  }),
);
const common = {
  absWorkingDir: root,
  outdir,
  bundle: true,
  platform: "node",
  target: "node20",
  format: "esm",
  minify: true,
  legalComments: "none",
  sourcemap: false,
  logLevel: "warning",
  // CJS dependencies inside an ESM bundle still call require(); give them one.
  banner: {
    js: "import { createRequire as __skillgateCreateRequire } from 'node:module'; const require = __skillgateCreateRequire(import.meta.url);",
  },
  define: { "process.env.SKILLGATE_BUNDLED": '"1"' },
};
/**
 * `@actions/core` imports its OIDC client (and with it `@actions/http-client` and undici, ~450 KB that take
 * 85–100 ms to load here) at start-up, for `getIDToken`, which skillgate never calls. In the bundle its
 * `./oidc-utils.js` is a stand-in that imports the real one when `getIDToken` is first called, so the action
 * says what it is doing before loading an HTTP stack it may never need (octokit uses Node's fetch).
 */
const lazyOidc = {
  name: "lazy-actions-core-oidc",
  setup(b) {
    b.onResolve({ filter: /^\.\/oidc-utils\.js$/ }, (args) =>
      /[\\/]@actions[\\/]core[\\/]lib[\\/]core\.js$/.test(args.importer)
        ? { path: join(dirname(args.importer), "oidc-utils.js"), namespace: "lazy-oidc" }
        : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: "lazy-oidc" }, (args) => ({
      contents: `export class OidcClient {
  static async getIDToken(audience) {
    const { OidcClient: Real } = await import(${JSON.stringify(args.path)});
    return Real.getIDToken(audience);
  }
}
`,
      resolveDir: dirname(args.path),
      loader: "js",
    }));
  },
};
const entryPoints = (entries) =>
  Object.fromEntries(Object.entries(entries).map(([name, src]) => [name, join(root, src)]));
// The action and the CLI share chunks, and what they import lazily (the pipeline, the Actions cache client) is
// compiled only when reached. Chunks sit beside the entries, so `import.meta.url` still points at dist/.
await build({
  ...common,
  entryPoints: entryPoints(existing),
  splitting: true,
  chunkNames: "chunk-[hash]",
  plugins: [lazyOidc],
});
// The sandbox children (one CommonJS file per gate, one for predicates): see src/sandbox/child-build.mjs.
await build({ ...childBuildOptions(root, outdir), logLevel: "warning" });
for (const [name, src] of Object.entries(ASSETS)) {
  mkdirSync(dirname(join(outdir, name)), { recursive: true });
  copyFileSync(src, join(outdir, name));
}
