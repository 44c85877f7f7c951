/**
 * fast-check generators of malformed skillgate inputs, shared by the fuzz tests (500 seeded cases) and
 * `bench/fuzz.ts` (≥ 10,000). Structure-aware generation takes a valid document of each kind, mutates its
 * value tree (wrong types, missing keys, unicode, huge strings) and its text (deep nesting, alias bombs, tabs,
 * BOMs, CRLF, NUL bytes, truncation); the rest is raw bytes.
 */
import fc from "fast-check";
import { stringify } from "yaml";

/** Every parser the fuzzer drives: suite and config files, SKILL.md, agent transcripts. */
export const FUZZ_KINDS = [
  "skill",
  "case",
  "assertions",
  "meta",
  "trigger-eval",
  "evals",
  "trigger-tests",
  "config",
  "claude-stream",
  "command-stdout",
] as const;
export type FuzzKind = (typeof FUZZ_KINDS)[number];

/** One generated input: the bytes of one file (or one agent's stdout) of a kind. */
export interface FuzzInput {
  kind: FuzzKind;
  bytes: Uint8Array;
  /** How it was made, for the report of a failing case. */
  how: string;
}

/** Big enough to cross every length limit (1,024-character descriptions…), small enough for 10,000 inputs. */
const HUGE_STRING_CHARS = 20_000;
const MAX_NESTING = 1_000;
/** `a: a: a: …` on one line: every key is a YAML error. */
const HUGE_LINE_KEYS = 5_000;
/** Alias levels × fan-out: 9^6 ≈ 531,441 nodes when expanded naively. */
const ALIAS_BOMB_LEVELS = 6;

const VALID: Record<FuzzKind, unknown[]> = {
  skill: [
    {
      fm: {
        name: "fuzz",
        description: "Splits money into cents without losing any. Use for bills and refunds.",
      },
      body: "# Fuzz\n\nUse largest remainder.\n",
    },
    {
      fm: {
        name: "fuzz",
        description: "Checks SQL for tenant filters.",
        "allowed-tools": "Read Bash",
        metadata: { version: "1.0" },
        license: "MIT",
        when_to_use: "SQL review",
      },
      body: "Body\n".repeat(3),
    },
  ],
  case: [
    {
      id: "c",
      prompt: "Write splitCents in src/split.ts",
      files: ["fixtures/package.json"],
      assertions: [
        { id: "mentions", type: "contains", value: "1000" },
        { id: "D:no-lost", type: "not-one-of", extract: "first-number", values: [333] },
        { id: "num", type: "number-range", range: [1, 2], depends_on: ["mentions"] },
        { id: "act", type: "skill-used" },
      ],
    },
    { id: "c", prompt: "hello", assertions: [{ id: "r", type: "regex", value: "a+b" }] },
  ],
  assertions: [
    [
      { id: "D:sums", type: "regex", value: "334\\s*333", discriminator: true },
      { id: "nc", type: "not-contains", value: "334\n334" },
    ],
    {
      assertions: [
        { id: "z", type: "contains", value: "y" },
        { id: "x", type: "contains", value: "y", depends_on: "z" },
      ],
    },
  ],
  meta: [
    {
      skillVersion: "1.2",
      suiteVersion: "1.2",
      trials: 3,
      thresholds: { discriminatorPassRate: 0.8, discriminatorLift: 0.3, triggerPrecision: 0.8 },
    },
    { trials: 5, vars: { cents: 1000 } },
  ],
  "trigger-eval": [
    {
      shouldFire: [
        { prompt: "split the bill", reason: "bill" },
        "divide 100 dollars",
        { prompt: "a", confidence: "medium" },
      ],
      shouldNotFire: ["write a poem", { prompt: "sort a list" }],
    },
  ],
  evals: [
    {
      skill_name: "fuzz",
      evals: [
        { id: 1, prompt: "Fill the form", expected_output: "a PDF", expectations: ["names every field"] },
        {
          id: 2,
          prompt: "Merge",
          assertions: [{ text: "in order" }, { id: "m", type: "contains", value: "merged" }],
        },
      ],
    },
  ],
  "trigger-tests": [
    {
      skill: "fuzz",
      should_trigger_prompts: [{ prompt: "Pick a gray", reason: "color", confidence: "high" }],
      should_not_trigger_prompts: [{ prompt: "Sort numbers", confidence: "medium" }],
    },
  ],
  config: [
    {
      agent: { adapter: "command", command: "node agent.mjs" },
      trials: 3,
      timeoutSeconds: 30,
      skills: { globs: ["skills/*/SKILL.md"], exclude: ["skills/old/**"] },
    },
    { agent: { adapter: "replay", recordings: ".skillgate/recordings" }, profile: "strict" },
  ],
  "claude-stream": [
    [
      { type: "system", subtype: "init", skills: ["fuzz", "other"] },
      {
        type: "assistant",
        message: {
          id: "m1",
          content: [{ type: "tool_use", id: "t1", name: "Skill", input: { skill: "fuzz" } }],
        },
      },
      {
        type: "user",
        message: {
          content: [{ type: "tool_result", tool_use_id: "t1", content: [{ type: "text", text: "ok" }] }],
        },
      },
      {
        type: "result",
        subtype: "success",
        result: "334\n333\n333",
        usage: { input_tokens: 10, output_tokens: 5, cache_read_input_tokens: 3 },
        total_cost_usd: 0.01,
      },
    ],
  ],
  "command-stdout": [
    {
      output: "done",
      skillsActivated: ["fuzz"],
      toolCalls: [
        { name: "Write", input: { file_path: "a.ts", content: "x" }, output: "ok", isError: false },
      ],
      usage: { inputTokens: 1, outputTokens: 2, costUsd: 0.5 },
    },
  ],
};

/** JSON kinds are serialised as JSON; the rest as YAML (SKILL.md: YAML frontmatter + body). */
const JSON_KINDS = new Set<FuzzKind>(["meta", "trigger-eval", "evals", "claude-stream", "command-stdout"]);

// ── value-tree mutations ──────────────────────────────────────────────────────────────────────────────────

type Json = unknown;

const hostileString = fc.oneof(
  fc.string({ unit: "grapheme", maxLength: 40 }),
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.constantFrom(
    "",
    " ",
    "\t",
    "\0",
    "\uFEFF",
    "---",
    "...",
    "*a",
    "&a",
    "!!binary",
    "~",
    "null",
    "- x",
    "a: b",
  ),
  fc.constantFrom(
    "\u202E",
    "\uD800",
    "😀".repeat(10),
    "é".normalize("NFD"),
    "\r",
    "\r\n",
    "{{x}}",
    "%YAML 1.1",
  ),
);

const leaf: fc.Arbitrary<Json> = fc.oneof(
  hostileString,
  fc.integer(),
  fc.double(),
  fc.constantFrom(Number.MAX_SAFE_INTEGER * 4, -0, 1e308, -1, 0, 1.5),
  fc.boolean(),
  fc.constant(null),
  fc.constant(undefined),
  fc.constant({ huge: true }).map(() => "x".repeat(HUGE_STRING_CHARS)),
);

const anyValue: fc.Arbitrary<Json> = fc.oneof(
  { weight: 4, arbitrary: leaf },
  { weight: 1, arbitrary: fc.array(leaf, { maxLength: 4 }) },
  { weight: 1, arbitrary: fc.dictionary(hostileString, leaf, { maxKeys: 4 }) },
  { weight: 1, arbitrary: fc.integer({ min: 50, max: 400 }).map(nestedArray) },
);

function nestedArray(depth: number): Json {
  let v: Json = [];
  for (let i = 0; i < depth; i++) v = [v];
  return v;
}

type TreeOp =
  | { op: "replace"; at: number; value: Json }
  | { op: "delete"; at: number }
  | { op: "add"; at: number; key: string; value: Json }
  | { op: "wrap"; at: number };

const treeOp: fc.Arbitrary<TreeOp> = fc.oneof(
  fc.record({ op: fc.constant("replace" as const), at: fc.nat(), value: anyValue }),
  fc.record({ op: fc.constant("delete" as const), at: fc.nat() }),
  fc.record({ op: fc.constant("add" as const), at: fc.nat(), key: hostileString, value: anyValue }),
  fc.record({ op: fc.constant("wrap" as const), at: fc.nat() }),
);

type Path = (string | number)[];

function paths(v: Json, prefix: Path = [], out: Path[] = []): Path[] {
  out.push(prefix);
  if (Array.isArray(v)) {
    for (const [i, x] of v.entries()) paths(x, [...prefix, i], out);
  } else if (v && typeof v === "object")
    for (const [k, x] of Object.entries(v as Record<string, Json>)) paths(x, [...prefix, k], out);
  return out;
}

function applyOp(root: Json, op: TreeOp): Json {
  const all = paths(root);
  const path = all[op.at % all.length]!;
  if (path.length === 0) {
    if (op.op === "replace") return op.value;
    if (op.op === "wrap") return [root];
    if (op.op === "add" && root && typeof root === "object" && !Array.isArray(root))
      return { ...(root as object), [op.key]: op.value };
    return root;
  }
  const parent = path.slice(0, -1).reduce<Json>((v, k) => (v as Record<string, Json>)[k], root) as Record<
    string | number,
    Json
  >;
  const key = path[path.length - 1]!;
  if (op.op === "replace") parent[key] = op.value;
  else if (op.op === "wrap") parent[key] = [parent[key]];
  else if (op.op === "delete") {
    if (Array.isArray(parent)) parent.splice(key as number, 1);
    else delete parent[key];
  } else {
    const target = parent[key];
    if (target && typeof target === "object" && !Array.isArray(target))
      (target as Record<string, Json>)[op.key] = op.value;
    else parent[key] = { [op.key]: op.value };
  }
  return root;
}

// ── serialisation and text mutations ──────────────────────────────────────────────────────────────────────

function serialise(kind: FuzzKind, v: Json, style: number): string {
  if (kind === "claude-stream")
    return Array.isArray(v)
      ? v.map((e) => JSON.stringify(e) ?? "undefined").join("\n")
      : (JSON.stringify(v) ?? "");
  if (kind === "skill") {
    const o = (v && typeof v === "object" ? v : {}) as { fm?: Json; body?: Json };
    const fm = o.fm === undefined ? "" : safeYaml(o.fm, style);
    // fast-check dictionaries have no prototype: String() of them throws, JSON does not.
    return `---\n${fm}---\n${typeof o.body === "string" ? o.body : (JSON.stringify(o.body) ?? "")}`;
  }
  if (JSON_KINDS.has(kind))
    return JSON.stringify(v, null, style % 3 === 0 ? undefined : style % 3 === 1 ? 2 : "\t") ?? "";
  return safeYaml(v, style);
}

function safeYaml(v: Json, style: number): string {
  try {
    return stringify(v, { indent: 2 + (style % 3), lineWidth: style % 2 ? 0 : 80 }) ?? "";
  } catch {
    return JSON.stringify(v) ?? "";
  }
}

function aliasBomb(): string {
  const lines = ['a0: &a0 ["x","x","x","x","x","x","x","x","x"]'];
  for (let i = 1; i <= ALIAS_BOMB_LEVELS; i++)
    lines.push(`a${i}: &a${i} [${Array.from({ length: 9 }, () => `*a${i - 1}`).join(",")}]`);
  return `${lines.join("\n")}\n`;
}

type TextOp =
  | { op: "bom" | "crlf" | "cr" | "tabs" | "alias-bomb" | "anchor-merge" | "huge-line" | "document-end" }
  | {
      op: "truncate" | "nul" | "deep-flow" | "deep-block" | "dup-line" | "delete-char";
      at: number;
      n: number;
    }
  | { op: "insert"; at: number; s: string };

const textOp: fc.Arbitrary<TextOp> = fc.oneof(
  fc.record({
    op: fc.constantFrom(
      "bom" as const,
      "crlf" as const,
      "cr" as const,
      "tabs" as const,
      "alias-bomb" as const,
      "anchor-merge" as const,
      "huge-line" as const,
      "document-end" as const,
    ),
  }),
  fc.record({
    op: fc.constantFrom(
      "truncate" as const,
      "nul" as const,
      "deep-flow" as const,
      "deep-block" as const,
      "dup-line" as const,
      "delete-char" as const,
    ),
    at: fc.nat(),
    n: fc.integer({ min: 1, max: MAX_NESTING }),
  }),
  fc.record({ op: fc.constant("insert" as const), at: fc.nat(), s: hostileString }),
);

function applyText(text: string, t: TextOp): string {
  const pos = "at" in t ? t.at % (text.length + 1) : 0;
  const lineStart = text.lastIndexOf("\n", pos - 1) + 1;
  switch (t.op) {
    case "bom":
      return `\uFEFF${text}`;
    case "crlf":
      return text.replace(/\r?\n/g, "\r\n");
    case "cr":
      return text.replace(/\r?\n/g, "\r");
    case "tabs":
      return text.replace(/^( +)/gm, (m) => "\t".repeat(Math.max(1, m.length >> 1)));
    case "alias-bomb":
      return aliasBomb() + text;
    case "anchor-merge":
      return `base: &b {id: x, type: contains}\nmerged: {<<: *b, <<: *b}\n${text}`;
    case "huge-line":
      return `${text}\n${"a: ".repeat(HUGE_LINE_KEYS)}\n`;
    case "document-end":
      return `${text}\n---\nsecond: doc\n...\n`;
    case "truncate":
      return text.slice(0, pos);
    case "nul":
      return `${text.slice(0, pos)}${"\0".repeat(Math.min(t.n, 8))}${text.slice(pos)}`;
    case "deep-flow":
      return `${text.slice(0, lineStart)}deep: ${"[".repeat(t.n)}${"]".repeat(t.n)}\n${text.slice(lineStart)}`;
    case "deep-block": {
      const depth = Math.min(t.n, 300);
      const block = Array.from({ length: depth }, (_, i) => `${" ".repeat(i)}- `).join("\n");
      return `${text.slice(0, lineStart)}deep:\n${block}x\n${text.slice(lineStart)}`;
    }
    case "dup-line": {
      const end = text.indexOf("\n", pos);
      const line = text.slice(lineStart, end < 0 ? text.length : end + 1);
      return text.slice(0, lineStart) + line + line + text.slice(lineStart);
    }
    case "delete-char":
      return text.slice(0, pos) + text.slice(pos + Math.min(t.n, 5));
    case "insert":
      return text.slice(0, pos) + t.s + text.slice(pos);
  }
}

const encoder = new TextEncoder();

/** A valid document of `kind`, value tree and text mutated. */
export function structuredInput(kind: FuzzKind): fc.Arbitrary<FuzzInput> {
  return fc
    .record({
      template: fc.nat(),
      treeOps: fc.array(treeOp, { maxLength: 4 }),
      textOps: fc.array(textOp, { maxLength: 3 }),
      style: fc.nat({ max: 5 }),
    })
    .map(({ template, treeOps, textOps, style }) => {
      const templates = VALID[kind];
      let v: Json = structuredClone(templates[template % templates.length]);
      for (const op of treeOps) v = applyOp(v, op);
      let text = serialise(kind, v, style) ?? "";
      for (const t of textOps) text = applyText(text, t);
      const how = `${kind}: template ${template % templates.length}, tree ${treeOps.map((o) => o.op).join("+") || "-"}, text ${textOps.map((o) => o.op).join("+") || "-"}`;
      return { kind, bytes: encoder.encode(text), how };
    });
}

/** Raw bytes, biased towards the characters parsers care about. */
export function rawInput(kind: FuzzKind): fc.Arbitrary<FuzzInput> {
  const syntaxBytes = fc.constantFrom(...encoder.encode("{}[]:,-\"'\n\r\t #&*!|>%@`\\\0---"));
  return fc
    .array(fc.oneof(fc.integer({ min: 0, max: 255 }), syntaxBytes), { maxLength: 300 })
    .map((a) => ({ kind, bytes: Uint8Array.from(a), how: `${kind}: raw ${a.length} bytes` }));
}

/** The mix: 4 structure-aware inputs to 1 raw one, over every kind. */
export function fuzzInput(kinds: readonly FuzzKind[] = FUZZ_KINDS): fc.Arbitrary<FuzzInput> {
  return fc
    .constantFrom(...kinds)
    .chain((kind) =>
      fc.oneof({ weight: 4, arbitrary: structuredInput(kind) }, { weight: 1, arbitrary: rawInput(kind) }),
    );
}

/** The valid documents, serialised: a fuzz harness must accept these without an error. */
export function validInputs(): FuzzInput[] {
  return FUZZ_KINDS.flatMap((kind) =>
    VALID[kind].map((v, i) => ({
      kind,
      bytes: encoder.encode(serialise(kind, structuredClone(v), 1)),
      how: `${kind}: valid template ${i}`,
    })),
  );
}
