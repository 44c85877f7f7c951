import { describe, expect, it } from "vitest";
import { checkExtractor, extract } from "../../src/grade/extract.js";
import {
  evaluateCondition,
  PlaceholderError,
  placeholderNames,
  resolvePlaceholders,
} from "../../src/grade/vars.js";

describe("extractors", () => {
  it("first-number, last-line, code-block, json paths", () => {
    expect(extract("first-number", "Total −1,234.50 then 7")).toMatchObject({ ok: true, value: -1234.5 });
    expect(extract("last-line", "a\nb  \n\n")).toMatchObject({ ok: true, value: "b" });
    expect(extract("code-block", "x\n```ts\nconst a = 1;\n```\n")).toMatchObject({
      ok: true,
      value: "const a = 1;\n",
    });
    const out = 'Result:\n```json\n{"parts": [334, 333], "meta": {"n": 2}}\n```';
    expect(extract("json:parts[0]", out)).toMatchObject({ ok: true, value: 334 });
    expect(extract("json:$.meta.n", out)).toMatchObject({ ok: true, value: 2 });
    expect(extract("json:parts", 'text {"parts": [1]} trailing')).toMatchObject({ ok: true, value: [1] });
    expect(extract("json:missing", out)).toMatchObject({ ok: false });
    expect(extract("first-number", "none")).toEqual({ ok: false, reason: "no number in the output" });
    expect(checkExtractor("json:a..b")).toContain("bad json path");
    expect(checkExtractor("firstnumber")).toContain("unknown extractor");
    expect(checkExtractor("json:a.b[2]")).toBeUndefined();
  });
});

describe("placeholders", () => {
  it("keep the variable's type when alone, interpolate inside text, leave regex anchors alone", () => {
    const vars = { clusters: ["east", "west"], total: 1000, o: { n: 3 } };
    expect(
      resolvePlaceholders(
        { v: "$clusters", s: "total $total cents", p: "$o.n", r: "^\\d+$", d: "$$5" },
        vars,
      ),
    ).toEqual({
      v: ["east", "west"],
      s: "total 1000 cents",
      p: 3,
      r: "^\\d+$",
      d: "$5",
    });
    expect(() => resolvePlaceholders({ a: "$nope", b: ["x $other"] }, vars)).toThrow(PlaceholderError);
    expect(() => resolvePlaceholders({ a: "$nope" }, vars)).toThrow("unresolved placeholder $nope");
    expect(placeholderNames({ a: "$x and $y.z", b: ["$x"] })).toEqual(["x", "y"]);
  });
});

describe("conditions", () => {
  const vars = { has_k8s: true, n: 3, name: "east", empty: [] };
  it("evaluates comparisons, boolean operators and parentheses", () => {
    expect(evaluateCondition("$has_k8s", vars)).toBe(true);
    expect(evaluateCondition("!$has_k8s || $n >= 3", vars)).toBe(true);
    expect(evaluateCondition("$name == 'east' && ($n < 3 || $n == 3)", vars)).toBe(true);
    expect(evaluateCondition('$name != "east"', vars)).toBe(false);
    expect(evaluateCondition("$empty", vars)).toBe(false);
  });
  it("unknown variables and bad syntax throw", () => {
    expect(() => evaluateCondition("$missing", vars)).toThrow(PlaceholderError);
    expect(() => evaluateCondition("$n >", vars)).toThrow(/ends too early/);
    expect(() => evaluateCondition("$n $n", vars)).toThrow(/unexpected/);
    expect(() => evaluateCondition("$name > 2", vars)).toThrow(/cannot compare/);
  });
});
