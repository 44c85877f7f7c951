#!/usr/bin/env node
// A small deterministic coding agent for the demo, speaking skillgate's `command` protocol:
// prompt on stdin, skills installed under .agents/skills/<name>/ in the cwd, env SKILLGATE_SEED;
// prints one JSON object {output, skillsActivated, toolCalls}. It routes like a crude lexical router and
// follows a skill only as far as the skill's text tells it to; without guidance it takes the tempting
// wrong path (333 cents each, SQL by id only, slate-400 gray) most of the time.
// The recordings in examples/demo-repo-base/.skillgate/recordings were made by running it (see README).
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

const prompt = readFileSync(0, "utf8");
const seed = Number(process.env.SKILLGATE_SEED ?? "1") >>> 0;
let state = seed || 1;
/** xorshift32: same seed, same behaviour. */
const random = () => {
  state ^= state << 13;
  state >>>= 0;
  state ^= state >>> 17;
  state ^= state << 5;
  state >>>= 0;
  return state / 2 ** 32;
};

const STOP = new Set("a an and are as at be by can for from how i in into is it its of on or our that the this to we what when with without write your use any".split(" "));
const words = (s) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9#]+/g, " ")
    .split(" ")
    .filter((w) => w.length > 2 && !STOP.has(w))
    .map((w) => w.replace(/(ing|ed|ly|s)$/, "").replace(/e$/, ""));

const skillsDir = ".agents/skills";
const skills = existsSync(skillsDir)
  ? readdirSync(skillsDir)
      .filter((n) => existsSync(join(skillsDir, n, "SKILL.md")))
      .map((name) => {
        const text = readFileSync(join(skillsDir, name, "SKILL.md"), "utf8");
        const description = /\ndescription:\s*(.*)\n/.exec(text)?.[1] ?? "";
        return { name, text, keys: new Set(words(`${name.replace(/-/g, " ")} ${description}`)) };
      })
  : [];

// Route: the skill whose name + description shares the most words with the prompt, if it shares at least two.
const promptWords = new Set(words(prompt));
let chosen;
let best = 1;
for (const s of skills) {
  const score = [...promptWords].filter((w) => s.keys.has(w)).length;
  if (score > best) {
    best = score;
    chosen = s;
  }
}
const toolCalls = [];
const skillsActivated = [];
if (chosen) {
  skillsActivated.push(chosen.name);
  toolCalls.push({ name: "Skill", input: { skill: chosen.name }, output: `Launching skill: ${chosen.name}` });
}
const guidance = chosen?.text ?? "";
/** Follows the skill when it says so (95 %), else the tempting path, right by luck 15 % of the time. */
const follows = (marker) => (guidance.includes(marker) ? random() < 0.95 : random() < 0.15);

const writeFile = (path, content) => {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, content);
  toolCalls.push({ name: "Write", input: { file_path: path, content } });
};

const p = prompt.toLowerCase();
let output;
if (p.includes("splitcents")) {
  if (follows("largest remainder")) {
    writeFile("src/split.ts", GOOD_SPLIT());
    output = "I wrote splitCents in src/split.ts using largest-remainder allocation.\nFor 1000 cents and 3 people: 334, 333, 333 (sum 1000).";
  } else {
    writeFile("src/split.ts", "export function splitCents(totalCents: number, n: number): number[] {\n  return Array.from({ length: n }, () => Math.round(totalCents / n));\n}\n");
    output = "I wrote splitCents in src/split.ts.\nFor 1000 cents and 3 people each part is 333 (1000 / 3 rounded).";
  }
} else if (p.includes("allocate(totalcents, weights)")) {
  if (follows("largest remainder")) {
    writeFile("src/allocate.ts", GOOD_ALLOCATE());
    output = "allocate in src/allocate.ts hands leftover cents to the largest remainders: [34, 33, 33].";
  } else {
    writeFile("src/allocate.ts", "export function allocate(total: number, weights: number[]): number[] {\n  const sum = weights.reduce((a, b) => a + b, 0);\n  return weights.map((w) => Math.round((total * w) / sum));\n}\n");
    output = "allocate in src/allocate.ts rounds each share: [33, 33, 33].";
  }
} else if (p.includes("refund")) {
  output = follows("largest remainder")
    ? "334\n333\n333\nThe first card holder gets the leftover cent."
    : "333\n333\n333\nEach card holder gets an equal share.";
} else if (p.includes("getinvoice")) {
  if (follows("tenant_id = ?")) {
    writeFile("src/invoices.ts", 'export async function getInvoice(ctx, id, db) {\n  const rows = await db.query(\n    "SELECT id, tenant_id, amount_cents, memo FROM invoices WHERE id = ? AND tenant_id = ?",\n    [id, ctx.tenantId],\n  );\n  return rows[0] ?? null;\n}\n');
    output = "src/invoices.ts runs:\n\nSELECT id, tenant_id, amount_cents, memo FROM invoices WHERE id = ? AND tenant_id = ?\n\nwith [id, ctx.tenantId] bound.";
  } else {
    writeFile("src/invoices.ts", "export async function getInvoice(ctx, id, db) {\n  const rows = await db.query(`SELECT * FROM invoices WHERE id = '${id}'`);\n  return rows[0] ?? null;\n}\n");
    output = "src/invoices.ts runs:\n\nSELECT * FROM invoices WHERE id = '${id}'";
  }
} else if (p.includes("fetch one order")) {
  output = follows("tenant_id = ?")
    ? "SELECT * FROM orders WHERE id = ? AND tenant_id = ?"
    : "SELECT * FROM orders WHERE id = ?";
} else if (p.includes("muted gray")) {
  const color = follows("#64748b") ? "#64748b" : "#94a3b8";
  writeFile("src/palette.ts", `export const pairs = [\n  { name: "secondary-text", fg: "${color}", bg: "#ffffff", kind: "text" },\n];\n`);
  output = `{"color": "${color}"}\nI exported the pair from src/palette.ts.`;
} else {
  output = chosen ? `Using the ${chosen.name} skill for this request.` : "Done.";
}
process.stdout.write(`${JSON.stringify({ output, skillsActivated, toolCalls })}\n`);

function GOOD_SPLIT() {
  return `export function splitCents(totalCents: number, n: number): number[] {
  if (!Number.isSafeInteger(totalCents) || totalCents < 0) throw new RangeError("totalCents must be a non-negative integer");
  if (!Number.isSafeInteger(n) || n < 1) throw new RangeError("n must be a positive integer");
  const base = Math.floor(totalCents / n);
  const parts = Array.from({ length: n }, () => base);
  for (let i = 0; i < totalCents - base * n; i++) parts[i] += 1;
  return parts;
}
`;
}

function GOOD_ALLOCATE() {
  return `export function allocate(total: number, weights: number[]): number[] {
  if (!Number.isSafeInteger(total) || total < 0) throw new RangeError("total must be a non-negative integer");
  if (!Array.isArray(weights) || weights.length === 0 || weights.some((w) => !Number.isSafeInteger(w) || w < 0))
    throw new RangeError("weights must be non-negative integers");
  const sum = weights.reduce((a, b) => a + b, 0);
  if (sum === 0) throw new RangeError("weights must not all be zero");
  const parts = weights.map((w) => Math.floor((total * w) / sum));
  const order = weights
    .map((w, i) => ({ i, rem: (total * w) % sum }))
    .sort((a, b) => b.rem - a.rem || a.i - b.i);
  for (let k = 0; k < total - parts.reduce((a, b) => a + b, 0); k++) parts[order[k % order.length].i] += 1;
  return parts;
}
`;
}
