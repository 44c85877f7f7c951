/**
 * Issue #42: `description: Reads PDFs: forms, tables` (invalid YAML that Claude Code loads quoted) is read without
 * the YAML composer (`compactMappingsQuoted`). Whenever that shortcut answers, it must say what composing says:
 * YAML's first error (place and message) on the text as written, and the quoted text's values and positions.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { quoteProblematicValues } from "../../src/detect/frontmatter-quoting.js";
import { compactMappingsQuoted, parseSkillFile } from "../../src/detect/skill-file.js";
import { type PathSegment, parseSourceFile } from "../../src/detect/source-file.js";

function paths(v: unknown, at: PathSegment[] = []): PathSegment[][] {
  const out: PathSegment[][] = [at];
  if (Array.isArray(v)) for (const [i, x] of v.entries()) out.push(...paths(x, [...at, i]));
  else if (v && typeof v === "object")
    for (const [k, x] of Object.entries(v)) out.push(...paths(x, [...at, k]));
  return out;
}

/** The shortcut's answer, checked against the composer's; whether it answered. */
function sameAsComposing(fmText: string): boolean {
  const fast = compactMappingsQuoted("s/SKILL.md", fmText);
  if (!fast) return false;
  const slow = parseSourceFile("s/SKILL.md", fmText, 1, false);
  const quoted = quoteProblematicValues(fmText)!;
  const second = parseSourceFile("s/SKILL.md", quoted.text, 1, false);
  expect(slow.diagnostics.length, fmText).toBeGreaterThan(0);
  expect(second.diagnostics, fmText).toEqual([]);
  const first = slow.diagnostics[0]!;
  expect(fast.warning, fmText).toMatchObject({ file: first.file, line: first.line, column: first.column });
  expect(
    fast.warning.message.startsWith(`${first.message}; Claude Code loads the skill by quoting`),
    fmText,
  ).toBe(true);
  expect(fast.second.value).toEqual(second.value);
  for (const p of paths(second.value)) {
    expect(fast.second.locate(p)).toEqual(second.locate(p));
    expect(fast.second.locateKey(p)).toEqual(second.locateKey(p));
  }
  return true;
}

/** Words YAML reads plainly, mostly; now and then one it reads specially (the shortcut must then decline). */
const WORD = fc.oneof(
  {
    weight: 12,
    arbitrary: fc.constantFrom(
      "Reads",
      "PDFs:",
      "a:b",
      "x:",
      "true",
      "null",
      "1",
      "-",
      "?",
      ",",
      "tables.",
      "é",
      "~",
    ),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      ":",
      "it's",
      '"q"',
      "#",
      "C#",
      "!",
      "&a",
      "*b",
      "[x]",
      "{y}",
      "|",
      ">",
      "%",
      "@",
      "`",
      "\\",
    ),
  },
);
const VALUE = fc
  .tuple(
    fc.array(WORD, { minLength: 1, maxLength: 7 }),
    fc.constantFrom(" ", "  ", ": ", ":  "),
    fc.boolean(),
  )
  .map(([words, join, trailing]) => {
    const cut = Math.max(1, words.length >> 1);
    return `${words.slice(0, cut).join(" ")}${join}${words.slice(cut).join(" ")}${trailing ? " " : ""}`;
  });
const LINE = fc.oneof(
  { weight: 6, arbitrary: fc.tuple(fc.constantFrom("description", "when_to_use", "x-y", "-k", "_k"), VALUE) },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      "license: MIT",
      'model: "sonnet"',
      "allowed-tools: Read, Grep",
      "allowed-tools:\n  - Read\n  - Bash(git status)",
      'metadata:\n  version: "1.0"\n  author: me',
      "metadata:\n  author: a: b",
      "  continued: line",
      "# a comment",
      "",
      "description: >-\n  folded: text",
      "name: pdf",
      "tags: [a, b]",
    ),
  },
);

const keyOf = (l: string | [string, string]) => (typeof l === "string" ? l.split(":")[0] : l[0]);

describe("frontmatter Claude Code reads only quoted, without the YAML composer", () => {
  it("gives YAML's first error and the quoted reading exactly, on generated frontmatters", () => {
    let answered = 0;
    fc.assert(
      // Keys once each, mostly (a duplicate key is a YAML error of its own, which the shortcut declines).
      fc.property(fc.uniqueArray(LINE, { minLength: 1, maxLength: 6, selector: keyOf }), (lines) => {
        const text = lines.map((l) => (typeof l === "string" ? l : `${l[0]}: ${l[1]}`)).join("\n");
        if (sameAsComposing(text)) answered++;
      }),
      { numRuns: 3000, seed: 42 },
    );
    // The generator reaches the shortcut often, so the comparison is not vacuous.
    expect(answered).toBeGreaterThan(150);
  });

  it("a registry's commonest error: the warning at the value, the quoted value read", () => {
    const md = "---\nname: pdf\ndescription: Reads PDFs: forms, tables\nlicense: MIT\n---\nBody\n";
    const got = parseSkillFile("pdf/SKILL.md", md, "claude-code");
    expect(got.description).toBe("Reads PDFs: forms, tables");
    expect(got.diagnostics).toEqual([
      expect.objectContaining({
        line: 3,
        column: 14,
        severity: "warning",
        code: "skill/frontmatter-yaml",
        message: expect.stringMatching(
          /^invalid YAML: Nested mappings are not allowed in compact mappings; /,
        ),
      }),
    ]);
    // The strict profile takes no shortcut: the same place is an error.
    const strict = parseSkillFile("pdf/SKILL.md", md, "strict");
    expect(strict.diagnostics).toContainEqual(
      expect.objectContaining({ line: 3, column: 14, severity: "error", code: "skill/frontmatter-yaml" }),
    );
  });
});
