/**
 * Baseline isolation, third layer: after filesystem absence and the constraint block, the transcript is scanned.
 * A baseline whose tool calls touch the skill under test (its folder, its evals, the checkout it lives in) or that
 * reports activating it is contaminated: its lift would be measured against a baseline that saw the skill.
 */
import type { AgentResult, ToolCall } from "../model/index.js";

export interface ContaminationContext {
  /** The skill under test. */
  skill: string;
  /** Absolute repository path: the baseline workspace is elsewhere, so reaching into the checkout is touching it. */
  repoDir: string;
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

function touches(call: ToolCall, patterns: RegExp[], skill: string): boolean {
  if (call.name === "Skill" || call.name === "activate_skill") {
    const input = call.input as Record<string, unknown> | null;
    const named = String(input?.skill ?? input?.name ?? input?.command ?? "");
    if (named.replace(/^\//, "").replace(/^.*:/, "") === skill) return true;
  }
  const text = typeof call.input === "string" ? call.input : JSON.stringify(call.input ?? "");
  return patterns.some((p) => p.test(text));
}

/** The first tool call that touches the skill, or a pseudo-call when the harness reports activating it. */
export function findContamination(result: AgentResult, ctx: ContaminationContext): ToolCall | undefined {
  const name = escapeRegExp(ctx.skill);
  const patterns = [
    new RegExp(`skills[\\\\/]+${name}(?:[\\\\/"']|$)`),
    new RegExp(`evals[\\\\/]+${name}(?:[\\\\/"']|$)`),
  ];
  if (ctx.repoDir.length > 1)
    patterns.push(new RegExp(`${escapeRegExp(ctx.repoDir.replace(/[\\/]+$/, ""))}(?:[\\\\/"']|$)`));
  const call = result.toolCalls.find((c) => touches(c, patterns, ctx.skill));
  if (call) return call;
  if (result.skillsActivated.includes(ctx.skill)) {
    return { name: "(skill activation reported by the agent)", input: { skill: ctx.skill }, turn: 0 };
  }
  return undefined;
}
