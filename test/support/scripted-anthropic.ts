/**
 * A scripted Anthropic Messages API on loopback, for driving real clients (Claude Code CLI, our `anthropic`
 * adapter) without a network. Speaks streaming SSE and plain JSON, `POST /v1/messages` (any query string).
 *
 *   const server = await startScriptedAnthropic((req) => req.turn === 0 ? toolUse("Skill", {skill: "x"}) : text("done"));
 *   env.ANTHROPIC_BASE_URL = server.url;
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { createServer as createTlsServer } from "node:https";
import type { AddressInfo } from "node:net";

export interface ScriptedRequest {
  method: string;
  path: string;
  headers: IncomingMessage["headers"];
  // biome-ignore lint/suspicious/noExplicitAny: request bodies are free-form JSON inspected by scripts
  body: any;
  /** Number of assistant messages already in the conversation: 0 for the first model call of a turn chain. */
  turn: number;
  /** Whether the request offers tools (the agent's main loop does; side queries such as titles usually don't). */
  hasTools: boolean;
  /** The whole request as text, to search for skill names, prompts and tool results. */
  raw: string;
  /** Text of the last user message (tool results included), for scripts that react to what the agent saw. */
  lastUserText: string;
}

export type ScriptedReply =
  | { kind: "text"; text: string; inputTokens?: number; outputTokens?: number }
  | { kind: "tools"; calls: { name: string; input: unknown }[]; text?: string }
  | { kind: "error"; status: number; type: string; message: string }
  /** Never answer (the client must time out). */
  | { kind: "hang" };

export type AnthropicScript = (req: ScriptedRequest) => ScriptedReply;

export const text = (t: string, usage?: { inputTokens?: number; outputTokens?: number }): ScriptedReply => ({
  kind: "text",
  text: t,
  ...usage,
});
export const toolUse = (name: string, input: unknown, preface?: string): ScriptedReply => ({
  kind: "tools",
  calls: [{ name, input }],
  text: preface,
});
export const apiError = (
  status: number,
  message = "scripted error",
  type = "invalid_request_error",
): ScriptedReply => ({
  kind: "error",
  status,
  type,
  message,
});
export const hang = (): ScriptedReply => ({ kind: "hang" });

export interface ScriptedServer {
  /** Base URL without trailing slash, e.g. `http://127.0.0.1:40123`. */
  url: string;
  requests: ScriptedRequest[];
  close(): Promise<void>;
}

const DEFAULT_INPUT_TOKENS = 100;
const DEFAULT_OUTPUT_TOKENS = 20;

// biome-ignore lint/suspicious/noExplicitAny: message content is free-form JSON
function contentText(content: any): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((b) => {
      if (b?.type === "text") return String(b.text ?? "");
      if (b?.type === "tool_result") return contentText(b.content);
      return "";
    })
    .join("\n");
}

function toScriptedRequest(req: IncomingMessage, rawBody: string): ScriptedRequest {
  // biome-ignore lint/suspicious/noExplicitAny: parsed JSON
  let body: any = {};
  try {
    body = rawBody ? JSON.parse(rawBody) : {};
  } catch {
    body = { unparsed: rawBody };
  }
  const messages: { role: string; content: unknown }[] = Array.isArray(body.messages) ? body.messages : [];
  const lastUser = [...messages].reverse().find((m) => m.role === "user");
  return {
    method: req.method ?? "GET",
    path: req.url ?? "/",
    headers: req.headers,
    body,
    turn: messages.filter((m) => m.role === "assistant").length,
    hasTools: Array.isArray(body.tools) && body.tools.length > 0,
    raw: rawBody,
    lastUserText: lastUser ? contentText(lastUser.content) : "",
  };
}

let messageCounter = 0;

function sse(res: ServerResponse, event: string, data: unknown): void {
  res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
}

function writeReply(
  res: ServerResponse,
  req: ScriptedRequest,
  reply: Exclude<ScriptedReply, { kind: "hang" }>,
): void {
  if (reply.kind === "error") {
    res.writeHead(reply.status, { "content-type": "application/json" });
    res.end(JSON.stringify({ type: "error", error: { type: reply.type, message: reply.message } }));
    return;
  }
  const id = `msg_scripted_${++messageCounter}`;
  const model = typeof req.body.model === "string" ? req.body.model : "scripted-model";
  const blocks: (
    | { type: "text"; text: string }
    | { type: "tool_use"; id: string; name: string; input: unknown }
  )[] = [];
  if (reply.kind === "text") blocks.push({ type: "text", text: reply.text });
  else {
    if (reply.text) blocks.push({ type: "text", text: reply.text });
    reply.calls.forEach((c, i) => {
      blocks.push({ type: "tool_use", id: `toolu_${messageCounter}_${i}`, name: c.name, input: c.input });
    });
  }
  const stopReason = reply.kind === "tools" ? "tool_use" : "end_turn";
  const inputTokens =
    reply.kind === "text" ? (reply.inputTokens ?? DEFAULT_INPUT_TOKENS) : DEFAULT_INPUT_TOKENS;
  const outputTokens =
    reply.kind === "text" ? (reply.outputTokens ?? DEFAULT_OUTPUT_TOKENS) : DEFAULT_OUTPUT_TOKENS;
  const usage = { input_tokens: inputTokens, output_tokens: outputTokens };

  if (!req.body.stream) {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(
      JSON.stringify({
        id,
        type: "message",
        role: "assistant",
        model,
        content: blocks,
        stop_reason: stopReason,
        stop_sequence: null,
        usage,
      }),
    );
    return;
  }
  res.writeHead(200, {
    "content-type": "text/event-stream",
    "cache-control": "no-cache",
    connection: "keep-alive",
  });
  sse(res, "message_start", {
    type: "message_start",
    message: {
      id,
      type: "message",
      role: "assistant",
      model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: inputTokens, output_tokens: 1 },
    },
  });
  blocks.forEach((b, index) => {
    if (b.type === "text") {
      sse(res, "content_block_start", {
        type: "content_block_start",
        index,
        content_block: { type: "text", text: "" },
      });
      sse(res, "content_block_delta", {
        type: "content_block_delta",
        index,
        delta: { type: "text_delta", text: b.text },
      });
    } else {
      sse(res, "content_block_start", {
        type: "content_block_start",
        index,
        content_block: { type: "tool_use", id: b.id, name: b.name, input: {} },
      });
      sse(res, "content_block_delta", {
        type: "content_block_delta",
        index,
        delta: { type: "input_json_delta", partial_json: JSON.stringify(b.input) },
      });
    }
    sse(res, "content_block_stop", { type: "content_block_stop", index });
  });
  sse(res, "message_delta", {
    type: "message_delta",
    delta: { stop_reason: stopReason, stop_sequence: null },
    usage: { output_tokens: outputTokens },
  });
  sse(res, "message_stop", { type: "message_stop" });
  res.end();
}

/** `tls`: serve HTTPS with this key and certificate (test/support/tls.ts) instead of plain HTTP. */
export async function startScriptedAnthropic(
  script: AnthropicScript,
  opts: { tls?: { key: Buffer; cert: Buffer } } = {},
): Promise<ScriptedServer> {
  const requests: ScriptedRequest[] = [];
  const hanging = new Set<ServerResponse>();
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const path = req.url ?? "/";
      const scripted = toScriptedRequest(req, Buffer.concat(chunks).toString("utf8"));
      if (process.env.SCRIPTED_ANTHROPIC_DEBUG) console.error(`[scripted-anthropic] ${req.method} ${path}`);
      if (req.method === "POST" && /^\/v1\/messages\/count_tokens/.test(path)) {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ input_tokens: DEFAULT_INPUT_TOKENS }));
        return;
      }
      if (req.method !== "POST" || !/^\/v1\/messages(\?|$)/.test(path)) {
        res.writeHead(404, { "content-type": "application/json" });
        res.end(
          JSON.stringify({ type: "error", error: { type: "not_found_error", message: `no route ${path}` } }),
        );
        return;
      }
      requests.push(scripted);
      let reply: ScriptedReply;
      try {
        reply = script(scripted);
      } catch (e) {
        reply = apiError(500, `script threw: ${(e as Error).message}`, "api_error");
      }
      if (reply.kind === "hang") {
        hanging.add(res);
        res.on("close", () => hanging.delete(res));
        return;
      }
      writeReply(res, scripted, reply);
    });
  };
  const server = opts.tls ? createTlsServer(opts.tls, handler) : createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `${opts.tls ? "https" : "http"}://127.0.0.1:${port}`,
    requests,
    close: async () => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
