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

  it("a long line of `a: a: …` after a document marker is a located syntax error, not a stack overflow", () => {
    const text = `{"evals": []}\n---\nsecond: doc\n...\n\n${"a: ".repeat(5000)}\n---\nx: 1\n`;
    for (const file of ["evals.json", "suite.yaml"]) {
      const src = parseSourceFile(file, text);
      expect(src.value).toBeUndefined();
      expect(src.diagnostics[0]).toMatchObject({ file, severity: "error" });
      expect(src.locate(["evals"])).toEqual({ file, line: 1, column: 1 });
    }
    expect(parseSourceFile("suite.yaml", text).diagnostics[0]).toMatchObject({ line: 1, column: 1 });
    expect(parseSourceFile("suite.yaml", text).diagnostics[0]!.message).toBe(
      "invalid YAML: nesting too deep to parse",
    );
  });
});
