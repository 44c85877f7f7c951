/**
 * A scripted OpenAI Responses API on loopback (`POST /v1/responses`, streaming SSE), for the real Codex CLI.
 * Replies are text messages or function calls (Codex's shell tool), one scripted reply per request.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { createServer as createTlsServer } from "node:https";
import type { AddressInfo } from "node:net";

export interface ResponsesRequest {
  path: string;
  headers: IncomingMessage["headers"];
  // biome-ignore lint/suspicious/noExplicitAny: request bodies are free-form JSON inspected by scripts
  body: any;
  /** Function-call outputs already in the input: 0 on the first call of a turn. */
  turn: number;
  raw: string;
}

export type ResponsesReply =
  | { kind: "text"; text: string }
  | { kind: "call"; name: string; arguments: unknown }
  | { kind: "error"; status: number; message: string }
  | { kind: "hang" };

export type ResponsesScript = (req: ResponsesRequest) => ResponsesReply;

export const respText = (text: string): ResponsesReply => ({ kind: "text", text });
export const respCall = (name: string, args: unknown): ResponsesReply => ({
  kind: "call",
  name,
  arguments: args,
});
export const respError = (status: number, message = "scripted error"): ResponsesReply => ({
  kind: "error",
  status,
  message,
});

export interface ScriptedResponsesServer {
  url: string;
  requests: ResponsesRequest[];
  close(): Promise<void>;
}

let counter = 0;

function sse(res: ServerResponse, data: { type: string } & Record<string, unknown>): void {
  res.write(`event: ${data.type}\ndata: ${JSON.stringify(data)}\n\n`);
}

/** `tls`: serve HTTPS with this key and certificate (test/support/tls.ts) instead of plain HTTP. */
export async function startScriptedResponses(
  script: ResponsesScript,
  opts: { tls?: { key: Buffer; cert: Buffer } } = {},
): Promise<ScriptedResponsesServer> {
  const requests: ResponsesRequest[] = [];
  const hanging = new Set<ServerResponse>();
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const raw = Buffer.concat(chunks).toString("utf8");
      const path = req.url ?? "/";
      if (process.env.SCRIPTED_RESPONSES_DEBUG) console.error(`[scripted-responses] ${req.method} ${path}`);
      if (req.method !== "POST" || !/\/responses(\?|$)/.test(path)) {
        res.writeHead(404, { "content-type": "application/json" });
        res.end(JSON.stringify({ error: { message: `no route ${path}` } }));
        return;
      }
      // biome-ignore lint/suspicious/noExplicitAny: parsed JSON
      let body: any = {};
      try {
        body = JSON.parse(raw);
      } catch {}
      const input: { type?: string }[] = Array.isArray(body.input) ? body.input : [];
      const r: ResponsesRequest = {
        path,
        headers: req.headers,
        body,
        turn: input.filter((i) => i.type === "function_call_output" || i.type === "custom_tool_call_output")
          .length,
        raw,
      };
      requests.push(r);
      const reply = script(r);
      if (reply.kind === "hang") {
        hanging.add(res);
        return;
      }
      if (reply.kind === "error") {
        res.writeHead(reply.status, { "content-type": "application/json" });
        res.end(JSON.stringify({ error: { message: reply.message, type: "scripted", code: null } }));
        return;
      }
      const n = ++counter;
      const id = `resp_${n}`;
      const item =
        reply.kind === "text"
          ? {
              type: "message",
              id: `msg_${n}`,
              role: "assistant",
              status: "completed",
              content: [{ type: "output_text", text: reply.text, annotations: [] }],
            }
          : {
              type: "function_call",
              id: `fc_${n}`,
              call_id: `call_${n}`,
              name: reply.name,
              arguments:
                typeof reply.arguments === "string" ? reply.arguments : JSON.stringify(reply.arguments),
              status: "completed",
            };
      res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
      const response = {
        id,
        object: "response",
        status: "in_progress",
        model: body.model,
        output: [] as unknown[],
      };
      sse(res, { type: "response.created", response });
      sse(res, {
        type: "response.output_item.added",
        output_index: 0,
        item: { ...item, status: "in_progress" },
      });
      if (reply.kind === "text") {
        sse(res, {
          type: "response.output_text.delta",
          item_id: item.id,
          output_index: 0,
          content_index: 0,
          delta: reply.text,
        });
      }
      sse(res, { type: "response.output_item.done", output_index: 0, item });
      sse(res, {
        type: "response.completed",
        response: {
          ...response,
          status: "completed",
          output: [item],
          usage: {
            input_tokens: 150,
            input_tokens_details: { cached_tokens: 0 },
            output_tokens: 25,
            output_tokens_details: { reasoning_tokens: 0 },
            total_tokens: 175,
          },
        },
      });
      res.end();
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
