/**
 * What the HTTP adapters (`openai`, `anthropic`) share: the skill catalogue in the system prompt and one
 * activation tool, so routing is measured the same way on every model; the tool's answer is the installed
 * SKILL.md (read from the trial workspace, so a baseline cannot get it); HTTP with timeouts and error mapping.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import {
  type AgentConfig,
  type AgentRunContext,
  installedSkillDir,
  type TrialError,
  type TrialRequest,
  type Usage,
} from "../model/index.js";
import { knownPrice } from "./prices.js";
import { errorForStatus, tail } from "./result.js";

export const ACTIVATE_SKILL_TOOL = "activate_skill";
/** Model turns per trial: activation, a follow-up or two, the answer. */
export const DEFAULT_MAX_TURNS = 8;
export const DEFAULT_MAX_OUTPUT_TOKENS = 4096;
/** Bytes of an error reply kept in the message. */
const ERROR_BODY_CHARS = 300;

export const ACTIVATE_SKILL_DESCRIPTION =
  "Load a skill's full instructions. Call this before answering whenever one of the listed skills is relevant.";

export function systemPrompt(request: TrialRequest): string {
  const parts = ["You are a capable assistant working in a project folder."];
  if (request.install.length > 0) {
    parts.push(
      `The following skills are available. When a skill is relevant to the user's request, call the \`${ACTIVATE_SKILL_TOOL}\` tool with its name before answering; it returns the skill's instructions.\n\n${request.install
        .map((s) => `- ${s.name}: ${s.description}`)
        .join("\n")}`,
    );
  }
  if (request.constraints?.length) parts.push(request.constraints.join("\n"));
  return parts.join("\n\n");
}

/** JSON Schema of the activation tool's input, limited to the installed names. */
export function activateSkillSchema(request: TrialRequest): Record<string, unknown> {
  return {
    type: "object",
    properties: {
      name: { type: "string", enum: request.install.map((s) => s.name), description: "Skill name" },
    },
    required: ["name"],
  };
}

/** The tool's answer: the installed SKILL.md, or an error text for a name that is not installed. */
export async function activateSkill(
  input: unknown,
  ctx: AgentRunContext,
): Promise<{ name?: string; output: string; isError: boolean }> {
  const name = String((input as Record<string, unknown> | null)?.name ?? "");
  const dir = installedSkillDir(ctx.workspace, name);
  if (!dir) return { output: `Unknown skill "${name}".`, isError: true };
  try {
    return { name, output: await readFile(join(dir, "SKILL.md"), "utf8"), isError: false };
  } catch (e) {
    return { name, output: `Cannot read skill "${name}": ${(e as Error).message}`, isError: true };
  }
}

/**
 * What a call cost: the configured `options.pricing`, else the model's list price (prices.ts); a model with
 * neither has an unknown cost (`costUnknown`, counted 0), never a free one.
 */
export function priceUsage(config: AgentConfig, inputTokens: number, outputTokens: number): Usage {
  const configured = config.options?.pricing as { inputPerMTok?: number; outputPerMTok?: number } | undefined;
  const p = configured ?? knownPrice(config.model);
  if (!p) return { inputTokens, outputTokens, costUsd: 0, costUnknown: true };
  const costUsd = ((p.inputPerMTok ?? 0) * inputTokens + (p.outputPerMTok ?? 0) * outputTokens) / 1e6;
  return { inputTokens, outputTokens, costUsd };
}

export function apiKey(config: AgentConfig, ctx: AgentRunContext, fallback: string): string | undefined {
  return ctx.env[config.apiKeyEnv ?? fallback] || undefined;
}

export type PostResult = { ok: true; json: unknown } | { ok: false; error: TrialError };

/** POST JSON with the trial's abort signal and remaining time; maps HTTP and network faults to trial errors. */
export async function postJson(
  url: string,
  headers: Record<string, string>,
  body: unknown,
  ctx: AgentRunContext,
  deadline: number,
): Promise<PostResult> {
  const remaining = deadline - Date.now();
  if (remaining <= 0)
    return { ok: false, error: { kind: "timeout", message: "trial timed out", transient: true } };
  const timeout = AbortSignal.timeout(remaining);
  const signal = AbortSignal.any([ctx.signal, timeout]);
  let res: Response;
  let text: string;
  try {
    res = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify(body),
      signal,
    });
    text = await res.text();
  } catch (e) {
    if (timeout.aborted)
      return {
        ok: false,
        error: { kind: "timeout", message: `no reply from ${url} in time`, transient: true },
      };
    if (ctx.signal.aborted) return { ok: false, error: { kind: "crash", message: "trial aborted" } };
    const cause = (e as Error & { cause?: Error }).cause?.message ?? (e as Error).message;
    return {
      ok: false,
      error: { kind: "crash", message: `network error calling ${url}: ${cause}`, transient: true },
    };
  }
  if (!res.ok) return { ok: false, error: errorForStatus(res.status, tail(text, ERROR_BODY_CHARS)) };
  try {
    return { ok: true, json: JSON.parse(text) };
  } catch {
    return {
      ok: false,
      error: { kind: "protocol", message: `reply from ${url} is not JSON: ${tail(text, ERROR_BODY_CHARS)}` },
    };
  }
}
