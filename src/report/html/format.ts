import { type PrintedRate, rateCounts, rateMeasured } from "../rate-text.js";
import { esc } from "./escape.js";

export function pct(x: number | undefined): string {
  return x === undefined || !Number.isFinite(x) ? "–" : `${(x * 100).toFixed(1)} %`;
}

export function signedPts(x: number | undefined): string {
  if (x === undefined || !Number.isFinite(x)) return "–";
  return `${x >= 0 ? "+" : "−"}${(Math.abs(x) * 100).toFixed(1)} pts`;
}

/** A p-value or threshold: two significant digits, never rounded to 0. */
export function pValue(p: number | undefined): string {
  if (p === undefined || !Number.isFinite(p)) return "–";
  return p >= 0.001 ? p.toPrecision(2) : p.toExponential(1);
}

export function usd(x: number): string {
  return `$${x.toFixed(x > 0 && x < 0.01 ? 4 : 2)}`;
}

export function duration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 120_000) return `${(ms / 1000).toFixed(1)} s`;
  return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}

/** `k/n` with the rate and its interval, and a small bar (SVG: the page's policy allows no style attribute). */
export function rateCell(r: PrintedRate | undefined): string {
  if (!rateMeasured(r)) return `<span class="muted">–</span>`;
  return `${rateBar(r)} <span class="num">${pct(r.rate)}</span> <span class="muted">${esc(rateCounts(r))}, 95 % CI ${pct(r.low)}–${pct(r.high)}</span>`;
}

const BAR_WIDTH = 80;

/** The rate as a bar with its interval as a whisker; decorative (the numbers are beside it). */
function rateBar(r: PrintedRate): string {
  const x = (v: number) => (Math.max(0, Math.min(1, v)) * BAR_WIDTH).toFixed(1);
  return `<svg class="bar" width="${BAR_WIDTH}" height="10" viewBox="0 0 ${BAR_WIDTH} 10" aria-hidden="true"><rect class="bar-bg" x="0" y="2" width="${BAR_WIDTH}" height="6"/><rect class="bar-fg" x="0" y="2" width="${x(r.rate)}" height="6"/><line class="bar-ci" x1="${x(r.low)}" x2="${x(r.high)}" y1="5" y2="5"/></svg>`;
}

/** `head 6/6 failed vs base 0/15, p = 1.8e-5 ≤ threshold 6.9e-5`: the exact test of a root, in one line. */
export function testLine(r: {
  head?: { failed: number; trials: number };
  base?: { failed: number; trials: number };
  pValue?: number;
  threshold?: number;
}): string {
  const parts: string[] = [];
  if (r.head) parts.push(`head ${r.head.failed}/${r.head.trials} failed`);
  if (r.base) parts.push(`base ${r.base.failed}/${r.base.trials} failed`);
  let line = parts.join(" vs ");
  if (r.pValue !== undefined) {
    line += `${line ? ", " : ""}one-sided Fisher p = ${pValue(r.pValue)}`;
    if (r.threshold !== undefined)
      line += ` ${r.pValue <= r.threshold ? "≤" : ">"} threshold ${pValue(r.threshold)}`;
  }
  return esc(line);
}
