/**
 * Issue #40: no source file over ~400 lines and no function over ~80 without a reason written beside it
 * (scripts/size-report.mjs). The units oversize when the check landed are listed in scripts/size-known.json and
 * may only shrink; a new one fails here.
 */
import { describe, expect, it } from "vitest";
import * as size from "../../scripts/size-report.mjs";

const ROOT = new URL("../..", import.meta.url).pathname;

interface Finding {
  file: string;
  name?: string;
  line?: number;
  lines: number;
  reason?: string;
}
const findings = (path: string, text: string): Finding[] => size.sizeFindings(path, text);

/** A function of `body` lines (its braces included), led by `above`. */
const fn = (name: string, body: number, above = "") =>
  `${above}export function ${name}() {\n${"  noop();\n".repeat(body - 2)}}\n`;

describe("size check (scripts/size-report.mjs)", () => {
  it("src/ and gates/ hold no new oversize unit, none grown past its listed size, and the list is true", () => {
    const c = size.checkSizes(size.sizeReport(ROOT), size.readKnown(ROOT));
    expect(c.unexcused.map(size.describeFinding), "split it, or write `// size: <reason>` beside it").toEqual(
      [],
    );
    expect(c.grown.map(size.describeFinding)).toEqual([]);
    expect(c.stale, "within the limits now: take it out of scripts/size-known.json").toEqual([]);
  }, 60_000);

  it("a function of 81 lines is found, named and located; 80 lines is within the limit", () => {
    const text = `const x = 1;\n${fn("long", 81)}${fn("fits", 80)}`;
    expect(findings("a.ts", text)).toEqual([
      { file: "a.ts", name: "long", line: 2, lines: 81, reason: undefined },
    ]);
  });

  it("arrow functions and methods are named by their variable and class", () => {
    const arrow = `export const load = async () => {\n${"  noop();\n".repeat(80)}};\n`;
    const method = `class Reader {\n  read() {\n${"    noop();\n".repeat(80)}  }\n}\n`;
    expect(findings("b.ts", arrow + method).map((f) => [f.name, f.lines])).toEqual([
      ["load", 82],
      ["Reader.read", 82],
    ]);
  });

  it("a file of 401 lines is found; 400 is within the limit", () => {
    expect(findings("c.ts", "noop();\n".repeat(401))).toEqual([
      { file: "c.ts", lines: 401, reason: undefined },
    ]);
    expect(findings("c.ts", "noop();\n".repeat(400))).toEqual([]);
  });

  it("a written `size:` reason beside the unit excuses it; an empty or one-word one does not", () => {
    const reasoned = fn(
      "table",
      90,
      "// The parser's table, one case per token kind.\n// size: one flat switch reads best\n",
    );
    expect(findings("d.ts", reasoned)[0]?.reason).toBe("one flat switch reads best");
    const onLine = `export const rows = () => { // size: the rows of one table, in order\n${"  noop();\n".repeat(80)}};\n`;
    expect(findings("d.ts", onLine)[0]?.reason).toBe("the rows of one table, in order");
    expect(findings("d.ts", fn("table", 90, "// size: long\n"))[0]?.reason).toBeUndefined();
    expect(findings("d.ts", fn("table", 90, "// size:\n"))[0]?.reason).toBeUndefined();
    // a reason above another statement does not excuse this one
    expect(
      findings("d.ts", `// size: the rows of one table, in order\nconst a = 1;\n${fn("t", 90)}`)[0]?.reason,
    ).toBeUndefined();
    const file = `// Generated tables.\n// size: generated from the spec, one table per file\n${"noop();\n".repeat(401)}`;
    expect(findings("e.ts", file)[0]?.reason).toBe("generated from the spec, one table per file");
  });

  it("a new oversize unit fails the check, a grown known one too, and a listed unit now small is stale", () => {
    const found = [
      { file: "a.ts", name: "f", line: 1, lines: 90 },
      { file: "b.ts", lines: 450 },
      { file: "c.ts", name: "g", line: 3, lines: 85, reason: "a written reason here" },
    ];
    const c = size.checkSizes(found, { "b.ts": 440, "gone.ts": 500 });
    expect(c.unexcused.map(size.unitKey)).toEqual(["a.ts#f"]);
    expect(c.grown.map(size.unitKey)).toEqual(["b.ts"]);
    expect(c.stale).toEqual(["gone.ts"]);
    expect(size.checkSizes(found.slice(1, 2), { "b.ts": 450 })).toMatchObject({
      unexcused: [],
      grown: [],
      stale: [],
    });
  });
});
