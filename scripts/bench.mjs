// Bundles bench/ (TypeScript) into a temp file with esbuild and runs it: `npm run bench [-- --json FILE]`.
// Needs `npm run bundle` first for the sections that start dist/ (cold start, bundle size).
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
// Built inside node_modules/.cache so the bundle's bare imports resolve to the repository's packages.
mkdirSync(join(root, "node_modules/.cache"), { recursive: true });
const out = mkdtempSync(join(root, "node_modules/.cache/skillgate-bench-"));
const file = join(out, "index.js");
await build({
  entryPoints: [join(root, "bench/index.ts")],
  outdir: out,
  // A chunk per section: a package one section imports (playwright-core, ~1 s of CPU to load) loads only when that
  // section runs, as bench/index.ts's lazy imports intend (one file hoisted every section's imports to its top).
  splitting: true,
  bundle: true,
  platform: "node",
  target: "node20",
  format: "esm",
  packages: "external",
  logLevel: "warning",
  define: { "import.meta.dirname": JSON.stringify(join(root, "bench")) },
  banner: {
    js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);",
  },
});
let code = 1;
try {
  const { main } = await import(pathToFileURL(file).href);
  code = await main(root, process.argv.slice(2));
} finally {
  rmSync(out, { recursive: true, force: true });
}
process.exit(code);
