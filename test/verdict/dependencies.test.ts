/**
 * #27 item 1: every file a check reads at grading is compared, in full. Generated suites have predicates that
 * import helper files (import, export-from, require, dynamic import; with and without extensions; `.js` written
 * for `.ts`), helpers that import each other, files nobody imports, and sometimes an oracle. A generated PR edits
 * some files. `diffSuites` must flag exactly the edited files a check reads (by a reference: reachability over the
 * generated import graph, the oracle's whole working folder), each at the file and line that changed.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { importClosure, memoryTree, relativeImports } from "../../src/verdict/dependencies.js";
import { diffSuites } from "../../src/verdict/weakening.js";
import { assertion, caseOf, suite } from "./make-suite.js";

const ROOT = ".agent/evals/split-cents";

/** How a generated module imports helper `j` (the helper's own file name is `h<j>.<ext>`). */
const STYLES = [
  (j: number, ext: string) => `import { v${j} } from "./lib/h${j}.${ext === "ts" ? "js" : ext}";`,
  (j: number, ext: string) => `export { v${j} } from "./lib/h${j}.${ext}";`,
  (j: number, ext: string) => `const m${j} = require("./lib/h${j}.${ext}");`,
  (j: number, _ext: string) => `const d${j} = () => import("./lib/h${j}");`,
];

interface World {
  exts: string[];
  /** edges[i]: helpers helper i imports (only helpers with a larger index: no cycles needed, but allowed below). */
  edges: number[][];
  /** Helpers the predicate imports directly. */
  roots: number[];
  style: number[];
  /** Helpers the PR edits, and at which line of the file. */
  edited: number[];
  oracle: boolean;
  /** The PR also edits a file no check reads (outside the suite folder). */
  editsStranger: boolean;
}

const world: fc.Arbitrary<World> = fc.integer({ min: 1, max: 6 }).chain((n) =>
  fc.record({
    exts: fc.array(fc.constantFrom("mjs", "js", "ts", "cjs"), { minLength: n, maxLength: n }),
    edges: fc.array(fc.uniqueArray(fc.integer({ min: 0, max: n - 1 }), { maxLength: 3 }), {
      minLength: n,
      maxLength: n,
    }),
    roots: fc.uniqueArray(fc.integer({ min: 0, max: n - 1 }), { maxLength: 2 }),
    style: fc.array(fc.integer({ min: 0, max: STYLES.length - 1 }), { minLength: n, maxLength: n }),
    edited: fc.uniqueArray(fc.integer({ min: 0, max: n - 1 }), { maxLength: n }),
    oracle: fc.boolean(),
    editsStranger: fc.boolean(),
  }),
);

const helperFile = (w: World, j: number) => `${ROOT}/checks/lib/h${j}.${w.exts[j]}`;

/** The checkout of one side: a predicate, its helpers, a stray file, perhaps an oracle. */
function files(w: World, side: "base" | "head"): Record<string, string> {
  const out: Record<string, string> = {};
  const imports = (targets: number[], from: "pred" | number) =>
    targets
      .map((j) => (from === "pred" ? STYLES[w.style[j]!]! : STYLES[w.style[j]!]!)(j, w.exts[j]!))
      // helpers live beside each other: strip the `lib/` of the predicate's view
      .map((line) => (from === "pred" ? line : line.replace("./lib/", "./")))
      .join("\n");
  out[`${ROOT}/checks/pred.mjs`] = `${imports(w.roots, "pred")}\nexport default (v) => v === 334;\n`;
  w.exts.forEach((_, j) => {
    const edited = side === "head" && w.edited.includes(j);
    out[helperFile(w, j)] =
      `${imports(w.edges[j]!, j)}\nexport const v${j} = ${j};\n// limit\nexport const limit = ${edited ? 999 : 1};\n`;
  });
  out[`${ROOT}/notes/unused.txt`] = "nobody imports this";
  out["docs/other.md"] = side === "head" && w.editsStranger ? "edited" : "same";
  if (w.oracle) {
    out[`${ROOT}/oracle.mjs`] = `console.log(JSON.stringify({ total: 1000 }));\n`;
    out[`${ROOT}/data/totals.json`] = side === "head" && w.editsStranger ? '{"total": 1}' : '{"total": 1000}';
  }
  return out;
}

/** The reference: helpers reachable from the predicate over the generated edges (a plain graph walk). */
function reachable(w: World): Set<number> {
  const seen = new Set<number>();
  const todo = [...w.roots];
  while (todo.length) {
    const j = todo.pop()!;
    if (seen.has(j)) continue;
    seen.add(j);
    todo.push(...w.edges[j]!);
  }
  return seen;
}

function suiteOf(w: World) {
  const s = suite([caseOf("c", [assertion("D:p", "javascript", { module: "checks/pred.mjs" }, 4)])]);
  if (w.oracle)
    s.meta.oracle = { command: "node oracle.mjs", loc: { file: `${ROOT}/meta.json`, line: 2, column: 3 } };
  return s;
}

describe("every file a check reads is compared (#27 item 1)", () => {
  it("finds a predicate's imports in every form esbuild bundles", () => {
    const src = `import a from "./a.js";\nexport * from "../b";\nconst c = require("./c.cjs");\nconst d = await import(\`./d.mjs\`);\nimport pkg from "left-pad";\nconst e = require(name);`;
    expect(relativeImports(src, "x.mjs").sort()).toEqual(["../b", "./a.js", "./c.cjs", "./d.mjs"]);
    const tree = memoryTree({
      "s/p.ts": 'import { x } from "./lib/x.js";',
      "s/lib/x.ts": 'export * from "./y";',
      "s/lib/y/index.mjs": "export const y = 1;",
    });
    expect(importClosure(tree, "s/p.ts").sort()).toEqual(["s/lib/x.ts", "s/lib/y/index.mjs", "s/p.ts"]);
  });

  it("a loosened helper of a predicate is a blocking suite-weakened root at the helper's changed line", () => {
    const s = suite([caseOf("c", [assertion("D:p", "javascript", { module: "checks/p.mjs" }, 4)])]);
    const base = {
      [`${ROOT}/checks/p.mjs`]: 'import { ok } from "./helper.mjs";\nexport default (v) => ok(v);\n',
      [`${ROOT}/checks/helper.mjs`]: "// helper\nexport const ok = (v) => v === 334;\n",
    };
    const head = { ...base, [`${ROOT}/checks/helper.mjs`]: "// helper\nexport const ok = (v) => true;\n" };
    const f = diffSuites(s, s, undefined, undefined, { base: memoryTree(base), head: memoryTree(head) });
    expect(f).toHaveLength(1);
    expect(f[0]).toMatchObject({
      kind: "dependency-changed",
      id: `suite-weakened/dependency-changed/${ROOT}/checks/helper.mjs`,
      file: `${ROOT}/checks/helper.mjs`,
      line: 2,
      base: { file: `${ROOT}/checks/helper.mjs`, line: 2 },
    });
    expect(f[0]!.direction).toBeUndefined(); // a loosening: blocks
    expect(f[0]!.message).toMatch(/read by the predicate of c\/D:p/);
  });

  it("agrees with a reference over generated suites with helper files", () => {
    fc.assert(
      fc.property(world, (w) => {
        const s = suiteOf(w);
        const found = diffSuites(s, s, undefined, undefined, {
          base: memoryTree(files(w, "base")),
          head: memoryTree(files(w, "head")),
        });
        const reach = reachable(w);
        const expected = new Set(
          w.edited.filter((j) => reach.has(j) || w.oracle).map((j) => helperFile(w, j)),
        );
        // The oracle reads its whole working folder: its data file counts when the PR edits it.
        if (w.oracle && w.editsStranger) expected.add(`${ROOT}/data/totals.json`);
        expect(found.map((x) => x.file).sort()).toEqual([...expected].sort());
        for (const x of found) {
          expect(x.kind).toBe("dependency-changed");
          expect(x.line).toBe(x.file.endsWith(".json") ? 1 : limitLine(w, x.file));
        }
      }),
      { seed: 2711, numRuns: 300 },
    );
  });
});

/** The line of a helper's edited `limit`: after its import lines (one empty line when it has none) and two more. */
function limitLine(w: World, file: string): number {
  const j = Number(/h(\d+)\./.exec(file)![1]);
  return Math.max(1, w.edges[j]!.length) + 3;
}
