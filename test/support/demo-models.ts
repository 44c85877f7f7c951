/**
 * Scripted models that play the demo's agent (examples/demo-agent/agent.mjs) through the real Claude Code and Codex
 * CLIs: they route by the words a prompt shares with the listed skills' descriptions, load the chosen skill (the
 * `Skill` tool; Codex: `cat` its SKILL.md), write the module a case asks for (Claude Code's `Write`; Codex: a shell
 * heredoc) and answer. A `follower` knows the largest-remainder rule only when the skill's body reached it; a
 * `knower` knows it anyway (a model that needs no skill for it). Deterministic: no randomness.
 */
import type { ScriptedReply, ScriptedRequest } from "./scripted-anthropic.js";
import { text, toolUse } from "./scripted-anthropic.js";
import type { ResponsesReply, ResponsesRequest } from "./scripted-responses.js";
import { respCall, respText } from "./scripted-responses.js";

const STOP = new Set(
  "a an and are as at be by can for from how i in into is it its of on or our that the this to we what when with without write your use any".split(
    " ",
  ),
);
const words = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9#]+/g, " ")
    .split(" ")
    .filter((w) => w.length > 2 && !STOP.has(w))
    .map((w) => w.replace(/(ing|ed|ly|s)$/, "").replace(/e$/, ""));

/** The skill the demo agent's router picks among `- name: description` lines of the request, if any. */
function route(raw: string, prompt: string): string | undefined {
  const listed = [...raw.matchAll(/- ([a-z0-9-]+): ([^\\"]+)/g)].map((m) => ({
    name: m[1]!,
    description: m[2]!,
  }));
  const p = new Set(words(prompt));
  let best = 1;
  let chosen: string | undefined;
  for (const s of listed) {
    const keys = new Set(words(`${s.name.replace(/-/g, " ")} ${s.description}`));
    const score = [...p].filter((w) => keys.has(w)).length;
    if (score > best) {
      best = score;
      chosen = s.name;
    }
  }
  return chosen;
}

const GOOD_SPLIT = `export function splitCents(totalCents: number, n: number): number[] {
  if (!Number.isSafeInteger(totalCents) || totalCents < 0) throw new RangeError("totalCents");
  if (!Number.isSafeInteger(n) || n < 1) throw new RangeError("n");
  const base = Math.floor(totalCents / n);
  const parts = Array.from({ length: n }, () => base);
  for (let i = 0; i < totalCents - base * n; i++) parts[i] += 1;
  return parts;
}
`;
const BAD_SPLIT = `export function splitCents(totalCents: number, n: number): number[] {
  return Array.from({ length: n }, () => Math.round(totalCents / n));
}
`;
const GOOD_ALLOCATE = `export function allocate(total: number, weights: number[]): number[] {
  if (!Number.isSafeInteger(total) || total < 0) throw new RangeError("total");
  if (!Array.isArray(weights) || weights.length === 0 || weights.some((w) => !Number.isSafeInteger(w) || w < 0))
    throw new RangeError("weights");
  const sum = weights.reduce((a, b) => a + b, 0);
  if (sum === 0) throw new RangeError("weights");
  const parts = weights.map((w) => Math.floor((total * w) / sum));
  const order = weights.map((w, i) => ({ i, rem: (total * w) % sum })).sort((a, b) => b.rem - a.rem || a.i - b.i);
  for (let k = 0; k < total - parts.reduce((a, b) => a + b, 0); k++) parts[order[k % order.length]!.i] += 1;
  return parts;
}
`;
const BAD_ALLOCATE = `export function allocate(total: number, weights: number[]): number[] {
  const sum = weights.reduce((a, b) => a + b, 0);
  return weights.map((w) => Math.round((total * w) / sum));
}
`;

/** What the demo's case asks for, and the answer with and without the rule. */
function demoCase(raw: string, knows: boolean) {
  if (raw.includes("Write splitCents(totalCents, n)"))
    return {
      file: "src/split.ts",
      content: knows ? GOOD_SPLIT : BAD_SPLIT,
      answer: knows
        ? "I wrote splitCents in src/split.ts. For 1000 cents and 3 people: 334, 333, 333 (sum 1000)."
        : "I wrote splitCents in src/split.ts. For 1000 cents and 3 people each part is 333 (1000 / 3 rounded).",
    };
  if (raw.includes("Write allocate(totalCents, weights)"))
    return {
      file: "src/allocate.ts",
      content: knows ? GOOD_ALLOCATE : BAD_ALLOCATE,
      answer: knows
        ? "allocate hands leftover cents to the largest remainders: [34, 33, 33]."
        : "allocate rounds each share: [33, 33, 33].",
    };
  if (raw.includes("refund must be paid back to 3 card holders"))
    return { answer: knows ? "334\n333\n333" : "333\n333\n333" };
  return undefined;
}

const RULE = "largest remainder";

/** The user's prompt among `prompts` that the request holds (JSON-escaped, as it travels). */
const promptIn = (raw: string, prompts: readonly string[]) =>
  prompts.find((p) => raw.includes(JSON.stringify(p).slice(1, -1))) ?? "";

export function demoAnthropic(o: { knower: boolean; prompts: readonly string[] }) {
  return (r: ScriptedRequest): ScriptedReply => {
    if (!r.hasTools) return text("ok");
    const prompt = promptIn(r.raw, o.prompts);
    if (r.turn === 0) {
      const skill = route(r.raw, prompt);
      if (skill) return toolUse("Skill", { skill });
    }
    const c = demoCase(r.raw, o.knower || r.raw.toLowerCase().includes(RULE));
    if (!c) return text("Done.");
    if (c.file && !r.raw.includes("File created"))
      return toolUse("Write", { file_path: c.file, content: c.content });
    return text(c.answer);
  };
}

export function demoResponses(o: { knower: boolean; prompts: readonly string[] }) {
  return (r: ResponsesRequest): ResponsesReply => {
    const prompt = promptIn(r.raw, o.prompts);
    if (r.turn === 0) {
      const skill = route(r.raw, prompt);
      if (skill) return respCall("exec_command", { cmd: `cat .agents/skills/${skill}/SKILL.md` });
    }
    const c = demoCase(r.raw, o.knower || r.raw.toLowerCase().includes(RULE));
    if (!c) return respText("Done.");
    if (c.file && !r.raw.includes(`cat > ${c.file}`))
      return respCall("exec_command", {
        cmd: `mkdir -p src && cat > ${c.file} <<'EOF'\n${c.content}EOF`,
      });
    return respText(c.answer);
  };
}
