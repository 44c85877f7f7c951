/**
 * `lexical` adapter: an offline PROXY router for dry runs. It answers trigger trials by BM25 over the installed
 * skills' name + description and never runs an agent; its figures are labelled as a proxy in every report.
 * Register with `registerAgent("lexical", createLexicalAdapter)`.
 */

import { LEXICAL_FIRE_THRESHOLD, routeLexical } from "../detect/lexical-router.js";
import type { AgentAdapter, AgentConfig } from "../model/agent.js";
import { ZERO_USAGE } from "../model/trial.js";
import { registerAgent } from "./registry.js";

const LEXICAL_IDENTITY = "lexical/bm25@1";

export function createLexicalAdapter(config: AgentConfig, _ctx?: { repoDir: string }): AgentAdapter {
  const threshold =
    typeof config.options?.threshold === "number" ? config.options.threshold : LEXICAL_FIRE_THRESHOLD;
  return {
    name: "lexical",
    identity: () => `${LEXICAL_IDENTITY}(threshold=${threshold})`,
    skillsDir: ".agents/skills",
    envAllow: [],
    async run(request) {
      const catalogue = request.install.map((s) => ({ name: s.name, description: s.description }));
      const decision = routeLexical(request.prompt, catalogue, threshold);
      const top = decision.scores
        .slice(0, 3)
        .map((s) => `${s.name}=${s.score.toFixed(2)}`)
        .join(", ");
      return {
        output: `lexical proxy router: ${decision.fired ?? "no skill"} fired (${top || "empty catalogue"})`,
        toolCalls: [],
        skillsRegistered: catalogue.map((s) => s.name),
        skillsActivated: decision.fired ? [decision.fired] : [],
        files: {},
        usage: ZERO_USAGE,
        notes: ["lexical: BM25 proxy over name + description, not an agent"],
      };
    },
  };
}

registerAgent("lexical", createLexicalAdapter);
