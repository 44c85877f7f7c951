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
