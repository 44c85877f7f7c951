import { type PrintedRate, rateCounts, rateMeasured } from "./rate-text.js";

/**
 * Text for GitHub-rendered Markdown: untrusted values neutralised (`escapeText`, `breakLinks`), our figures
 * formatted (`pct`, `rate`, `signedPct`), a link target checked (`safeUrl`). Pure.
 */

/** Longest rendering of one untrusted value in a table cell. */
const MAX_CELL_CHARS = 300;

/** An invisible character that ends a word: what GitHub's autolinker and mention filter need is no longer there. */
const WORD_JOINER = "\u2060";

/**
 * Breaks what GitHub turns into a link or a notification in text it renders: `scheme://` and `www.` addresses,
 * e-mail addresses and `@user` / `@org/team` mentions, `#123` references. Its linkers read the text after
 * entities are decoded, so escaping `@` as `&#64;` is not enough; a word joiner after `@`, `:`, `www` and `#`
 * leaves the text as it reads and links nothing.
 */
export function breakLinks(s: string): string {
  return s
    .replace(/@/g, `@${WORD_JOINER}`)
    .replace(/:(?=\/\/)/g, `:${WORD_JOINER}`)
    .replace(/\b(www)(?=\.)/gi, `$1${WORD_JOINER}`)
    .replace(/#(?=\d)/g, `#${WORD_JOINER}`);
}

/**
 * Neutralises untrusted text for Markdown + HTML: every character that could start markup becomes a numeric
 * entity (GitHub renders it literally), links and mentions are broken (`breakLinks`), newlines become spaces, and
 * length is capped.
 */
export function escapeText(value: unknown, max = MAX_CELL_CHARS): string {
  let s = String(value ?? "");
  if (s.length > max) s = `${s.slice(0, max - 1)}…`;
  return breakLinks(s.replace(/[\r\n\t]+/g, " ")).replace(
    /[&<>"'`|[\]*_~#!\\$@]/g,
    (c) => `&#${c.charCodeAt(0)};`,
  );
}

export function pct(x: number | undefined): string {
  return x === undefined || !Number.isFinite(x) ? "–" : `${(x * 100).toFixed(1)} %`;
}

/** Precision of a skill that fired on no prompt: nothing to measure (its stored rate, 1, is vacuous). */
export const NEVER_FIRED = "n/a (never fired)";

/** A measured rate, or undefined when nothing was counted (precision with no firing). */
export function measured(r: PrintedRate | undefined): number | undefined {
  return rateMeasured(r) ? r.rate : undefined;
}

export function rate(r: PrintedRate | undefined): string {
  if (!r) return "–";
  if (!rateMeasured(r)) return "n/a (none measured)";
  return `${pct(r.rate)} (${rateCounts(r)}, 95 % CI ${pct(r.low)}–${pct(r.high)})`;
}

export function signedPct(x: number | undefined): string {
  if (x === undefined || !Number.isFinite(x)) return "–";
  return `${x >= 0 ? "+" : "−"}${(Math.abs(x) * 100).toFixed(1)} pp`;
}

/** An https URL safe inside a Markdown link target (no spaces, quotes, brackets or parentheses), else undefined. */
export function safeUrl(url: string | undefined): string | undefined {
  if (!url || !/^https:\/\/[^\s"'<>()[\]`\\]+$/.test(url)) return undefined;
  return url;
}
