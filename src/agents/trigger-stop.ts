/**
 * Trigger trials stop at the routing decision. A trigger trial asks one thing: did the agent route this prompt to
 * a skill, and to which? Everything after that answer (the skill's instructions carried out, tools run, a final
 * reply) is model turns the user pays for and minutes nobody reads. These watchers read the agent's stream as it
 * arrives and say when the decision is visible; the adapter then ends the agent (the sandbox's usual teardown)
 * and records the trial from the stream up to that point.
 *
 * Policies (`agent.options.triggerStop`):
 * - `first-action` (default): the decision is the agent's first action. A skill load (`Skill` call, or a read of
 *   `…/skills/<name>/SKILL.md`) routes the prompt to that skill; any other tool call, or a text answer followed by
 *   nothing, is "not routed". This is Claude Code's own contract (its Skill tool tells the model to invoke a
 *   relevant skill before any other response) and the rule of skill-creator's run_eval.py, whose first
 *   `tool_use` decides. `TodoWrite` is
 *   bookkeeping, not an action: it does not decide. A model that looks around first (`Glob`, then `Skill`) counts
 *   as not routed, where a full run would have seen the skill fire later.
 * - `skill-or-end`: stop only when a skill loads; otherwise the agent runs to completion. The verdict is the full
 *   run's by construction (only activations after the first are lost); it saves the turns of routed trials only.
 * - `off`: every trigger trial runs to completion.
 *
 * Claude Code sends one assistant message as several events (one per content block) sharing its id, so a
 * non-skill action decides only once its message is complete (the next event that is not part of it): a later
 * block of the same message may still be a `Skill` call. Codex decides at the first command it starts (its
 * `item.started`, before the command runs); its messages never decide (a preamble message may come before the
 * command that reads the skill; a final one ends the run anyway).
 */
import type { AgentConfig, ToolCall } from "../model/index.js";
import { InputError } from "../model/index.js";
import { activatedSkill } from "./skill-names.js";

const TRIGGER_STOP_POLICIES = ["first-action", "skill-or-end", "off"] as const;
export type TriggerStopPolicy = (typeof TRIGGER_STOP_POLICIES)[number];
const DEFAULT_TRIGGER_STOP: TriggerStopPolicy = "first-action";

/** The configured policy (`agent.options.triggerStop`); a value that is not one is an input error. */
export function triggerStopPolicy(config: AgentConfig): TriggerStopPolicy {
  const v = config.options?.triggerStop;
  if (v === undefined) return DEFAULT_TRIGGER_STOP;
  if (typeof v === "string" && (TRIGGER_STOP_POLICIES as readonly string[]).includes(v))
    return v as TriggerStopPolicy;
  throw new InputError(
    `agent.options.triggerStop must be one of ${TRIGGER_STOP_POLICIES.join(", ")} (got ${JSON.stringify(v)})`,
  );
}

export interface RoutingDecision {
  /** Characters of stdout that hold the decision: the record is read from `stdout.slice(0, end)`. */
  end: number;
  /** 1-based model turn (assistant message, or Codex action) that decided. */
  turn: number;
  /** The skill it routed to, or undefined for "not routed". */
  skill?: string;
}

export interface RoutingWatcher {
  /** Feed stdout as it arrives; true once the decision is visible (then the agent may be stopped). */
  feed(text: string): boolean;
  readonly decision: RoutingDecision | undefined;
}

/** Complete lines out of text that arrives in arbitrary chunks, with the stdout offset after each line. */
export class LineReader {
  private buf = "";
  private offset = 0;

  push(text: string): { line: string; end: number }[] {
    this.buf += text;
    const lines: { line: string; end: number }[] = [];
    // One pass over the buffer, cut once at the end (not a copy of the rest per line).
    let start = 0;
    for (let nl = this.buf.indexOf("\n"); nl >= 0; nl = this.buf.indexOf("\n", start)) {
      lines.push({ line: this.buf.slice(start, nl), end: this.offset + nl + 1 });
      start = nl + 1;
    }
    this.offset += start;
    this.buf = this.buf.slice(start);
    return lines;
  }
}

// biome-ignore lint/suspicious/noExplicitAny: stream events are free-form JSON
type Json = any;

function parseLine(line: string): Json {
  if (!line.trim()) return undefined;
  try {
    return JSON.parse(line);
  } catch {
    return undefined;
  }
}

/** Tools that do nothing in the world: calling one is not a routing decision. */
const BOOKKEEPING_TOOLS = new Set(["TodoWrite"]);

/** Watches Claude Code's `stream-json` (see the module comment for the rule). */
export function claudeRoutingWatcher(policy: Exclude<TriggerStopPolicy, "off">): RoutingWatcher {
  const lines = new LineReader();
  const turns = new Map<string, number>();
  let decision: RoutingDecision | undefined;
  /** The first message that acted without loading a skill: it decides "not routed" once complete. */
  let pending: { id: string; turn: number; end: number } | undefined;
  const settle = () => {
    if (pending && policy === "first-action") decision = { end: pending.end, turn: pending.turn };
    return decision !== undefined;
  };
  return {
    get decision() {
      return decision;
    },
    feed(text) {
      if (decision) return true;
      for (const { line, end } of lines.push(text)) {
        const ev = parseLine(line);
        if (ev?.type === "assistant" && Array.isArray(ev.message?.content)) {
          const id = String(ev.message.id ?? `anon-${turns.size}`);
          if (pending && id !== pending.id && settle()) return true;
          if (!turns.has(id)) turns.set(id, turns.size + 1);
          const turn = turns.get(id)!;
          for (const block of ev.message.content) {
            if (block?.type === "tool_use") {
              const call: ToolCall = { name: String(block.name), input: block.input ?? null, turn };
              const skill = activatedSkill(call);
              if (skill) {
                decision = { end, turn, skill };
                return true;
              }
              if (!BOOKKEEPING_TOOLS.has(call.name)) pending ??= { id, turn, end };
            } else if (block?.type === "text" && typeof block.text === "string" && block.text.trim()) {
              pending ??= { id, turn, end };
            }
          }
          if (pending?.id === id) pending.end = end;
        } else if (ev?.type === "user" && pending && settle()) {
          // Its tool results: the message that acted is complete.
          return true;
        }
        // A `result` event never decides: the run is over, and its usage and cost are worth keeping.
      }
      return false;
    },
  };
}

const CODEX_ACTIONS = new Set(["command_execution", "file_change", "mcp_tool_call", "web_search"]);

/** Watches `codex exec --json` events (see the module comment for the rule). */
export function codexRoutingWatcher(policy: Exclude<TriggerStopPolicy, "off">): RoutingWatcher {
  const lines = new LineReader();
  const seen = new Set<string>();
  let decision: RoutingDecision | undefined;
  return {
    get decision() {
      return decision;
    },
    feed(text) {
      if (decision) return true;
      for (const { line, end } of lines.push(text)) {
        const ev = parseLine(line);
        if ((ev?.type !== "item.started" && ev?.type !== "item.completed") || !ev.item) continue;
        const item = ev.item;
        if (!CODEX_ACTIONS.has(String(item.type))) continue;
        const id = String(item.id ?? `anon-${seen.size}`);
        if (seen.has(id)) continue;
        seen.add(id);
        const turn = seen.size;
        const skill =
          item.type === "command_execution"
            ? activatedSkill({ name: "Read", input: { path: String(item.command ?? "") }, turn })
            : undefined;
        if (skill) decision = { end, turn, skill };
        else if (policy === "first-action") decision = { end, turn };
        if (decision) return true;
      }
      return false;
    },
  };
}

/** The note a stopped trial carries. */
export function stopNote(decision: RoutingDecision, policy: TriggerStopPolicy): string {
  return `stopped at the routing decision (turn ${decision.turn}, ${decision.skill ? `routed to ${decision.skill}` : "not routed"}; triggerStop ${policy})`;
}
