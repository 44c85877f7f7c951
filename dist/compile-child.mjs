// @ts-check
/**
 * The compile child: bundles one untrusted module with esbuild inside the sandbox (never in skillgate's process,
 * never with its environment) and answers with the bundled code as data on fd 3.
 *
 * Resolution is confined to the module's folder (`root`): every import must resolve to a JavaScript, TypeScript
 * or JSON file inside it (after following links); absolute paths, `..` out of it, other file types (text, binary,
 * data-URL loaders) and import attributes (`with { type: "text" }`) are errors. Node's built-in modules stay
 * external. The sandbox binds nothing else of the disk, so this is the second wall, not the only one.
 *
 * Plain JavaScript with no imports but Node's and the esbuild API it is given, like egress-relay.mjs: it is run from
 * source and copied as is into dist/.
 *
 * stdin: {"entry": abs path, "root": abs folder, "esbuild": abs path of esbuild's lib/main.js}
 * fd 3:  {"ok": true, "format": "cjs"|"esm", "code": string, "inputs": [abs paths]}
 *        | {"ok": false, "errors": [{"text", "location"?: {"file", "line", "column"}}]}
 */
import { readFileSync, realpathSync, writeSync } from "node:fs";
import { builtinModules, createRequire } from "node:module";
import { isAbsolute, relative, resolve, sep } from "node:path";

/** What an import may resolve to. */
const IMPORTABLE = /\.(?:[cm]?[jt]sx?|json)$/i;
const RESULT_FD = 3;
const CONFINED = "skillgate-confined";

/** @param {string} path @param {string} root */
function inside(path, root) {
  const rel = relative(root, path);
  return rel === "" || (!rel.startsWith(`..${sep}`) && rel !== ".." && !isAbsolute(rel));
}

/** @param {string} spec */
function isBuiltin(spec) {
  return spec.startsWith("node:") || builtinModules.includes(spec.split("/")[0] ?? "");
}

/**
 * @param {string} root real path of the module's folder
 * @returns {import("esbuild").Plugin}
 */
function confine(root) {
  return {
    name: "skillgate-confine",
    setup(build) {
      build.onResolve({ filter: /.*/ }, async (args) => {
        if (args.pluginData === CONFINED || args.kind === "entry-point") return undefined;
        const refuse = (/** @type {string} */ text) => ({ errors: [{ text }] });
        if (args.with && Object.keys(args.with).length > 0)
          return refuse(
            `import attributes are not allowed (${JSON.stringify(args.path)} with ${JSON.stringify(args.with)})`,
          );
        if (isBuiltin(args.path)) return { path: args.path, external: true };
        if (isAbsolute(args.path) || /^[a-z]+:/i.test(args.path))
          return refuse(
            `${JSON.stringify(args.path)}: absolute paths and URLs are not allowed; imports stay in the module's folder`,
          );
        const found = await build.resolve(args.path, {
          kind: args.kind,
          importer: args.importer,
          resolveDir: args.resolveDir,
          pluginData: CONFINED,
        });
        if (found.errors.length > 0) return { errors: found.errors };
        if (found.external)
          return refuse(`${JSON.stringify(args.path)} would stay external: only Node's built-in modules may`);
        let real;
        try {
          real = realpathSync(found.path);
        } catch {
          return refuse(`${JSON.stringify(args.path)} does not resolve to a file`);
        }
        if (!inside(real, root))
          return refuse(`${JSON.stringify(args.path)} resolves outside the module's folder`);
        if (!IMPORTABLE.test(real))
          return refuse(
            `${JSON.stringify(args.path)}: only JavaScript, TypeScript and JSON files may be imported`,
          );
        return { path: real, sideEffects: found.sideEffects };
      });
    },
  };
}

/** @param {unknown} msg */
function answer(msg) {
  writeSync(RESULT_FD, `${JSON.stringify(msg)}\n`);
}

async function main() {
  const req = JSON.parse(readFileSync(0, "utf8"));
  const root = realpathSync(req.root);
  const entry = realpathSync(req.entry);
  if (!inside(entry, root))
    return answer({ ok: false, errors: [{ text: "the module lies outside its own folder" }] });
  /** @type {import("esbuild")} */
  const esbuild = createRequire(req.esbuild)(req.esbuild);
  // CJS first (loads synchronously with require); top-level await needs ESM output.
  for (const format of /** @type {const} */ (["cjs", "esm"])) {
    try {
      const result = await esbuild.build({
        entryPoints: [entry],
        bundle: true,
        platform: "node",
        target: "node20",
        format,
        write: false,
        metafile: true,
        logLevel: "silent",
        absWorkingDir: root,
        plugins: [confine(root)],
      });
      const inputs = Object.keys(result.metafile?.inputs ?? {}).map((f) => resolve(root, f));
      return answer({ ok: true, format, code: result.outputFiles?.[0]?.text ?? "", inputs });
    } catch (err) {
      const errors = /** @type {{ errors?: { text?: unknown, location?: unknown }[] }} */ (err).errors;
      const list = Array.isArray(errors)
        ? errors
        : [{ text: String(/** @type {Error} */ (err).message ?? err) }];
      if (format === "cjs" && list.some((e) => /top-level await/i.test(String(e?.text)))) continue;
      return answer({
        ok: false,
        errors: list.map((e) => ({ text: String(e?.text), location: e?.location ?? undefined })),
      });
    }
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    answer({ ok: false, errors: [{ text: `the compiler failed: ${err?.message ?? err}` }] });
    process.exit(0);
  },
);
