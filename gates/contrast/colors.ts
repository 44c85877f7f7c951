/**
 * CSS colour parsing (hex, rgb/rgba, hsl/hsla in comma and space syntax, named colours, transparent) and the
 * WCAG 2.2 contrast ratio: sRGB channels linearised (c ≤ 0.04045 ? c/12.92 : ((c+0.055)/1.055)^2.4),
 * L = 0.2126R + 0.7152G + 0.0722B, ratio (L1 + 0.05)/(L2 + 0.05). No rounding anywhere.
 */

/** sRGB channels in 0..255 (may be fractional after compositing) and alpha in 0..1. */
export interface Rgba {
  r: number;
  g: number;
  b: number;
  a: number;
}

// CSS Color Module Level 4 named colours.
const NAMED: Record<string, string> = {
  aliceblue: "f0f8ff",
  antiquewhite: "faebd7",
  aqua: "00ffff",
  aquamarine: "7fffd4",
  azure: "f0ffff",
  beige: "f5f5dc",
  bisque: "ffe4c4",
  black: "000000",
  blanchedalmond: "ffebcd",
  blue: "0000ff",
  blueviolet: "8a2be2",
  brown: "a52a2a",
  burlywood: "deb887",
  cadetblue: "5f9ea0",
  chartreuse: "7fff00",
  chocolate: "d2691e",
  coral: "ff7f50",
  cornflowerblue: "6495ed",
  cornsilk: "fff8dc",
  crimson: "dc143c",
  cyan: "00ffff",
  darkblue: "00008b",
  darkcyan: "008b8b",
  darkgoldenrod: "b8860b",
  darkgray: "a9a9a9",
  darkgreen: "006400",
  darkgrey: "a9a9a9",
  darkkhaki: "bdb76b",
  darkmagenta: "8b008b",
  darkolivegreen: "556b2f",
  darkorange: "ff8c00",
  darkorchid: "9932cc",
  darkred: "8b0000",
  darksalmon: "e9967a",
  darkseagreen: "8fbc8f",
  darkslateblue: "483d8b",
  darkslategray: "2f4f4f",
  darkslategrey: "2f4f4f",
  darkturquoise: "00ced1",
  darkviolet: "9400d3",
  deeppink: "ff1493",
  deepskyblue: "00bfff",
  dimgray: "696969",
  dimgrey: "696969",
  dodgerblue: "1e90ff",
  firebrick: "b22222",
  floralwhite: "fffaf0",
  forestgreen: "228b22",
  fuchsia: "ff00ff",
  gainsboro: "dcdcdc",
  ghostwhite: "f8f8ff",
  gold: "ffd700",
  goldenrod: "daa520",
  gray: "808080",
  green: "008000",
  greenyellow: "adff2f",
  grey: "808080",
  honeydew: "f0fff0",
  hotpink: "ff69b4",
  indianred: "cd5c5c",
  indigo: "4b0082",
  ivory: "fffff0",
  khaki: "f0e68c",
  lavender: "e6e6fa",
  lavenderblush: "fff0f5",
  lawngreen: "7cfc00",
  lemonchiffon: "fffacd",
  lightblue: "add8e6",
  lightcoral: "f08080",
  lightcyan: "e0ffff",
  lightgoldenrodyellow: "fafad2",
  lightgray: "d3d3d3",
  lightgreen: "90ee90",
  lightgrey: "d3d3d3",
  lightpink: "ffb6c1",
  lightsalmon: "ffa07a",
  lightseagreen: "20b2aa",
  lightskyblue: "87cefa",
  lightslategray: "778899",
  lightslategrey: "778899",
  lightsteelblue: "b0c4de",
  lightyellow: "ffffe0",
  lime: "00ff00",
  limegreen: "32cd32",
  linen: "faf0e6",
  magenta: "ff00ff",
  maroon: "800000",
  mediumaquamarine: "66cdaa",
  mediumblue: "0000cd",
  mediumorchid: "ba55d3",
  mediumpurple: "9370db",
  mediumseagreen: "3cb371",
  mediumslateblue: "7b68ee",
  mediumspringgreen: "00fa9a",
  mediumturquoise: "48d1cc",
  mediumvioletred: "c71585",
  midnightblue: "191970",
  mintcream: "f5fffa",
  mistyrose: "ffe4e1",
  moccasin: "ffe4b5",
  navajowhite: "ffdead",
  navy: "000080",
  oldlace: "fdf5e6",
  olive: "808000",
  olivedrab: "6b8e23",
  orange: "ffa500",
  orangered: "ff4500",
  orchid: "da70d6",
  palegoldenrod: "eee8aa",
  palegreen: "98fb98",
  paleturquoise: "afeeee",
  palevioletred: "db7093",
  papayawhip: "ffefd5",
  peachpuff: "ffdab9",
  peru: "cd853f",
  pink: "ffc0cb",
  plum: "dda0dd",
  powderblue: "b0e0e6",
  purple: "800080",
  rebeccapurple: "663399",
  red: "ff0000",
  rosybrown: "bc8f8f",
  royalblue: "4169e1",
  saddlebrown: "8b4513",
  salmon: "fa8072",
  sandybrown: "f4a460",
  seagreen: "2e8b57",
  seashell: "fff5ee",
  sienna: "a0522d",
  silver: "c0c0c0",
  skyblue: "87ceeb",
  slateblue: "6a5acd",
  slategray: "708090",
  slategrey: "708090",
  snow: "fffafa",
  springgreen: "00ff7f",
  steelblue: "4682b4",
  tan: "d2b48c",
  teal: "008080",
  thistle: "d8bfd8",
  tomato: "ff6347",
  turquoise: "40e0d0",
  violet: "ee82ee",
  wheat: "f5deb3",
  white: "ffffff",
  whitesmoke: "f5f5f5",
  yellow: "ffff00",
  yellowgreen: "9acd32",
};

const NUMBER = String.raw`[+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?`;
const HEX = /^#([0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/i;
const FUNC = /^(rgba?|hsla?)\(\s*([^)]*)\)$/i;

function hex(h: string): Rgba {
  const full = h.length <= 4 ? [...h].map((c) => c + c).join("") : h;
  const byte = (i: number) => Number.parseInt(full.slice(i, i + 2), 16);
  return { r: byte(0), g: byte(2), b: byte(4), a: full.length === 8 ? byte(6) / 255 : 1 };
}

/** Splits `a, b, c` / `a b c / d` into [components, alpha?]; undefined if malformed. */
function components(body: string): { parts: string[]; alpha?: string } | undefined {
  const [main, alpha, extra] = body.split("/").map((s) => s.trim());
  if (extra !== undefined || main === undefined) return undefined;
  const parts = main.includes(",") ? main.split(",").map((s) => s.trim()) : main.split(/\s+/);
  if (alpha !== undefined && main.includes(",")) return undefined;
  const token = new RegExp(`^${NUMBER}(?:%|deg|rad|grad|turn)?$`, "i");
  if (!parts.every((p) => token.test(p)) || (alpha !== undefined && !token.test(alpha))) return undefined;
  if (main.includes(",") && parts.length === 4) return { parts: parts.slice(0, 3), alpha: parts[3] };
  return { parts, alpha };
}

function alphaValue(s: string | undefined): number | undefined {
  if (s === undefined) return 1;
  const v = s.endsWith("%") ? Number.parseFloat(s) / 100 : Number.parseFloat(s);
  return /deg|rad|turn/i.test(s) ? undefined : Math.min(1, Math.max(0, v));
}

function rgbChannel(s: string): number | undefined {
  if (/deg|rad|turn/i.test(s)) return undefined;
  const v = s.endsWith("%") ? (Number.parseFloat(s) * 255) / 100 : Number.parseFloat(s);
  return Math.min(255, Math.max(0, v));
}

function hue(s: string): number | undefined {
  const v = Number.parseFloat(s);
  if (s.endsWith("%")) return undefined;
  if (/grad$/i.test(s)) return (v * 360) / 400;
  if (/rad$/i.test(s)) return (v * 180) / Math.PI;
  if (/turn$/i.test(s)) return v * 360;
  return v;
}

/** CSS Color 4 hsl → sRGB in 0..255. */
function hslToRgb(h: number, s: number, l: number): [number, number, number] {
  const hh = ((h % 360) + 360) % 360;
  const f = (n: number) => {
    const k = (n + hh / 30) % 12;
    const a = s * Math.min(l, 1 - l);
    return 255 * (l - a * Math.max(-1, Math.min(k - 3, 9 - k, 1)));
  };
  return [f(0), f(8), f(4)];
}

/** Parses a CSS colour; undefined if it is not one we can evaluate (keywords like currentColor, var(), …). */
export function parseColor(input: string): Rgba | undefined {
  const s = input.trim().toLowerCase();
  if (s === "transparent") return { r: 0, g: 0, b: 0, a: 0 };
  const named = NAMED[s];
  if (named) return hex(named);
  const h = HEX.exec(s);
  if (h?.[1]) return hex(h[1]);
  const f = FUNC.exec(s);
  if (!f?.[1] || f[2] === undefined) return undefined;
  const c = components(f[2]);
  if (c?.parts.length !== 3) return undefined;
  const a = alphaValue(c.alpha);
  if (a === undefined) return undefined;
  if (f[1].startsWith("rgb")) {
    const [r, g, b] = c.parts.map(rgbChannel);
    if (r === undefined || g === undefined || b === undefined) return undefined;
    return { r, g, b, a };
  }
  const [hs, ss, ls] = c.parts;
  const hv = hue(hs as string);
  // Saturation and lightness: percentages (or bare numbers, CSS Color 4's modern syntax, read as percent).
  const pct = (x: string) =>
    /deg|rad|turn/i.test(x) ? undefined : Math.min(100, Math.max(0, Number.parseFloat(x))) / 100;
  const sv = pct(ss as string);
  const lv = pct(ls as string);
  if (hv === undefined || sv === undefined || lv === undefined) return undefined;
  const [r, g, b] = hslToRgb(hv, sv, lv);
  return { r, g, b, a };
}

/** `top` composited over an opaque `bottom` (source-over). */
function composite(top: Rgba, bottom: Rgba): Rgba {
  const mix = (t: number, u: number) => t * top.a + u * (1 - top.a);
  return { r: mix(top.r, bottom.r), g: mix(top.g, bottom.g), b: mix(top.b, bottom.b), a: 1 };
}

/** The page behind a translucent background (browsers' default canvas). */
const CANVAS: Rgba = { r: 255, g: 255, b: 255, a: 1 };

function linear(channel255: number): number {
  const c = channel255 / 255;
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
}

export function relativeLuminance(c: Rgba): number {
  return 0.2126 * linear(c.r) + 0.7152 * linear(c.g) + 0.0722 * linear(c.b);
}

/** WCAG 2.2 contrast ratio of text `fg` on background `bg`, alpha composited (bg over white, fg over bg). */
export function contrastRatio(fg: Rgba, bg: Rgba): number {
  const back = bg.a < 1 ? composite(bg, CANVAS) : bg;
  const front = fg.a < 1 ? composite(fg, back) : fg;
  const l1 = relativeLuminance(front);
  const l2 = relativeLuminance(back);
  return (Math.max(l1, l2) + 0.05) / (Math.min(l1, l2) + 0.05);
}
