/**
 * Where a SKILL.md's frontmatter ends, as Claude Code reads it, against the line-by-line reading of the spec and
 * of YAML. Claude Code (2.1.332, checked against the real CLI in test/detect/claude-code-frontmatter.test.ts)
 * matches `^---\s*\n([\s\S]*?)---\s*\n?` on the text: the opening `---` must start the file, and the frontmatter
 * ends at the next `---` wherever it is, even inside a value (`description: a --- b`) or at the start of `----`.
 * A file whose two readings differ is read one way by skillgate or other clients and another by the agent's
 * harness (a frontmatter opened by ` ---` or closed by `...` is dropped: the skill is listed without its
 * description, and no router finds it), so the difference is an error located on the line where it starts.
 */
import type { Diagnostic } from "../model/index.js";

/** Claude Code's frontmatter pattern (after a byte order mark is removed). */
const CLAUDE_CODE_FRONTMATTER = /^---\s*\n([\s\S]*?)---\s*\n?/d;

/** The frontmatter Claude Code reads: its text and the 1-based line of the `---` that closes it. */
export function claudeCodeFrontmatter(src: string): { fmText: string; closeLine: number } | undefined {
  const m = CLAUDE_CODE_FRONTMATTER.exec(src);
  if (!m) return undefined;
  return { fmText: m[1]!, closeLine: lineOf(src, m.indices![1]![1]) };
}

function lineOf(src: string, index: number): number {
  let line = 1;
  for (let i = src.indexOf("\n"); i >= 0 && i < index; i = src.indexOf("\n", i + 1)) line++;
  return line;
}

/** The same YAML text, whatever blank lines or line ends surround it. */
const same = (a: string, b: string) => a.replace(/\r\n/g, "\n").trim() === b.replace(/\r\n/g, "\n").trim();

/**
 * An error where the line reading (`lines`: what `splitFrontmatter` found) and Claude Code's differ, else
 * undefined. `lines` is undefined when the line reading found no frontmatter or an unclosed one.
 */
export function frontmatterDivergence(
  file: string,
  src: string,
  lines: { fmText: string; close: number } | undefined,
): Diagnostic | undefined {
  const cc = claudeCodeFrontmatter(src);
  if (!lines && !cc) return undefined;
  if (lines && cc && same(lines.fmText, cc.fmText)) return undefined;
  const at = (line: number, message: string): Diagnostic => ({
    file,
    line,
    column: 1,
    severity: "error",
    code: "skill/frontmatter-harness",
    message,
  });
  if (!cc) {
    const opening = src.slice(0, src.indexOf("\n") < 0 ? src.length : src.indexOf("\n"));
    if (!/^---/.test(opening))
      return at(
        1,
        "Claude Code reads no frontmatter here: the opening `---` must be the file's first characters (no white space before it), so the skill would be listed without its description; remove what comes before `---`",
      );
    return at(
      lines!.close + 1,
      `Claude Code ends a frontmatter only at \`---\`, not at \`${src.split("\n")[lines!.close]!.trim()}\`: it reads no frontmatter in this file, so the skill would be listed without its description; close it with \`---\``,
    );
  }
  if (!lines || cc.closeLine <= lines.close + 1) {
    const text = src.split("\n")[cc.closeLine - 1]!.trim();
    return at(
      cc.closeLine,
      text.startsWith("---")
        ? `Claude Code ends the frontmatter at the \`---\` that starts \`${text}\` (the rest is body), where other clients read no end: close the frontmatter with a line holding only \`---\``
        : "Claude Code ends the frontmatter at the `---` inside this line, so the rest of the frontmatter is not read as frontmatter: keep `---` out of values (reword them) and close the frontmatter with a line holding only `---`",
    );
  }
  return at(
    lines.close + 1,
    `Claude Code ends a frontmatter only at \`---\`, not at \`${src.split("\n")[lines.close]!.trim()}\`: it reads the frontmatter on to line ${cc.closeLine}; close it with \`---\``,
  );
}
