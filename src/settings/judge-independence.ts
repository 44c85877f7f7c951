import type { SourceFile } from "../detect/source-file.js";
import type { AgentConfig, Diagnostic, SkillgateConfig } from "../model/index.js";
import { judgeModelOf } from "./defaults.js";

/** Claude Code's model aliases: `sonnet` is whichever `claude-…sonnet…` it maps to, so any of them. */
const FAMILY_ALIASES = new Set(["opus", "sonnet", "haiku"]);

/** A model id compared as a model: case, a provider prefix (`openai/`) and a date or `-latest` suffix dropped. */
function modelId(model: string): string {
  return model
    .trim()
    .toLowerCase()
    .replace(/^[a-z0-9_.-]+\//, "")
    .replace(/-(\d{8}|latest)$/, "");
}

/** Whether two model settings name the same model (an alias names every model of its family). */
function sameModel(a: string, b: string): boolean {
  const x = modelId(a);
  const y = modelId(b);
  if (x === y) return true;
  const alias = FAMILY_ALIASES.has(x) ? x : FAMILY_ALIASES.has(y) ? y : undefined;
  if (!alias) return false;
  return new RegExp(`^claude-(?:[\\d-]+-)?${alias}(?:-|$)`).test(alias === x ? y : x);
}

/**
 * A judge that is the model under test grades its own answers, and a model favours its own (self-preference):
 * the judge's checks would then pass more easily than another grader would let them. A located warning at the
 * judge's model (or at `judge`, when it is its adapter's default) for each agent or matrix cell whose model, as
 * written in the configuration, is the judge's. An agent whose model is not written (its harness's default) is not
 * compared: skillgate cannot know it.
 */
export function judgeIsAgentWarnings(config: SkillgateConfig, src: SourceFile): Diagnostic[] {
  const judge = config.judge;
  if (!judge) return [];
  const agents: { what: string; agent: AgentConfig }[] = [
    ...(config.agent ? [{ what: "the agent under test", agent: config.agent }] : []),
    ...(config.agents ?? []).map((c) => ({ what: `matrix cell ${c.name}`, agent: c })),
  ];
  const sameProgram = sameCommandWarning(judge, agents, src);
  if (sameProgram) return [sameProgram];
  const judgeModel = judgeModelOf(judge);
  if (!judgeModel) return [];
  const same = agents.filter(({ agent }) => agent.model !== undefined && sameModel(agent.model, judgeModel));
  if (same.length === 0) return [];
  const at = src.locateKey(judge.model !== undefined ? ["judge", "model"] : ["judge"]);
  return [
    {
      ...at,
      severity: "warning",
      code: "config/judge-is-agent",
      message: `the judge (${judgeModel}${judge.model === undefined ? `, ${judge.adapter}'s default` : ""}) is the model of ${same.map((s) => `${s.what} (${s.agent.model})`).join(", ")}: it would grade its own answers, which a model favours; set judge.model to another model, best of another family`,
    },
  ];
}

/** A `command` judge whose command is a `command` agent's: the program under test would grade itself. */
function sameCommandWarning(
  judge: AgentConfig,
  agents: { what: string; agent: AgentConfig }[],
  src: SourceFile,
): Diagnostic | undefined {
  if (judge.adapter !== "command" || !judge.command) return undefined;
  const words = (c: string) => c.trim().split(/\s+/).join(" ");
  const same = agents.filter(
    ({ agent }) =>
      agent.adapter === "command" && agent.command && words(agent.command) === words(judge.command!),
  );
  if (same.length === 0) return undefined;
  return {
    ...src.locateKey(["judge", "command"]),
    severity: "warning",
    code: "config/judge-is-agent",
    message: `the judge's command (${judge.command}) is the command of ${same.map((s) => s.what).join(", ")}: it would grade its own answers; name another program (or another model) as the judge`,
  };
}
