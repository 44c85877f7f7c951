/**
 * `anthropic` adapter: the Messages API (`POST {baseUrl}/v1/messages`), the skill catalogue in the system prompt
 * and an `activate_skill` tool. Key from `apiKeyEnv` (default ANTHROPIC_API_KEY); base URL from config, else
 * ANTHROPIC_BASE_URL, else the public API. Pricing from `options.pricing` ({inputPerMTok, outputPerMTok}).
 */
import type { AgentAdapter, AgentConfig, AgentResult } from "../model/index.js";
import { modelMissing } from "./guidance.js";
import {
  ACTIVATE_SKILL_DESCRIPTION,
  ACTIVATE_SKILL_TOOL,
  activateSkill,
  activateSkillSchema,
  apiKey,
  DEFAULT_MAX_OUTPUT_TOKENS,
  DEFAULT_MAX_TURNS,
  postJson,
  priceUsage,
  systemPrompt,
} from "./http-common.js";
import { registerAgent } from "./registry.js";
import { capOutput, emptyResult } from "./result.js";

export const ANTHROPIC_DEFAULT_BASE_URL = "https://api.anthropic.com";
export const ANTHROPIC_VERSION = "2023-06-01";

// biome-ignore lint/suspicious/noExplicitAny: API replies are free-form JSON, checked field by field
type Json = any;

function createAnthropicAgent(config: AgentConfig, _ctx: { repoDir: string }): AgentAdapter {
  if (!config.model) throw modelMissing("anthropic", "claude-sonnet-4-5");
  const model = config.model;
  const maxTurns = typeof config.options?.maxTurns === "number" ? config.options.maxTurns : DEFAULT_MAX_TURNS;
  return {
    name: "anthropic",
    skillsDir: ".agents/skills",
    envAllow: ["ANTHROPIC_*"],
    identity: () => `anthropic/${model}`,
    async run(request, ctx) {
      const base = (config.baseUrl ?? ctx.env.ANTHROPIC_BASE_URL ?? ANTHROPIC_DEFAULT_BASE_URL).replace(
        /\/+$/,
        "",
      );
      const url = `${base}/v1/messages`;
      const key = apiKey(config, ctx, "ANTHROPIC_API_KEY");
      const headers: Record<string, string> = {
        "anthropic-version": ANTHROPIC_VERSION,
        ...(key ? { "x-api-key": key } : {}),
      };
      const deadline = Date.now() + ctx.timeoutMs;
      const result: AgentResult = { ...emptyResult(), skillsRegistered: request.install.map((s) => s.name) };
      const tools = request.install.length
        ? [
            {
              name: ACTIVATE_SKILL_TOOL,
              description: ACTIVATE_SKILL_DESCRIPTION,
              input_schema: activateSkillSchema(request),
            },
          ]
        : undefined;
      const messages: Json[] = [{ role: "user", content: request.prompt }];
      let inTok = 0;
      let outTok = 0;
      for (let turn = 0; turn < maxTurns; turn++) {
        const body = {
          model,
          max_tokens: DEFAULT_MAX_OUTPUT_TOKENS,
          system: systemPrompt(request),
          messages,
          ...(tools ? { tools } : {}),
        };
        const r = await postJson(url, headers, body, ctx, deadline);
        if (!r.ok) return { ...result, usage: priceUsage(config, inTok, outTok), error: r.error };
        const reply = r.json as Json;
        if (!Array.isArray(reply?.content)) {
          return {
            ...result,
            usage: priceUsage(config, inTok, outTok),
            error: { kind: "protocol", message: "Messages API reply lacks `content`" },
          };
        }
        inTok += Number(reply.usage?.input_tokens ?? 0);
        outTok += Number(reply.usage?.output_tokens ?? 0);
        messages.push({ role: "assistant", content: reply.content });
        const uses = reply.content.filter((b: Json) => b?.type === "tool_use");
        if (uses.length === 0 || reply.stop_reason !== "tool_use") {
          const notes: string[] = [];
          result.output = capOutput(
            reply.content
              .filter((b: Json) => b?.type === "text")
              .map((b: Json) => String(b.text))
              .join(""),
            notes,
          );
          if (notes.length) result.notes = notes;
          result.usage = priceUsage(config, inTok, outTok);
          return result;
        }
        const results: Json[] = [];
        for (const use of uses) {
          const answer =
            use.name === ACTIVATE_SKILL_TOOL
              ? await activateSkill(use.input, ctx)
              : { output: `Unknown tool "${use.name}".`, isError: true, name: undefined };
          result.toolCalls.push({
            name: String(use.name),
            input: use.input ?? null,
            output: answer.output,
            ...(answer.isError ? { isError: true } : {}),
            turn,
          });
          if (answer.name && !answer.isError && !result.skillsActivated.includes(answer.name))
            result.skillsActivated.push(answer.name);
          results.push({
            type: "tool_result",
            tool_use_id: use.id,
            content: answer.output,
            ...(answer.isError ? { is_error: true } : {}),
          });
        }
        messages.push({ role: "user", content: results });
      }
      return {
        ...result,
        usage: priceUsage(config, inTok, outTok),
        error: { kind: "protocol", message: `no final answer within ${maxTurns} model turns` },
      };
    },
  };
}

registerAgent("anthropic", createAnthropicAgent);
