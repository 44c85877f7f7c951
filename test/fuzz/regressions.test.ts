import { describe, expect, it } from "vitest";
import { MAX_SYNTAX_DIAGNOSTICS_PER_FILE, parseSourceFile } from "../../src/detect/source-file.js";

/** Bugs the fuzzer found, pinned. */
describe("fuzz findings", () => {
  it("a 15 KB line of `a: a: …` gives a bounded list of YAML errors, not thousands", () => {
    const text = `x: 1\n${"a: ".repeat(5000)}\n`;
    const src = parseSourceFile("s.yaml", text);
    expect(src.value).toBeUndefined();
    expect(src.diagnostics.length).toBe(MAX_SYNTAX_DIAGNOSTICS_PER_FILE);
    expect(src.diagnostics.at(-1)!.message).toMatch(/and \d+ more YAML errors/);
    for (const d of src.diagnostics) expect(d.line).toBe(2);
  });

  it("positions count lines by \\n only, so every column lies inside its line (CR, CRLF, astral characters)", () => {
    const text = 'a: "x\r\ry"\r\nb: 😀😀 [\n';
    const src = parseSourceFile("s.yaml", text);
    expect(src.at(text.indexOf("y"))).toEqual({ file: "s.yaml", line: 1, column: 8 });
    expect(src.at(text.indexOf("b:"))).toEqual({ file: "s.yaml", line: 2, column: 1 });
    expect(src.at(text.indexOf("["))).toEqual({ file: "s.yaml", line: 2, column: 9 });
    expect(src.at(text.length + 50)).toEqual({ file: "s.yaml", line: 3, column: 1 });
  });
});
