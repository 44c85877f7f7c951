import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { splitFrontmatter } from "../../src/detect/skill-file.js";

/** The plain reading: split into lines, find the closing line, join the parts back. */
function reference(src: string) {
  const lines = src.split(/\r?\n/);
  if (lines[0]?.trim() !== "---") return "no-frontmatter";
  const close = lines.findIndex((l, i) => i > 0 && /^(---|\.\.\.)\s*$/.test(l));
  if (close < 0) return "unterminated";
  return { fmText: lines.slice(1, close).join("\n"), body: lines.slice(close + 1).join("\n"), close };
}

const PIECES = ["---", "...", "\n", "\r\n", "\r", " ", "\t", "name: x", "# body", "a", "--- ", "----", ""];

describe("splitFrontmatter", () => {
  it("reads SKILL.md text exactly as splitting it into lines would, on generated text", () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...PIECES), { maxLength: 14 }), (parts) => {
        const src = parts.join("");
        expect(splitFrontmatter(src)).toEqual(reference(src));
        // And with a frontmatter opening, so most cases reach the closing-line search.
        expect(splitFrontmatter(`---\n${src}`)).toEqual(reference(`---\n${src}`));
      }),
      { numRuns: 3000, seed: 3 },
    );
  });
});
