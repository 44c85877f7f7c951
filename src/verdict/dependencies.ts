/**
 * The files a suite's checks read at grading, beyond the suite's own definition files (which weakening.ts compares
 * item by item): what each arm grades with its own checkout's copy of, so a change to any of them changes the
 * check. Per check:
 * - a `javascript` predicate: its module and every file it imports, transitively (relative `import`, `export …
 *   from`, `require()` and `import()` of a literal). The sandbox bundles exactly these and nothing else: the
 *   predicate's folder is out of its sight at run time;
 * - the oracle: its command's script and every other file of the suite folder, which is its read-only working
 *   folder (it may read any of them; which ones cannot be known without running it);
 * - any assertion: a suite file named by a string among its parameters (a gate option naming a file);
 * - a case's `files:` fixtures (compared by `compareCase`).
 * Pure over `TreeView`s: the pipeline's read the checkouts (assemble.ts), tests' hold files in memory.
 */
import { posix } from "node:path";
import { parse } from "@babel/parser";
import type { Suite } from "../model/index.js";

/** One checkout, as the comparison reads it. */
export interface TreeView {
  /** A digest of the whole file (no size cut-off); undefined when absent or not a regular file. */
  digest(rel: string): string | undefined;
  /** The text of a file to read its imports or locate a change; undefined when absent or too large to parse. */
  text(rel: string): string | undefined;
  /** Repository-relative paths of the regular files under a folder, at any depth. */
  list(dir: string): string[];
}

/** Readers of both checkouts, for comparing the files checks read (predicates, oracle scripts, fixtures). */
export type Trees = { base: TreeView; head: TreeView };

/** Which checks read a file, in words (`predicate of c/a`, `the oracle`). */
export type InputSet = Map<string, Set<string>>;

const CODE = /\.(?:[cm]?[jt]sx?)$/i;
/** What esbuild tries after a specifier without a known extension, in its order. */
const RESOLVE_EXTENSIONS = [".tsx", ".ts", ".jsx", ".js", ".css", ".json", ".mts", ".cts", ".mjs", ".cjs"];

/** The specifiers of relative imports of one module (literal ones; anything else cannot be bundled). */
export function relativeImports(source: string, file: string): string[] {
  const ts = /\.[cm]?tsx?$/i.test(file);
  let ast: unknown;
  try {
    ast = parse(source, {
      sourceType: "unambiguous",
      errorRecovery: true,
      plugins: ts ? ["typescript", ...(/x$/i.test(file) ? (["jsx"] as const) : [])] : ["jsx"],
    });
  } catch {
    return [];
  }
  const out = new Set<string>();
  const literal = (n: unknown): string | undefined => {
    const x = n as { type?: string; value?: unknown; quasis?: { value: { cooked?: string } }[] };
    if (x?.type === "StringLiteral" && typeof x.value === "string") return x.value;
    if (x?.type === "TemplateLiteral" && x.quasis?.length === 1) return x.quasis[0]?.value.cooked;
    return undefined;
  };
  const visit = (n: unknown): void => {
    if (Array.isArray(n)) {
      for (const c of n) visit(c);
      return;
    }
    if (!n || typeof n !== "object") return;
    const node = n as Record<string, unknown> & { type?: string };
    let spec: string | undefined;
    if (
      node.type === "ImportDeclaration" ||
      node.type === "ExportAllDeclaration" ||
      node.type === "ExportNamedDeclaration"
    )
      spec = literal(node.source);
    else if (node.type === "ImportExpression") spec = literal(node.source);
    else if (node.type === "CallExpression") {
      const callee = node.callee as { type?: string; name?: string };
      if (callee?.type === "Import" || (callee?.type === "Identifier" && callee.name === "require"))
        spec = literal((node.arguments as unknown[])?.[0]);
    }
    if (spec?.startsWith("./") || spec?.startsWith("../")) out.add(spec);
    for (const [k, v] of Object.entries(node)) if (k !== "loc" && k !== "start" && k !== "end") visit(v);
  };
  visit((ast as { program?: unknown }).program);
  return [...out];
}

/** The file a relative specifier names on one side, as esbuild resolves it; undefined when none exists. */
function resolveImport(view: TreeView, from: string, spec: string): string | undefined {
  const target = posix.normalize(posix.join(posix.dirname(from), spec));
  const exists = (p: string) => view.digest(p) !== undefined;
  if (exists(target)) return target;
  // `./x.js` written for a TypeScript `x.ts` (esbuild maps it).
  const swapped = /\.([cm]?)js$/.exec(target);
  if (swapped) {
    const ts = `${target.slice(0, -swapped[0].length)}.${swapped[1]}ts`;
    if (exists(ts)) return ts;
    if (exists(`${ts}x`)) return `${ts}x`;
  }
  for (const ext of RESOLVE_EXTENSIONS) if (exists(`${target}${ext}`)) return `${target}${ext}`;
  for (const ext of RESOLVE_EXTENSIONS) if (exists(`${target}/index${ext}`)) return `${target}/index${ext}`;
  return undefined;
}

/** A module and everything it imports, transitively, on one side (files that do not exist there are left out). */
export function importClosure(view: TreeView, entry: string): string[] {
  const seen = new Set<string>();
  const todo = [entry];
  while (todo.length) {
    const file = todo.pop() as string;
    if (seen.has(file) || view.digest(file) === undefined) continue;
    seen.add(file);
    if (!CODE.test(file)) continue;
    const text = view.text(file);
    if (text === undefined) continue;
    for (const spec of relativeImports(text, file)) {
      const dep = resolveImport(view, file, spec);
      if (dep && !seen.has(dep)) todo.push(dep);
    }
  }
  return [...seen];
}

/** Repository-relative path of a suite-relative one, or undefined when it leaves the suite folder. */
export function inSuite(root: string, rel: string): string | undefined {
  const p = posix.normalize(posix.join(root, rel.replace(/^\.\//, "")));
  return p === root || !p.startsWith(`${root}/`) ? undefined : p;
}

/** Every string in a parameter value, at any depth. */
function strings(v: unknown, out: string[] = []): string[] {
  if (typeof v === "string") out.push(v);
  else if (Array.isArray(v)) for (const x of v) strings(x, out);
  else if (v && typeof v === "object") for (const x of Object.values(v)) strings(x, out);
  return out;
}

/** A suite-relative file named by a command word (`node oracle.mjs`): its content is part of the oracle. */
export function commandFiles(command: string, root: string): string[] {
  return command
    .split(/\s+/)
    .filter((w) => /^[\w./-]+\.[a-z0-9]+$/i.test(w) && !w.startsWith("/") && !w.includes(".."))
    .map((w) => `${root}/${w.replace(/^\.\//, "")}`);
}

/**
 * The files each check of `suite` reads at grading on one side, beyond the suite's definition files: file → the
 * checks that read it. `exclude`: files another comparison already covers.
 */
export function checkInputs(suite: Suite, view: TreeView): InputSet {
  const inputs: InputSet = new Map();
  const add = (file: string, reader: string) => {
    const set = inputs.get(file) ?? new Set<string>();
    set.add(reader);
    inputs.set(file, set);
  };
  for (const c of suite.cases)
    for (const a of c.assertions) {
      const id = `${c.id}/${a.id}`;
      if (a.type === "javascript" && typeof a.params.module === "string") {
        const entry = inSuite(suite.root, a.params.module);
        if (entry) for (const f of importClosure(view, entry)) add(f, `the predicate of ${id}`);
      }
      for (const s of strings(a.params)) {
        const f = /^[\w./-]+$/.test(s) ? inSuite(suite.root, s) : undefined;
        if (f && view.digest(f) !== undefined) add(f, `${id} (names it)`);
      }
    }
  const oracle = suite.meta.oracle;
  if (oracle) {
    const definitions = new Set(suite.sourceFiles);
    for (const f of commandFiles(oracle.command, suite.root))
      for (const g of importClosure(view, f)) add(g, "the oracle");
    for (const f of view.list(suite.root)) if (!definitions.has(f)) add(f, "the oracle (its working folder)");
  }
  return inputs;
}

/** The 1-based line of the first difference of two texts (1 when either is unknown). */
export function firstDifferentLine(a: string | undefined, b: string | undefined): number {
  if (a === undefined || b === undefined) return 1;
  let i = 0;
  while (i < a.length && i < b.length && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  let line = 1;
  for (let k = 0; k < i; k++) if (b.charCodeAt(k) === 10) line++;
  return line;
}

/** In-memory checkouts (tests, and suites compared without a checkout): repository-relative path → content. */
export function memoryTree(files: Record<string, string>): TreeView {
  return {
    digest: (rel) => (Object.hasOwn(files, rel) ? `${files[rel]!.length}:${files[rel]}` : undefined),
    text: (rel) => (Object.hasOwn(files, rel) ? files[rel] : undefined),
    list: (dir) => Object.keys(files).filter((f) => f.startsWith(`${dir}/`)),
  };
}
