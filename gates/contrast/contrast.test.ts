import { describe, expect, it } from "vitest";
import { type Reference, verdictProblems } from "../shared/reference-testing.js";
import { contrastRatio, parseColor, type Rgba } from "./colors.js";
import { pairsFromCss } from "./index.js";

const references: Reference[] = [
  { file: "good-pairs.ts" },
  { file: "good-theme.css" },
  { file: "bad-slate.ts", fails: ["pair:caption"] },
  { file: "bad-rounded-777.js", fails: ["pair:hint"] },
  { file: "bad-alpha.css", fails: ["pair:.note"] },
  { file: "bad-unknown-colour.ts", fails: ["pair:link"] },
  { file: "bad-ui-too-light.js", fails: ["pair:input-border"] },
  // AAA asks 7:1 of body text: the muted grey that passes AA fails it.
  { file: "good-pairs.ts", options: { level: "AAA" }, fails: ["pair:muted"] },
];

describe("contrast gate on reference modules", () => {
  it.each(references)("$file $options → fails $fails", async (ref) => {
    expect(await verdictProblems("contrast", ref, [1])).toBe("");
  });
});

const c = (s: string) => parseColor(s) as Rgba;

describe("WCAG 2.2 contrast", () => {
  it("matches the anchors without rounding", () => {
    expect(contrastRatio(c("#000"), c("#fff"))).toBe(21);
    expect(contrastRatio(c("#777777"), c("#ffffff"))).toBeCloseTo(4.478, 3);
    expect(contrastRatio(c("#777777"), c("#ffffff"))).toBeLessThan(4.5);
    expect(contrastRatio(c("#94a3b8"), c("white"))).toBeCloseTo(2.56, 2);
    expect(contrastRatio(c("#9ca3af"), c("white"))).toBeCloseTo(2.54, 2);
    expect(contrastRatio(c("#767676"), c("#fff"))).toBeGreaterThanOrEqual(4.5);
  });

  it("parses hex, rgb(a), hsl(a) and named colours in both syntaxes", () => {
    expect(parseColor("#abc")).toEqual({ r: 170, g: 187, b: 204, a: 1 });
    expect(parseColor("#11223380")?.a).toBeCloseTo(128 / 255);
    expect(parseColor("rgb(10, 20, 30)")).toEqual({ r: 10, g: 20, b: 30, a: 1 });
    expect(parseColor("rgba(10,20,30,.5)")).toEqual({ r: 10, g: 20, b: 30, a: 0.5 });
    expect(parseColor("rgb(100% 0% 0% / 25%)")).toEqual({ r: 255, g: 0, b: 0, a: 0.25 });
    expect(parseColor("hsl(120, 100%, 25%)")).toEqual({ r: 0, g: 127.5, b: 0, a: 1 });
    expect(parseColor("hsla(0.5turn 100% 50% / 0.5)")).toMatchObject({ r: 0, g: 255, b: 255, a: 0.5 });
    expect(parseColor("RebeccaPurple")).toEqual({ r: 102, g: 51, b: 153, a: 1 });
    for (const bad of ["blurple", "var(--x)", "currentColor", "#12", "rgb(1,2)", "rgb(1 2 3 4)"])
      expect(parseColor(bad)).toBeUndefined();
  });

  it("composites translucent text over its background", () => {
    const ratio = contrastRatio(c("rgba(0,0,0,0.35)"), c("#fff"));
    expect(ratio).toBeLessThan(4.5);
    expect(ratio).toBeGreaterThan(1);
  });

  it("reads CSS rules with positions and detects large text", () => {
    const pairs = pairsFromCss(
      "a{color:#000}\n.h { font-size: 19pt; color: #888; background: #fff }",
      "x.css",
    );
    expect(pairs).toEqual([{ fg: "#888", bg: "#fff", kind: "large-text", name: ".h", where: "x.css:2:1" }]);
  });
});
