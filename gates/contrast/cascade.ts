/**
 * contrast, the judge of a page's computed cascade (observed by `chromium.ts`): for every visible element with
 * text of its own, what the reader sees of its glyphs against what they see around them.
 *
 * - Colours are Chromium's computed values (cascade, inheritance, later and more specific rules, `!important`,
 *   shorthands, `currentColor` and custom properties already resolved); the glyphs are painted with
 *   `-webkit-text-fill-color` when it is set.
 * - The background is composited from the canvas (white) up through every ancestor's `background-color` and
 *   `background-image` gradient to the element's own; translucent layers blend, and an opaque one hides
 *   everything under it.
 * - `opacity` (CSS Compositing: an element and its content are painted as one group, then blended with alpha
 *   `opacity` over what lies behind it) applies to every ancestor's group in turn: an `opacity: .4` card with a
 *   white background on a white page keeps a white background, and its black text becomes 60 % white. Both the
 *   glyph pixel and the pixel beside it are computed this way; the ratio is between those two.
 * - A `background-image` gradient behind the text: every colour stop and three points between each pair of
 *   stops (sRGB interpolation) are checked, and the worst decides. A `url()` image (or any image that is not a
 *   gradient) cannot be verified from colours: that check fails, naming the rule, and says what the solid
 *   fallback `background-color` under it gives — text belongs on a verified solid (or gradient) background.
 * - Large text (3:1 at AA) is ≥ 24px, or ≥ 18.67px (14pt) with weight ≥ 700, from the computed font.
 * - `display: none` anywhere up the chain, or `visibility: hidden|collapse`, is not rendered: not checked.
 */
import { createHash } from "node:crypto";
import type { GateCheck, GateOutput } from "../types.js";
import { parseColor, type Rgba, relativeLuminance } from "./colors.js";
import type { CascadeLayer, CascadeObservation, TextElement } from "./observation.js";

type Kind = "text" | "large-text" | "ui";
export const THRESHOLDS: Record<"AA" | "AAA", Record<Kind, number>> = {
  AA: { text: 4.5, "large-text": 3, ui: 3 },
  AAA: { text: 7, "large-text": 4.5, ui: 3 },
};
/** 18pt and 14pt in CSS px (1pt = 4/3 px). */
export const LARGE_PX = 24;
export const LARGE_BOLD_PX = (14 * 4) / 3;
/** Background combinations (gradient samples across layers) checked at most per element. */
const MAX_SAMPLES = 4096;

/** Premultiplied RGBA. */
interface Pm {
  r: number;
  g: number;
  b: number;
  a: number;
}
const CLEAR: Pm = { r: 0, g: 0, b: 0, a: 0 };
const pm = (c: Rgba): Pm => ({ r: c.r * c.a, g: c.g * c.a, b: c.b * c.a, a: c.a });
const over = (t: Pm, u: Pm): Pm => ({
  r: t.r + u.r * (1 - t.a),
  g: t.g + u.g * (1 - t.a),
  b: t.b + u.b * (1 - t.a),
  a: t.a + u.a * (1 - t.a),
});
const scale = (c: Pm, o: number): Pm => ({ r: c.r * o, g: c.g * o, b: c.b * o, a: c.a * o });
const WHITE: Pm = { r: 255, g: 255, b: 255, a: 1 };
const opaque = (c: Pm): Rgba => ({ r: c.r, g: c.g, b: c.b, a: 1 });

const hex2 = (n: number) =>
  Math.round(Math.min(255, Math.max(0, n)))
    .toString(16)
    .padStart(2, "0");
const toHex = (c: Rgba) => `#${hex2(c.r)}${hex2(c.g)}${hex2(c.b)}`;

/** What a computed `background-image` offers: `none`, colour samples of its gradients, or unverifiable. */
type ImageSamples = { none: true } | { samples: Rgba[][] } | { unverifiable: string };

function splitTop(s: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    const ch = s[i];
    if (ch === "(") depth++;
    else if (ch === ")") depth--;
    else if (ch === "," && depth === 0) {
      out.push(s.slice(start, i).trim());
      start = i + 1;
    }
  }
  out.push(s.slice(start).trim());
  return out;
}

/** Colour samples of one gradient layer: its stops, and three points between each pair of stops. */
function gradientSamples(layer: string): Rgba[] | undefined {
  const m = /^(?:-webkit-)?(?:repeating-)?(?:linear|radial|conic)-gradient\((.*)\)$/is.exec(layer.trim());
  if (!m?.[1]) return undefined;
  if (/\b(?:color|lab|lch|oklab|oklch|hwb|hsla?|color-mix)\(/i.test(m[1])) return undefined;
  const stops: Rgba[] = [];
  for (const arg of splitTop(m[1])) {
    const tokens = arg.match(/rgba?\([^()]*\)|\btransparent\b|#[0-9a-f]{3,8}\b/gi) ?? [];
    for (const t of tokens) {
      const c = parseColor(t);
      if (!c) return undefined;
      stops.push(c);
    }
  }
  if (stops.length === 0) return undefined;
  const samples: Rgba[] = [stops[0] as Rgba];
  for (let i = 1; i < stops.length; i++) {
    const a = stops[i - 1] as Rgba;
    const b = stops[i] as Rgba;
    for (const t of [0.25, 0.5, 0.75]) {
      // premultiplied interpolation, as CSS Images 4 asks
      const p = { r: 0, g: 0, b: 0, a: a.a + (b.a - a.a) * t };
      for (const k of ["r", "g", "b"] as const) {
        const v = a[k] * a.a + (b[k] * b.a - a[k] * a.a) * t;
        p[k] = p.a > 0 ? v / p.a : 0;
      }
      samples.push(p);
    }
    samples.push(b);
  }
  return samples;
}

export function imageSamples(value: string): ImageSamples {
  const v = value.trim();
  if (v === "" || v === "none") return { none: true };
  const layers = splitTop(v).filter((l) => l !== "none");
  const out: Rgba[][] = [];
  for (const l of layers) {
    const s = gradientSamples(l);
    if (!s) return { unverifiable: l.length > 120 ? `${l.slice(0, 117)}…` : l };
    out.push(s);
  }
  return out.length ? { samples: out } : { none: true };
}

interface Painted {
  /** The glyph pixel and the pixel beside it, both opaque. */
  glyph: Rgba;
  around: Rgba;
}

/**
 * The two pixels for one choice of gradient sample per layer (`pick[i]`: the colours painted by layer i's image,
 * last layer topmost). Layers are given element first, as observed.
 */
function paint(text: Rgba, bgs: Rgba[], images: Rgba[][], opacities: number[]): Painted {
  const n = bgs.length;
  const group = (withText: boolean): Pm => {
    let inner: Pm | undefined;
    for (let i = 0; i < n; i++) {
      // i = 0 is the element itself: its group holds its background, images, and the text on top.
      let acc = over(pm(bgs[i] as Rgba), CLEAR);
      // background-image layers: the first listed is on top
      for (const c of [...(images[i] ?? [])].reverse()) acc = over(pm(c), acc);
      if (inner) acc = over(inner, acc);
      else if (withText) acc = over(pm(text), acc);
      inner = scale(acc, opacities[i] as number);
    }
    return over(inner as Pm, WHITE);
  };
  return { glyph: opaque(group(true)), around: opaque(group(false)) };
}

/** For each layer, the alpha of what the layers nearer the text paint over it (0 for the element itself). */
function coverAbove(bgs: Rgba[], opacities: number[]): number[] {
  const out: number[] = [];
  let inner = 0;
  for (let i = 0; i < bgs.length; i++) {
    out.push(inner);
    const own = (bgs[i] as Rgba).a;
    inner = (inner + own * (1 - inner)) * (opacities[i] as number);
  }
  return out;
}

function ratio(a: Rgba, b: Rgba): number {
  const l1 = relativeLuminance(a);
  const l2 = relativeLuminance(b);
  return (Math.max(l1, l2) + 0.05) / (Math.min(l1, l2) + 0.05);
}

function px(v: string): number {
  return Number.parseFloat(v);
}

function hidden(e: TextElement): boolean {
  const own = e.layers[0] as CascadeLayer;
  return (
    e.layers.some((l) => l.display === "none") || own.visibility === "hidden" || own.visibility === "collapse"
  );
}

interface CascadeContext {
  level: "AA" | "AAA";
  modulePath: string;
  notReached: string[];
}

/** Check of one text element (undefined: not rendered). */
export function checkElement(
  e: TextElement,
  level: "AA" | "AAA",
  fallbackWhere: string,
): GateCheck | undefined {
  if (hidden(e)) return undefined;
  const label = `${e.label}${e.state.length ? ` (forced :${e.state.join(", :")})` : ""}`;
  const id = `text:${e.label}`;
  const bgLayer = e.layers.find(
    (l) => l.where && (imageSamples(l.backgroundImage) as { none?: true }).none === undefined,
  ) ??
    e.layers.find((l) => l.where && (parseColor(l.backgroundColor)?.a ?? 0) > 0) ?? { where: null };
  const at = e.colorFrom ?? bgLayer.where ?? e.rule ?? fallbackWhere;
  const fill = parseColor(e.textFill);
  const color = parseColor(e.color);
  const text = fill && e.textFill !== e.color ? fill : color;
  const unknown: string[] = [];
  if (!text) unknown.push(e.color);
  const bgs = e.layers.map((l) => {
    const c = parseColor(l.backgroundColor);
    if (!c) unknown.push(l.backgroundColor);
    return c ?? { r: 0, g: 0, b: 0, a: 0 };
  });
  if (!text || unknown.length)
    return {
      id,
      passed: false,
      message: `${at}: ${label}: colour ${unknown.map((u) => `'${u}'`).join(", ")} cannot be evaluated`,
    };
  const opacities = e.layers.map((l) => Number(l.opacity));
  if (opacities.some((o) => !Number.isFinite(o) || o < 0 || o > 1))
    return { id, passed: false, message: `${at}: ${label}: opacity out of range` };
  const size = px(e.fontSize);
  const weight = Number(e.fontWeight);
  const kind: Kind = size >= LARGE_PX || (weight >= 700 && size >= LARGE_BOLD_PX) ? "large-text" : "text";
  const need = THRESHOLDS[level][kind];
  const font = `${e.fontSize}/${e.fontWeight}`;

  const images = e.layers.map((l) => imageSamples(l.backgroundImage));
  const plain = paint(text, bgs, [], opacities);
  const plainRatio = ratio(plain.glyph, plain.around);
  // An image under an opaque background of a layer nearer the text (and no opacity between) is hidden.
  const cover = coverAbove(bgs, opacities);
  const bad = images.findIndex((s, i) => "unverifiable" in s && (cover[i] as number) < 1 - 1e-9);
  if (bad >= 0) {
    const l = e.layers[bad] as CascadeLayer;
    const img = (images[bad] as { unverifiable: string }).unverifiable;
    return {
      id,
      passed: false,
      message: `${l.where ?? at}: "${e.text}" in ${label} lies over background-image ${img} of ${l.label}: an image cannot be verified from colours (text needs a solid or gradient background that meets ${need}:1; its fallback background-color alone gives ${toHex(plain.glyph)} on ${toHex(plain.around)} = ${plainRatio.toFixed(3)}:1)`,
    };
  }
  // Every combination of gradient samples (usually one gradient: its samples).
  const choices = images.map((s) => ("samples" in s ? s.samples : []));
  let combos: Rgba[][][] = [[]];
  for (const layerChoices of choices) {
    const per: Rgba[][] = layerChoices.length ? cartesian(layerChoices) : [[]];
    const next: Rgba[][][] = [];
    for (const c of combos) for (const p of per) next.push([...c, p]);
    combos = next.slice(0, MAX_SAMPLES);
  }
  let worst: { r: number; p: Painted } | undefined;
  for (const imgs of combos) {
    const p = paint(text, bgs, imgs, opacities);
    const r = ratio(p.glyph, p.around);
    if (!worst || r < worst.r) worst = { r, p };
  }
  const w = worst as { r: number; p: Painted };
  const passed = w.r >= need;
  const op = opacities.reduce((a, b) => a * b, 1);
  const gradient = images.some((s) => "samples" in s) ? " (worst point of the background gradient)" : "";
  const extra = [
    bgLayer.where && bgLayer.where !== at ? `background from ${bgLayer.where}` : "",
    op < 1 ? `opacity ${Number(op.toFixed(4))} down the chain${opacitySource(e)}` : "",
  ]
    .filter(Boolean)
    .join("; ");
  return {
    id,
    passed,
    message: `${at}: "${e.text}" in ${label}: ${e.color} as painted ${toHex(w.p.glyph)} on ${toHex(w.p.around)}${gradient} (${kind}, ${font}): ${w.r.toFixed(3)}:1 ${passed ? "≥" : "<"} ${need}:1 (WCAG 2.2 ${level}, unrounded ${w.r})${extra ? `; ${extra}` : ""}`,
  };
}

function opacitySource(e: TextElement): string {
  const l = e.layers.find((x) => Number(x.opacity) < 1);
  return l ? ` (${l.label}${l.where ? ` at ${l.where}` : ""})` : "";
}

/** Every choice of one sample per gradient image of a layer (the layer's images stacked). */
function cartesian(lists: Rgba[][]): Rgba[][] {
  let out: Rgba[][] = [[]];
  for (const l of lists) {
    const next: Rgba[][] = [];
    for (const o of out) for (const c of l) next.push([...o, c]);
    out = next.slice(0, MAX_SAMPLES);
  }
  return out;
}

export function judgeCascade(obs: CascadeObservation, ctx: CascadeContext): GateOutput {
  if ("error" in obs)
    return {
      checks: [{ id: obs.kind, passed: false, message: `${ctx.modulePath}:1:1: ${obs.error}` }],
      metrics: { engine: "chromium" },
    };
  const checks: GateCheck[] = [];
  let hiddenCount = 0;
  for (const e of obs.elements) {
    const c = checkElement(e, ctx.level, `${ctx.modulePath}:1:1`);
    if (c) checks.push(c);
    else hiddenCount++;
  }
  if (obs.truncated)
    checks.push({
      id: "coverage",
      passed: false,
      message: `${ctx.modulePath}:1:1: more elements with text than the gate checks: not every one was checked`,
    });
  if (checks.length === 0)
    checks.push({
      id: "pairs",
      passed: false,
      message: `${ctx.modulePath}:1:1: no rendered text to check`,
    });
  const seen = new Map<string, number>();
  for (const c of checks) {
    const n = (seen.get(c.id) ?? 0) + 1;
    seen.set(c.id, n);
    if (n > 1) c.id = `${c.id}#${n}`;
  }
  return {
    checks,
    metrics: {
      engine: "chromium",
      level: ctx.level,
      elements: obs.elements.length,
      hidden: hiddenCount,
      notReached: ctx.notReached.slice(0, 50),
    },
  };
}

export function cacheKey(path: string, text: string): string {
  return createHash("sha256").update(path).update("\0").update(text).digest("hex");
}
