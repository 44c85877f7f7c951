import { readFileSync } from "node:fs";
import fc from "fast-check";
import { globSync } from "tinyglobby";
import { describe, expect, it } from "vitest";
import { parseBlockYaml } from "../../src/detect/fast-parse.js";
import { type PathSegment, parseSourceFile } from "../../src/detect/source-file.js";

/** Every path into a value, plus one missing child under each container. */
function paths(v: unknown, at: PathSegment[] = []): PathSegment[][] {
  const out: PathSegment[][] = [at];
  if (Array.isArray(v)) {
    v.forEach((x, i) => {
      out.push(...paths(x, [...at, i]));
    });
    out.push([...at, v.length]);
  } else if (v && typeof v === "object") {
    for (const [k, x] of Object.entries(v)) out.push(...paths(x, [...at, k]));
    out.push([...at, "no-such-key"]);
  }
  return out;
}

function sameAsYaml(file: string, text: string): void {
  const fast = parseSourceFile(file, text, 1);
  const slow = parseSourceFile(file, text, 1, false);
  expect(fast.value).toEqual(slow.value);
  expect(fast.diagnostics).toEqual(slow.diagnostics);
  for (const p of paths(slow.value)) {
    expect(fast.locate(p), `locate ${JSON.stringify(p)}`).toEqual(slow.locate(p));
    expect(fast.locateKey(p), `locateKey ${JSON.stringify(p)}`).toEqual(slow.locateKey(p));
  }
}

describe("JSON fast path", () => {
  it("gives the values and positions the YAML tree gives, on generated JSON in any layout", () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), fc.constantFrom(0, 1, 2, "\t", " \r\n "), (v, indent) => {
        let text = JSON.stringify(v, null, typeof indent === "string" && indent.includes("\r") ? 1 : indent);
        if (indent === " \r\n ") text = text.replace(/\n/g, "\r\n");
        sameAsYaml("suite/x.json", text);
      }),
      { numRuns: 300, seed: 7 },
    );
  });

  it("keeps the first of two equal keys for positions and still reports bad JSON located", () => {
    sameAsYaml("a.json", '{"a": 1, "b": {"c": [1, 2]}, "a": 2}');
    const bad = parseSourceFile("a.json", '{"a": 1,\n "b": }');
    expect(bad.value).toBeUndefined();
    expect(bad.diagnostics[0]).toMatchObject({ code: "file/json-syntax", line: 2 });
  });
});

const KEYS = ["name", "description", "license", "allowed-tools", "model", "x_y", "when_to_use"];
const WORDS = [
  "Use",
  "when",
  "asked",
  "a:b",
  "don't",
  '"quoted"',
  "[x]",
  "{y}",
  "a,b",
  "#tag",
  "-",
  "&ref",
  "*star",
  "!bang",
  "%",
  "@at",
  "`tick`",
  "|",
  ">",
  "?",
  "é",
  "日本",
  "\u2028",
  "\ufeff",
  "1.5",
  "true",
  "null",
  "~",
  "a\\b",
  ":",
  "#",
  "...",
  "---",
];
const value = fc.oneof(
  fc.stringMatching(/^[A-Za-z][a-z ,.'()/-]{0,30}[a-z.]$/),
  fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 5 }).map((w) => w.join(" ")),
  fc.constantFrom(
    "true",
    "False",
    "null",
    "NULL",
    "yes",
    "no",
    "on",
    "1",
    "0x1f",
    ".inf",
    "1e3",
    "~",
    "",
    "v1.2",
  ),
  fc.string({ maxLength: 12 }),
);
const line = fc.oneof(
  { weight: 8, arbitrary: fc.tuple(fc.constantFrom(...KEYS), value).map(([k, v]) => `${k}: ${v}`) },
  { weight: 1, arbitrary: fc.constantFrom("", "# comment", "  ", "  indented: x", "- item", "key:", "k :x") },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom(...KEYS), value).map(([k, v]) => `${k}: ${v}  `) },
);

describe("block YAML fast path", () => {
  it("answers only for what YAML reads the same way: flat frontmatter lines", () => {
    let answered = 0;
    fc.assert(
      fc.property(fc.array(line, { minLength: 1, maxLength: 6 }), (lines) => {
        const text = lines.join("\n");
        if (parseBlockYaml(text)) answered++;
        sameAsYaml("skills/x/SKILL.md", text);
      }),
      { numRuns: 1000, seed: 11 },
    );
    // The fast path must be taken often enough to matter, not just declined.
    expect(answered).toBeGreaterThan(100);
  });

  it("answers only for what YAML reads the same way: nested mappings and sequences, odd indentation", () => {
    const scalarText = fc.oneof(
      value,
      fc.constantFrom(
        '"q \\" # x"',
        "'it''s'",
        '"\\u00e9\\n"',
        '"\\x41"',
        "'a' # c",
        '"b"  # c',
        "-3",
        "0.25",
      ),
      fc.constantFrom(
        "12",
        "007",
        "1.",
        "+1",
        "1e3",
        "a # c",
        "a #c",
        "x: y",
        "{a: 1}",
        "|",
        ">-",
        "|2",
        "|+",
      ),
      fc.constantFrom(
        "true",
        "False",
        "NULL",
        "~",
        "yes",
        "[]",
        "[ ]",
        "[a, 1, true]",
        "[\"#x\", 'y']",
        "[a,]",
      ),
      fc.constantFrom(
        "[a b, c] # n",
        "[a: 1]",
        "[[a]]",
        "[a#b]",
        '["a": 1]',
        "[a, ~]",
        "[a",
        "[a] x",
        "[1.5,-2]",
      ),
    );
    // A document as lines of [indent, text]; indentation is drawn freely, so many are invalid YAML on purpose.
    const entry = fc.oneof(
      { weight: 4, arbitrary: fc.tuple(fc.constantFrom(...KEYS), scalarText).map(([k, v]) => `${k}: ${v}`) },
      { weight: 3, arbitrary: fc.constantFrom(...KEYS).map((k) => `${k}:`) },
      { weight: 3, arbitrary: scalarText.map((v) => `- ${v}`) },
      {
        weight: 3,
        arbitrary: fc.tuple(fc.constantFrom(...KEYS), scalarText).map(([k, v]) => `- ${k}: ${v}`),
      },
      { weight: 1, arbitrary: fc.constantFrom(...KEYS).map((k) => `-   ${k}:`) },
      { weight: 1, arbitrary: fc.constantFrom("# note", "-", "- - a", "key:  # why", "", "---", "  ", "x") },
      {
        weight: 2,
        arbitrary: fc
          .tuple(fc.constantFrom(...KEYS), fc.constantFrom("|", "|-", ">", ">-", "> # c", "|+", "|1"))
          .map(([k, h]) => `${k}: ${h}`),
      },
      {
        weight: 2,
        arbitrary: fc.constantFrom("  text of a block", "    more", "  # inside", "  a: b", "  - x "),
      },
    );
    const doc = fc
      .array(fc.tuple(fc.constantFrom(0, 2, 2, 4, 4, 6, 1, 3), entry), { minLength: 1, maxLength: 10 })
      .map((ls) => ls.map(([n, t]) => " ".repeat(n) + t).join("\n"));
    let answered = 0;
    let nested = 0;
    let flows = 0;
    fc.assert(
      fc.property(doc, (text) => {
        const got = parseBlockYaml(text);
        if (got) {
          answered++;
          if (/: \[./.test(text)) flows++;
          if (Object.values(got.value as object).some((v) => v && typeof v === "object")) nested++;
        }
        sameAsYaml("suite/prompts/c.yaml", text);
      }),
      { numRuns: 6000, seed: 23 },
    );
    expect(answered).toBeGreaterThan(200);
    expect(nested).toBeGreaterThan(50);
    expect(flows).toBeGreaterThan(20);
  });

  it("answers only for what YAML reads the same way: block scalars", () => {
    const content = fc.constantFrom(
      "Write a function",
      "# kept",
      "a: b",
      "- x",
      "  deeper",
      "",
      " ",
      "tail  ",
      "é",
    );
    const doc = fc
      .tuple(
        fc.constantFrom("", "- "),
        fc.constantFrom("|", "|-", ">", ">-", ">- # c"),
        fc.constantFrom(1, 2, 2, 4),
        fc.array(content, { minLength: 0, maxLength: 4 }),
        fc.constantFrom("", "\n", "\n\n", "\nnext: 1", "\n\nnext: 1", "\n# c\nnext: 1", "\n  next: 1"),
      )
      .map(([item, header, n, body, after]) => {
        const pad = " ".repeat(n + (item ? 2 : 0));
        const head = `${item}prompt: ${header}`;
        const lines = body.map((l) => (l === "" ? "" : pad + l));
        return [item ? `${head}\n${" ".repeat(2)}id: x` : head, ...lines].join("\n") + after;
      });
    let answered = 0;
    fc.assert(
      fc.property(doc, (text) => {
        if (parseBlockYaml(text)) answered++;
        sameAsYaml("suite/prompts/b.yaml", text);
      }),
      { numRuns: 2000, seed: 31 },
    );
    expect(answered).toBeGreaterThan(200);
  });

  it("takes suite cases and frontmatter as they are usually written", () => {
    const text = [
      "id: case-1   # the first",
      "prompt: >-",
      "  Do task 7",
      "  # not a comment: part of the prompt",
      "files: [fixtures/package.json, 'b.txt']",
      "# assertions follow",
      "assertions:",
      "  - id: says",
      "    type: contains",
      '    value: "7"',
      "  - id: D:not-six",
      "    type: not-contains",
      "    value: 'six' # tempting",
      "    weight: 0.5",
      "    discriminator: true",
      "tags:",
      "- a",
      "- b",
    ].join("\n");
    expect(parseBlockYaml(text)?.value).toEqual({
      id: "case-1",
      prompt: "Do task 7 # not a comment: part of the prompt",
      files: ["fixtures/package.json", "b.txt"],
      assertions: [
        { id: "says", type: "contains", value: "7" },
        { id: "D:not-six", type: "not-contains", value: "six", weight: 0.5, discriminator: true },
      ],
      tags: ["a", "b"],
    });
    sameAsYaml("suite/prompts/case-1.yaml", text);
    expect(parseBlockYaml("name: pdf\nmetadata:\n  version: 1.0\n  owner: docs")?.value).toEqual({
      name: "pdf",
      metadata: { version: 1, owner: "docs" },
    });
  });

  it("declines what it does not read exactly: deeper or blank block lines, flow maps, nesting, syntax errors", () => {
    for (const text of [
      "prompt: >-\n  folded\n\n  after a blank line",
      "prompt: |\n  literal\n    deeper",
      "prompt: |+\n  keep",
      "prompt: |\n",
      "files: [a, [b]]",
      "options: { mode: count }",
      "name: pdf\nname: again",
      "description: Use when: asked",
      "description: first line\n  continued",
      "empty:",
      "a: &x b",
      "a: !!str b",
      "a: 1e3",
      '"quoted key": 1',
      "a:\n  - x\n  b: 1",
      "a: 1\n- b",
      "- a\nb: 1",
      "---\na: 1",
      "a:\tb",
    ])
      expect(parseBlockYaml(text), text).toBeUndefined();
  });
});

describe("fast paths on real files", () => {
  it("read every frontmatter of the corpus and every YAML file of the examples as yaml does", () => {
    const skills = globSync(["examples/**/SKILL.md", "test/fixtures/**/SKILL.md"], {
      dot: true,
    });
    const yamls = globSync(["examples/**/*.{yaml,yml}", "test/fixtures/**/*.{yaml,yml}"], { dot: true });
    expect(skills.length).toBeGreaterThan(20);
    expect(yamls.length).toBeGreaterThan(10);
    let fast = 0;
    for (const file of skills) {
      const fm = /^---\n([\s\S]*?)\n---/.exec(readFileSync(file, "utf8"))?.[1];
      if (fm === undefined) continue;
      if (parseBlockYaml(fm)) fast++;
      sameAsYaml(file, fm);
    }
    for (const file of yamls) {
      const text = readFileSync(file, "utf8");
      if (parseBlockYaml(text)) fast++;
      sameAsYaml(file, text);
    }
    // Most real files take the fast path; the rest (block scalars, flow lists) must still read the same.
    expect(fast).toBeGreaterThan((skills.length + yamls.length) / 2);
  });
});
