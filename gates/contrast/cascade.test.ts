/** The cascade judge's arithmetic and the generated page, without a browser. */
import { describe, expect, it } from "vitest";
import { checkElement, imageSamples } from "./cascade.js";
import { CHROMIUM_BINARIES, CHROMIUM_PATH_VARIABLE, chromiumCandidates, observeCascade } from "./chromium.js";
import type { CascadeLayer, TextElement } from "./observation.js";
import { pageFromCss } from "./page.js";

const layer = (over: Partial<CascadeLayer> = {}): CascadeLayer => ({
  label: "div",
  backgroundColor: "rgba(0, 0, 0, 0)",
  backgroundImage: "none",
  opacity: "1",
  display: "block",
  visibility: "visible",
  where: null,
  ...over,
});
const text = (color: string, layers: CascadeLayer[], over: Partial<TextElement> = {}): TextElement => ({
  label: ".x",
  text: "Sample text",
  color,
  textFill: color,
  fontSize: "16px",
  fontWeight: "400",
  colorFrom: "x.css:9:1",
  rule: "x.css:9:1",
  state: [],
  layers,
  ...over,
});
const html = layer({ label: "html" });
const body = (bg = "rgb(255, 255, 255)", over: Partial<CascadeLayer> = {}) =>
  layer({ label: "body", backgroundColor: bg, where: "x.css:1:1", ...over });

describe("cascade judge", () => {
  it("blends an opacity group with what lies behind it: dark text at 0.4 on white is 2.1:1", () => {
    const c = checkElement(
      text("rgb(55, 65, 81)", [
        layer({ backgroundColor: "rgb(255, 255, 255)", opacity: "0.4" }),
        body(),
        html,
      ]),
      "AA",
      "x.css:1:1",
    );
    expect(c?.passed).toBe(false);
    expect(c?.message).toMatch(/^x\.css:9:1: .*2\.105:1 < 4\.5:1.*opacity 0\.4/);
  });

  it("composites translucent backgrounds up to the first opaque one, canvas white", () => {
    const dark = layer({ backgroundColor: "rgba(15, 23, 42, 0.9)" });
    expect(checkElement(text("rgb(255, 255, 255)", [dark, html]), "AA", "f")?.passed).toBe(true);
    const faint = layer({ backgroundColor: "rgba(15, 23, 42, 0.1)" });
    expect(checkElement(text("rgb(255, 255, 255)", [faint, html]), "AA", "f")?.passed).toBe(false);
  });

  it("checks every stop of a gradient and between them; the worst decides", () => {
    const g = "linear-gradient(135deg, rgb(79, 70, 229) 0%, rgb(199, 210, 254) 100%)";
    expect(imageSamples(g)).toMatchObject({ samples: [expect.any(Array)] });
    const c = checkElement(
      text("rgb(255, 255, 255)", [layer({ backgroundColor: "rgb(79, 70, 229)", backgroundImage: g }), html]),
      "AA",
      "f",
    );
    expect(c?.message).toContain("on #c7d2fe (worst point of the background gradient)");
    expect(c?.passed).toBe(false);
  });

  it("fails text over a url() image, naming its rule and the fallback colour's ratio", () => {
    const img = body("rgb(255, 255, 255)", {
      backgroundImage: 'url("file:///x/bg.png")',
      where: "x.css:1:1",
    });
    const c = checkElement(text("rgb(17, 24, 39)", [layer(), img, html]), "AA", "f");
    expect(c?.passed).toBe(false);
    expect(c?.message).toMatch(
      /^x\.css:1:1: .*cannot be verified from colours.*fallback background-color alone gives #111827 on #ffffff/,
    );
    // Under an opaque background nearer the text the image is hidden: nothing to verify.
    const hidden = checkElement(
      text("rgb(17, 24, 39)", [layer({ backgroundColor: "rgb(255, 255, 255)" }), img, html]),
      "AA",
      "f",
    );
    expect(hidden?.passed).toBe(true);
    // ...unless that background is faded by opacity: the image shows through.
    const faded = checkElement(
      text("rgb(17, 24, 39)", [layer({ backgroundColor: "rgb(255, 255, 255)", opacity: "0.5" }), img, html]),
      "AA",
      "f",
    );
    expect(faded?.passed).toBe(false);
  });

  it("large text from the computed font, and hidden elements are not checked", () => {
    const grey = (over: Partial<TextElement>) =>
      checkElement(text("rgb(138, 138, 138)", [body(), html], over), "AA", "f");
    expect(grey({})?.passed).toBe(false);
    expect(grey({ fontSize: "24px" })?.passed).toBe(true);
    expect(grey({ fontSize: "18.6667px", fontWeight: "700" })?.passed).toBe(true);
    expect(grey({ fontSize: "18.6667px", fontWeight: "600" })?.passed).toBe(false);
    expect(
      checkElement(text("rgb(200, 200, 200)", [layer({ display: "none" }), html]), "AA", "f"),
    ).toBeUndefined();
  });

  it("a colour it cannot evaluate fails", () => {
    const c = checkElement(text("color-mix(in srgb, red 50%, blue)", [body(), html]), "AA", "f");
    expect(c).toMatchObject({ passed: false });
    expect(c?.message).toContain("cannot be evaluated");
  });

  it("evaluates the modern colour spaces Chromium reports as written (oklch, lab, hwb)", () => {
    // A dark oklch on the white body passes; a light one fails.
    expect(checkElement(text("oklch(0.3 0.05 250)", [body(), html]), "AA", "f")?.passed).toBe(true);
    expect(checkElement(text("oklch(0.9 0.02 250)", [body(), html]), "AA", "f")?.passed).toBe(false);
    expect(checkElement(text("lab(20 10 -30)", [body(), html]), "AA", "f")?.passed).toBe(true);
    expect(checkElement(text("hwb(0 0% 20%)", [body(), html]), "AA", "f")?.message).not.toContain(
      "cannot be evaluated",
    );
  });
});

describe("the page a stylesheet implies", () => {
  const page = (css: string) => pageFromCss(css, "/m/x.css", "file:///m/x.css");

  it("nests descendants, puts siblings side by side and uses the page's own body", () => {
    const p = page(".card .title{color:red}\nh2 + p{color:red}\nbody .x{color:red}\nul > li.on{color:red}");
    expect(p.html).toContain('<div class="card"><div class="title" data-skillgate-label=".card .title"');
    expect(p.html).toMatch(/<h2><\/h2><p data-skillgate-label="h2 \+ p"/);
    expect(p.html).toMatch(/<body[^>]*>Sample text.*<div class="x" data-skillgate-label="body .x"/);
    expect(p.html).toContain('<ul><li class="on" data-skillgate-label="ul &gt; li.on"');
  });

  it("generates a selector met again once, forces states, and reports pseudo-elements as not reached", () => {
    const p = page(
      ".a{color:red}\n.a{color:blue}\na:hover{color:red}\n.b::before{color:red}\n.c:nth-child(2){color:red}",
    );
    expect(p.html.match(/class="a"/g)).toHaveLength(1);
    expect(p.html).toContain('data-skillgate-state="hover"');
    expect(p.notReached.map((n) => n.why)).toEqual(["pseudo-element ::before", ":nth-child(2) not forced"]);
  });

  it("escapes what the stylesheet names", () => {
    const p = page('[title="\\"><script>x</script>"]{color:red}');
    expect(p.html).not.toContain("<script>");
  });
});

describe("which browser", () => {
  it("is the runner's configured binary alone when SKILLGATE_CHROMIUM is set, else Debian's and Ubuntu's", async () => {
    expect(chromiumCandidates({})).toEqual(CHROMIUM_BINARIES);
    expect(chromiumCandidates({ [CHROMIUM_PATH_VARIABLE]: "/opt/google/chrome/chrome" })).toEqual([
      "/opt/google/chrome/chrome",
    ]);
    // A configured path that is not there fails closed, naming it and the variable; no fallback to another one.
    const missing = "/nonexistent/skillgate-test/chrome";
    const obs = await observeCascade(
      { file: "/nonexistent/x.html", readable: [], generated: false, sourceText: "", modulePath: "x.html" },
      {},
      chromiumCandidates({ [CHROMIUM_PATH_VARIABLE]: missing }),
    );
    expect(obs).toMatchObject({ kind: "chromium-missing" });
    expect((obs as { error: string }).error).toContain(missing);
    expect((obs as { error: string }).error).toContain(CHROMIUM_PATH_VARIABLE);
  });
});
