import type { SkillgateConfig, Target } from "../model/index.js";

/** The client an agent adapter runs: its loading rules are the ones a PR's skills are gated by by default. */
const HARNESS_OF: Readonly<Record<string, Target>> = { "claude-code": "claude-code", codex: "codex" };

/**
 * The targets of a configuration: `targets:` when it names them, else the harness of each configured agent (the
 * `agent:` or every `agents:` cell) that runs one. Agents that run no client's loader (`command`, the HTTP APIs,
 * `replay`, `lexical`) name none, and then Claude Code's rules apply, as under the default `claude-code` profile.
 */
export function resolveTargets(config: SkillgateConfig): Target[] {
  if (config.targets) return [...config.targets];
  const adapters = config.agents ? config.agents.map((c) => c.adapter) : [config.agent?.adapter];
  const harnesses = new Set<Target>();
  for (const adapter of adapters) {
    const harness = adapter === undefined ? undefined : HARNESS_OF[adapter];
    if (harness) harnesses.add(harness);
  }
  return harnesses.size > 0 ? [...harnesses] : ["claude-code"];
}

/**
 * The targets a PR's `targets:` drops from the base's: their rules would no longer be errors (a loosening). Only
 * an explicit `targets:` on either side counts: a changed agent is compared as such.
 */
export function droppedTargets(base: SkillgateConfig, head: SkillgateConfig): Target[] {
  if (!base.targets && !head.targets) return [];
  const now = new Set(resolveTargets(head));
  return resolveTargets(base).filter((t) => !now.has(t));
}
