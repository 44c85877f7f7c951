import { RE2JS } from "re2js";

/**
 * Regular expressions as suites write them. JavaScript has no inline flag group, but PCRE, Python and Go
 * (waza's graders) write case-insensitivity as a leading `(?i)`: a leading `(?ims)` group is read as flags.
 */
const LEADING_FLAGS = /^\(\?([a-z]+)\)/;

/** `new RegExp(source, flags)`, with a leading `(?i)`, `(?m)`, `(?s)` group taken as flags; throws as RegExp does. */
export function compileRegex(source: string, flags = ""): RegExp {
  const m = LEADING_FLAGS.exec(source);
  if (!m) return new RegExp(source, flags);
  const inline = m[1]!;
  const unsupported = inline.replace(/[ims]/g, "");
  if (unsupported)
    throw new SyntaxError(
      `inline flag${unsupported.length > 1 ? "s" : ""} (?${unsupported}) has no JavaScript equivalent`,
    );
  return new RegExp(source.slice(m[0].length), [...new Set(flags + inline)].join(""));
}

/** The regular expression dialects a suite may write: JavaScript's, or RE2's (Go's `regexp`, waza's graders). */
export type RegexSyntax = "js" | "re2";

/** A compiled pattern of either dialect: the first match in a text, and how to show it. */
export interface TextPattern {
  firstMatch(text: string): string | null;
  shown: string;
}

/**
 * `source` compiled in its own dialect: RE2 through re2js (RE2's own parser and matcher ported to JavaScript, so
 * `(?i:…)`, `\A`, `\z`, `[[:alpha:]]`, `(?P<name>…)` mean what they mean to waza, and matching is linear time).
 * Throws on a pattern its dialect rejects.
 */
export function compilePattern(source: string, flags = "", syntax: RegexSyntax = "js"): TextPattern {
  if (syntax === "js") {
    const re = compileRegex(source, flags);
    return { firstMatch: (text) => re.exec(text)?.[0] ?? null, shown: `/${re.source}/${re.flags}` };
  }
  const bits =
    (flags.includes("i") ? RE2JS.CASE_INSENSITIVE : 0) |
    (flags.includes("m") ? RE2JS.MULTILINE : 0) |
    (flags.includes("s") ? RE2JS.DOTALL : 0);
  const re = RE2JS.compile(source, bits);
  return {
    firstMatch: (text) => {
      const m = re.matcher(text);
      return m.find() ? m.group(0) : null;
    },
    shown: `/${source}/${flags} (RE2)`,
  };
}
