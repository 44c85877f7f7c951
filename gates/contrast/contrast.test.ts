import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { fixture, type Reference, TEST_SEEDS, verdictProblems } from "../shared/reference-testing.js";
import { findChromium } from "./chromium.js";
import { contrastRatio, parseColor, type Rgba } from "./colors.js";
import { checkPair, pairsFromCss } from "./index.js";

const references: Reference[] = [
  { file: "good-pairs.ts" },
  { file: "bad-slate.ts", fails: ["pair:caption"] },
  { file: "bad-rounded-777.js", fails: ["pair:hint"] },
  { file: "bad-unknown-colour.ts", fails: ["pair:link"] },
  { file: "bad-ui-too-light.js", fails: ["pair:input-border"] },
  // AAA asks 7:1 of body text: the muted grey that passes AA fails it.
  { file: "good-pairs.ts", options: { level: "AAA" }, fails: ["pair:muted"] },
];

describe("contrast gate on reference modules (pairs export)", () => {
  it.each(references)("$file $options → fails $fails", async (ref) => {
    expect(await verdictProblems("contrast", ref, [1])).toBe("");
  });
});

/**
 * CSS and HTML modules, judged on Chromium's cascade. Each bad one is a class the former per-rule pairing
 * (`pairsFromCss`: a rule with both `color` and a background) let through: `oldVerdict` shows it passed.
 */
const cascadeReferences: (Reference & { old?: "passes" | "fails" })[] = [
  { file: "good-theme.css" },
  { file: "good-cascade.css" },
  // <details>: its shadow root's unrendered fallback <summary> is no text on the page
  { file: "good-details.html" },
  { file: "bad-alpha.css", fails: ["text:.note"], old: "fails" },
  // (1) colour and background in different rules
  { file: "bad-split-rules.css", fails: ["text:.muted"], old: "passes" },
  // (2) a background inherited from the parent element's selector
  { file: "bad-inherited-bg.css", fails: ["text:.card .title"], old: "passes" },
  // (3) a later rule overrides a good colour with a bad one
  { file: "bad-override.css", fails: ["text:.alert"], old: "passes" },
  // (4) a gradient background-image behind light text, its fallback colour fine
  { file: "bad-gradient.css", fails: ["text:.hero"], old: "passes" },
  // (5) opacity on a container whose text passes without it
  { file: "bad-opacity.css", fails: ["text:.toast"], old: "passes" },
  // (6) an HTML page: a <style> rule and an inline style on an inherited dark background
  {
    file: "bad-page.html",
    fails: ["text:body > div.plan > p.note", "text:body > div.plan > p"],
    old: "passes",
  },
  // Page scripts are disabled: this one's script would repaint the failing note white.
  { file: "bad-script-repaints.html", fails: ["text:body > p.note"] },
];

/** What the former per-rule logic said: every pair it found passed (and it found some). */
function oldVerdict(file: string): "passes" | "fails" {
  let css = readFileSync(fixture("contrast", file), "utf8");
  if (file.endsWith(".html"))
    css = [...css.matchAll(/<style>([\s\S]*?)<\/style>/g)].map((m) => m[1]).join("\n");
  const pairs = pairsFromCss(css, file);
  return pairs.length > 0 && pairs.every((p, i) => checkPair(p, i, "AA").passed) ? "passes" : "fails";
}

// Chromium is needed here; on CI (which installs it, .ci/run) these must run, never skip.
const browser = findChromium() !== undefined || process.env.CI === "true";

describe.runIf(browser)("contrast gate on CSS/HTML modules (Chromium's cascade)", () => {
  it.each(cascadeReferences)(
    "$file → fails $fails",
    async (ref) => {
      // One browser run per module, its observation judged for every seed.
      expect(await verdictProblems("contrast", ref, TEST_SEEDS)).toBe("");
      if (ref.old) expect(oldVerdict(ref.file)).toBe(ref.old);
    },
    180_000,
  );

  it("names the file:line:column of the rule that set the losing colour", async () => {
    const { runGate } = await import("../registry.js");
    const r = await runGate("contrast", fixture("contrast", "bad-override.css"), { seed: 1 });
    const alert = r.checks.find((c) => c.id === "text:.alert");
    // The later rule (line 10) set the colour; the background comes from the first one (line 3).
    expect(alert?.message).toMatch(
      /bad-override\.css:10:1: .*#fca5a5 on #fef2f2.*background from .*bad-override\.css:3:1/,
    );
    const page = await runGate("contrast", fixture("contrast", "bad-page.html"), { seed: 1 });
    const note = page.checks.find((c) => c.id === "text:body > div.plan > p.note");
    expect(note?.message).toMatch(/bad-page\.html:12:3: /);
    const inline = page.checks.find((c) => c.id === "text:body > div.plan > p");
    expect(inline?.message).toMatch(/bad-page\.html:20:15: /);
  }, 180_000);
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

  it("the former per-rule pairing reads CSS rules with positions and detects large text", () => {
    const pairs = pairsFromCss(
      "a{color:#000}\n.h { font-size: 19pt; color: #888; background: #fff }",
      "x.css",
    );
    expect(pairs).toEqual([{ fg: "#888", bg: "#fff", kind: "large-text", name: ".h", where: "x.css:2:1" }]);
  });
});
