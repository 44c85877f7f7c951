/**
 * Issue #33: no import circles in src/. A circle makes module start-up order matter (a value read before its
 * module ran is `undefined`), and it hides which stage depends on which. Type-only imports are erased by the
 * compiler and do not count.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { describe, expect, it } from "vitest";

const SRC = join(import.meta.dirname, "../../src");

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith(".ts") ? [join(dir, e.name)] : [],
  );
}

/** The modules a file imports at run time (relative specifiers; `import type` and `export type` left out). */
function runtimeImports(file: string, text: string): string[] {
  const out: string[] = [];
  const statement = /^(?:import|export)\s+(?!type\b)(?:[^;]*?\sfrom\s+)?"(\.[^"]+)"/gm;
  for (const m of text.matchAll(statement)) {
    let target = join(dirname(file), m[1]!.replace(/\.js$/, ".ts"));
    try {
      if (statSync(target.replace(/\.ts$/, "")).isDirectory())
        target = join(target.replace(/\.ts$/, ""), "index.ts");
    } catch {}
    out.push(target);
  }
  return out;
}

/** Strongly connected components of more than one module (Tarjan). */
function circles(graph: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let next = 0;
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      for (let w = stack.pop()!; ; w = stack.pop()!) {
        onStack.delete(w);
        component.push(w);
        if (w === v) break;
      }
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

describe("src/", () => {
  it("has no import circles", () => {
    const graph = new Map(sourceFiles(SRC).map((f) => [f, runtimeImports(f, readFileSync(f, "utf8"))]));
    expect(graph.size).toBeGreaterThan(100);
    expect(circles(graph).map((c) => c.map((f) => relative(SRC, f)).join(" ↔ "))).toEqual([]);
  });

  it("finds a circle when there is one (the check can fail)", () => {
    const graph = new Map([
      ["a.ts", ["b.ts"]],
      ["b.ts", ["c.ts"]],
      ["c.ts", ["a.ts"]],
      ["d.ts", ["a.ts"]],
    ]);
    expect(circles(graph)).toEqual([["a.ts", "b.ts", "c.ts"]]);
    expect(
      runtimeImports("/x/y.ts", 'import type { T } from "./t.js";\nimport { u } from "./u.js";\n'),
    ).toEqual(["/x/u.ts"]);
  });
});
