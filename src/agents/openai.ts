/**
 * `openai` adapter: OpenAI-compatible chat completions (OpenAI, Azure OpenAI, Ollama, vLLM …) with the skill
 * catalogue in the system prompt and an `activate_skill` function tool. Base URL from config, else
 * OPENAI_BASE_URL, else the public API; key from `apiKeyEnv` (default OPENAI_API_KEY), optional for local servers.
 * Azure: a base URL on `*.openai.azure.com` (or `options.azure: true`) sends `api-key` and `api-version`.
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

const OPENAI_DEFAULT_BASE_URL = "https://api.openai.com/v1";
const AZURE_DEFAULT_API_VERSION = "2024-10-21";

// biome-ignore lint/suspicious/noExplicitAny: API replies are free-form JSON, checked field by field
type Json = any;

function chatCompletionsUrl(base: string, azure: boolean, apiVersion: string): string {
  const url = `${base.replace(/\/+$/, "")}/chat/completions`;
  return azure ? `${url}?api-version=${encodeURIComponent(apiVersion)}` : url;
}

function createOpenAIAgent(config: AgentConfig, _ctx: { repoDir: string }): AgentAdapter {
  if (!config.model) throw modelMissing("openai", "gpt-4o", " (on Azure, the deployment name)");
  const model = config.model;
  const maxTurns = typeof config.options?.maxTurns === "number" ? config.options.maxTurns : DEFAULT_MAX_TURNS;
  return {
    name: "openai",
    skillsDir: ".agents/skills",
    envAllow: ["OPENAI_*", "AZURE_OPENAI_*"],
    identity: () => `openai/${config.baseUrl ?? "default"}/${model}`,
    async run(request, ctx) {
      const base = config.baseUrl ?? ctx.env.OPENAI_BASE_URL ?? OPENAI_DEFAULT_BASE_URL;
      const azure = config.options?.azure === true || /\.openai\.azure\.com/i.test(base);
      const apiVersion =
        typeof config.options?.apiVersion === "string"
          ? config.options.apiVersion
          : AZURE_DEFAULT_API_VERSION;
      const url = chatCompletionsUrl(base, azure, apiVersion);
      const key = apiKey(config, ctx, azure ? "AZURE_OPENAI_API_KEY" : "OPENAI_API_KEY");
      const headers: Record<string, string> = key
        ? azure
          ? { "api-key": key }
          : { authorization: `Bearer ${key}` }
        : {};
      const deadline = Date.now() + ctx.timeoutMs;
      const result: AgentResult = { ...emptyResult(), skillsRegistered: request.install.map((s) => s.name) };
      const tools = request.install.length
        ? [
            {
              type: "function",
              function: {
                name: ACTIVATE_SKILL_TOOL,
                description: ACTIVATE_SKILL_DESCRIPTION,
                parameters: activateSkillSchema(request),
              },
            },
          ]
        : undefined;
      const messages: Json[] = [
        { role: "system", content: systemPrompt(request) },
        { role: "user", content: request.prompt },
      ];
      let inTok = 0;
      let outTok = 0;
      for (let turn = 0; turn < maxTurns; turn++) {
        const body = { model, max_tokens: DEFAULT_MAX_OUTPUT_TOKENS, messages, ...(tools ? { tools } : {}) };
        const r = await postJson(url, headers, body, ctx, deadline);
        if (!r.ok) return { ...result, usage: priceUsage(config, inTok, outTok), error: r.error };
        const reply = r.json as Json;
        const message = reply?.choices?.[0]?.message;
        if (!message || typeof message !== "object") {
          return {
            ...result,
            usage: priceUsage(config, inTok, outTok),
            error: { kind: "protocol", message: "chat completion reply lacks `choices[0].message`" },
          };
        }
        inTok += Number(reply.usage?.prompt_tokens ?? 0);
        outTok += Number(reply.usage?.completion_tokens ?? 0);
        const calls: Json[] = Array.isArray(message.tool_calls) ? message.tool_calls : [];
        messages.push({
          role: "assistant",
          content: message.content ?? null,
          ...(calls.length ? { tool_calls: calls } : {}),
        });
        if (calls.length === 0) {
          const notes: string[] = [];
          result.output = capOutput(typeof message.content === "string" ? message.content : "", notes);
          if (notes.length) result.notes = notes;
          result.usage = priceUsage(config, inTok, outTok);
          return result;
        }
        for (const call of calls) {
          const name = String(call?.function?.name ?? "");
          let input: unknown = null;
          let answer: { name?: string; output: string; isError: boolean };
          try {
            input = JSON.parse(String(call?.function?.arguments ?? "{}"));
            answer =
              name === ACTIVATE_SKILL_TOOL
                ? await activateSkill(input, ctx)
                : { output: `Unknown tool "${name}".`, isError: true };
          } catch {
            input = call?.function?.arguments ?? null;
            answer = { output: "Tool arguments are not valid JSON.", isError: true };
          }
          result.toolCalls.push({
            name,
            input,
            output: answer.output,
            ...(answer.isError ? { isError: true } : {}),
            turn,
          });
          if (answer.name && !answer.isError && !result.skillsActivated.includes(answer.name))
            result.skillsActivated.push(answer.name);
          messages.push({ role: "tool", tool_call_id: call?.id, content: answer.output });
        }
      }
      return {
        ...result,
        usage: priceUsage(config, inTok, outTok),
        error: { kind: "protocol", message: `no final answer within ${maxTurns} model turns` },
      };
    },
  };
}

registerAgent("openai", createOpenAIAgent);
