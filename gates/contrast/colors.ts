/**
 * CSS colours (every syntax of CSS Color 4: hex, rgb/rgba, hsl/hsla, hwb, lab/lch, oklab/oklch, named colours,
 * transparent), parsed by culori, and the WCAG 2.2 contrast ratio: sRGB channels linearised
 * (c ≤ 0.04045 ? c/12.92 : ((c+0.055)/1.055)^2.4), L = 0.2126R + 0.7152G + 0.0722B, ratio (L1 + 0.05)/(L2 + 0.05).
 * No rounding anywhere.
 */
import "culori/css";
import { converter, parse, wcagLuminance } from "culori/fn";

/** sRGB channels in 0..255 (may be fractional after compositing) and alpha in 0..1. */
export interface Rgba {
  r: number;
  g: number;
  b: number;
  a: number;
}

const toRgb = converter("rgb");
const channel = (c: number) => Math.min(255, Math.max(0, c * 255));

/** Parses a CSS colour; undefined if it is not one we can evaluate (keywords like currentColor, var(), …). */
export function parseColor(input: string): Rgba | undefined {
  const parsed = parse(input.trim());
  const c = parsed && toRgb(parsed);
  if (!c) return undefined;
  return { r: channel(c.r), g: channel(c.g), b: channel(c.b), a: c.alpha ?? 1 };
}

/** `top` composited over an opaque `bottom` (source-over). */
function composite(top: Rgba, bottom: Rgba): Rgba {
  const mix = (t: number, u: number) => t * top.a + u * (1 - top.a);
  return { r: mix(top.r, bottom.r), g: mix(top.g, bottom.g), b: mix(top.b, bottom.b), a: 1 };
}

/** The page behind a translucent background (browsers' default canvas). */
const CANVAS: Rgba = { r: 255, g: 255, b: 255, a: 1 };

export function relativeLuminance(c: Rgba): number {
  return wcagLuminance({ mode: "rgb", r: c.r / 255, g: c.g / 255, b: c.b / 255 });
}

/** WCAG 2.2 contrast ratio of text `fg` on background `bg`, alpha composited (bg over white, fg over bg). */
export function contrastRatio(fg: Rgba, bg: Rgba): number {
  const back = bg.a < 1 ? composite(bg, CANVAS) : bg;
  const front = fg.a < 1 ? composite(fg, back) : fg;
  const l1 = relativeLuminance(front);
  const l2 = relativeLuminance(back);
  return (Math.max(l1, l2) + 0.05) / (Math.min(l1, l2) + 0.05);
}
