/**
 * Invisible Unicode in text a skill adds (tag characters, zero-width and bidi controls, variation-selector runs),
 * and when one does a visible job instead (a joiner inside an emoji or between letters of a script that uses it,
 * bidi controls in right-to-left text, a byte-order mark, a zero-width space escaping a code fence).
 */

/** Zero-width and invisible characters, tag characters, variation-selector runs and bidi controls. */
export const INVISIBLE =
  /[\u200B-\u200D\u2060-\u2064\u180E\uFEFF\u202A-\u202E\u2066-\u2069]|[\u{E0000}-\u{E007F}]|[\u{E0100}-\u{E01EF}]|[\uFE00-\uFE0F]{2,}/gu;
const PICTOGRAPH = /\p{Extended_Pictographic}|[\u{1F3FB}-\u{1F3FF}\uFE0F\u20E3]/u;
/** A letter of a script that joins its letters (not Latin): a joiner beside it shapes the text. */
const SCRIPT_LETTER = /[^\p{ASCII}\p{Script=Latin}]/u;
const RTL = /[\p{Script=Arabic}\p{Script=Hebrew}\p{Script=Syriac}\p{Script=Thaana}]/u;
const lineAround = (text: string, at: number) =>
  text.slice(text.lastIndexOf("\n", at - 1) + 1, (text.indexOf("\n", at) + 1 || text.length + 1) - 1);

/** Why an invisible character is there for nothing a reader sees, or undefined when it does a visible job. */
export function invisibleReason(text: string, at: number, ch: string): string | undefined {
  const cp = ch.codePointAt(0)!;
  const prev = [...text.slice(Math.max(0, at - 2), at)].pop() ?? "";
  const next = [...text.slice(at + ch.length, at + ch.length + 2)][0] ?? "";
  // A joiner inside an emoji sequence, or a joiner or break beside a letter of a script that needs it (Persian,
  // Indic, Thai …).
  if ((cp === 0x200d || cp === 0x200c) && PICTOGRAPH.test(prev) && PICTOGRAPH.test(next)) return undefined;
  if (cp >= 0x200b && cp <= 0x200d && (SCRIPT_LETTER.test(prev) || SCRIPT_LETTER.test(next)))
    return undefined;
  // A zero-width space before a code fence: Markdown's way to show a fence inside a fence.
  if (
    cp === 0x200b &&
    /^\s*$/.test(text.slice(text.lastIndexOf("\n", at - 1) + 1, at)) &&
    /^(?:`{3}|~{3})/.test(text.slice(at + 1, at + 4))
  )
    return undefined;
  // Embedding controls in right-to-left text (Persian, Arabic, Hebrew) order that text; in other text they hide.
  if (((cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069)) && RTL.test(lineAround(text, at)))
    return undefined;
  // A byte-order mark at the very start of a file.
  if (cp === 0xfeff && at === 0) return undefined;
  if (cp >= 0xe0000 && cp <= 0xe007f) return "Unicode tag characters (invisible text)";
  if (cp >= 0xe0100 || (cp >= 0xfe00 && cp <= 0xfe0f)) return "a run of variation selectors (hidden data)";
  if ((cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069))
    return "a bidirectional control (text shown in another order than it is read)";
  return "a zero-width character";
}
