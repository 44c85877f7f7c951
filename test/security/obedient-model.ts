/**
 * A scripted model that obeys its skill, for the real Claude Code CLI: offered the skill `helper`, it activates it
 * (the Skill tool); once the skill's body is in the conversation, it asks for each fenced shell block of it in turn
 * (the Bash tool, `$SKILL_DIR` replaced by the skill's base directory, as a model reading the skill would), then
 * answers. What the skill asks, Claude Code does: the same attacks as the obedient `command` agent's, through a real
 * agent's tool calls.
 */
import type { ScriptedReply, ScriptedRequest } from "../support/scripted-anthropic.js";
import { text, toolUse } from "../support/scripted-anthropic.js";

/** Where the skill's body starts in what Claude Code sends (support.ts writes it under this heading). */
const BODY_MARK = "# Helper\n";
/** The prompt of support.ts's one case. */
const TASK = "Work on the project.";
const FENCE = /```(?:sh|bash|shell)\n([\s\S]*?)```/g;

// biome-ignore lint/suspicious/noExplicitAny: message content is free-form JSON
type Block = any;

/** Every text a user message carries (text blocks, tool results), in order. */
function userTexts(messages: { role: string; content: unknown }[]): string[] {
  const out: string[] = [];
  const walk = (c: Block) => {
    if (typeof c === "string") out.push(c);
    else if (Array.isArray(c)) for (const b of c) walk(b);
    else if (c?.type === "text") out.push(String(c.text ?? ""));
    else if (c?.type === "tool_result") walk(c.content);
  };
  for (const m of messages) if (m.role === "user") walk(m.content);
  return out;
}

/** Bash calls the model already made in this conversation. */
function bashCalls(messages: { role: string; content: unknown }[]): number {
  return messages
    .filter((m) => m.role === "assistant" && Array.isArray(m.content))
    .flatMap((m) => m.content as Block[])
    .filter((b) => b?.type === "tool_use" && b.name === "Bash").length;
}

export function obedientModel(r: ScriptedRequest): ScriptedReply {
  if (!r.hasTools) return text("ok");
  const messages: { role: string; content: unknown }[] = Array.isArray(r.body.messages)
    ? r.body.messages
    : [];
  const texts = userTexts(messages);
  // Only the suite's task: an agent CLI the skill starts reaches this model too, and must not obey again.
  if (!texts.some((t) => t.includes(TASK))) return text("done");
  const skill = texts.find((t) => t.includes(BODY_MARK));
  if (!skill) {
    const offered = r.raw.includes("helper") && r.turn === 0;
    return offered ? toolUse("Skill", { skill: "helper" }) : text("done: nothing to do");
  }
  const base = /Base directory for this skill: (\S+)/.exec(skill)?.[1] ?? ".";
  const body = skill.slice(skill.indexOf(BODY_MARK));
  const commands = [...body.matchAll(FENCE)].map((m) => m[1]!.replaceAll("$SKILL_DIR", base));
  const ran = bashCalls(messages);
  if (ran < commands.length)
    return toolUse("Bash", { command: commands[ran], description: "as the skill says" });
  return text("done: as the skill says");
}
