/**
 * A scripted OpenAI-compatible chat completions server on loopback (`POST …/chat/completions`, any prefix, so
 * Azure-style `/openai/deployments/<d>/chat/completions?api-version=…` works too). Non-streaming JSON.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface ChatRequest {
  path: string;
  headers: IncomingMessage["headers"];
  // biome-ignore lint/suspicious/noExplicitAny: request bodies are free-form JSON inspected by scripts
  body: any;
  /** Assistant messages already in the conversation. */
  turn: number;
  raw: string;
}

export type ChatReply =
  | { kind: "text"; text: string }
  | { kind: "tools"; calls: { name: string; arguments: string }[] }
  | { kind: "error"; status: number; message: string }
  | { kind: "hang" };

export type ChatScript = (req: ChatRequest) => ChatReply;

export const chatText = (text: string): ChatReply => ({ kind: "text", text });
export const chatTool = (name: string, args: unknown): ChatReply => ({
  kind: "tools",
  calls: [{ name, arguments: typeof args === "string" ? args : JSON.stringify(args) }],
});
export const chatError = (status: number, message = "scripted error"): ChatReply => ({
  kind: "error",
  status,
  message,
});

export interface ScriptedChatServer {
  url: string;
  requests: ChatRequest[];
  close(): Promise<void>;
}

let counter = 0;

export async function startScriptedOpenAI(script: ChatScript): Promise<ScriptedChatServer> {
  const requests: ChatRequest[] = [];
  const hanging = new Set<ServerResponse>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const raw = Buffer.concat(chunks).toString("utf8");
      const path = req.url ?? "/";
      if (req.method !== "POST" || !/\/chat\/completions(\?|$)/.test(path)) {
        res.writeHead(404, { "content-type": "application/json" });
        res.end(JSON.stringify({ error: { message: `no route ${path}` } }));
        return;
      }
      // biome-ignore lint/suspicious/noExplicitAny: parsed JSON
      let body: any = {};
      try {
        body = JSON.parse(raw);
      } catch {}
      const messages: { role: string }[] = Array.isArray(body.messages) ? body.messages : [];
      const r: ChatRequest = {
        path,
        headers: req.headers,
        body,
        turn: messages.filter((m) => m.role === "assistant").length,
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
        res.end(JSON.stringify({ error: { message: reply.message, type: "scripted" } }));
        return;
      }
      const id = ++counter;
      const message =
        reply.kind === "text"
          ? { role: "assistant", content: reply.text }
          : {
              role: "assistant",
              content: null,
              tool_calls: reply.calls.map((c, i) => ({
                id: `call_${id}_${i}`,
                type: "function",
                function: c,
              })),
            };
      res.writeHead(200, { "content-type": "application/json" });
      res.end(
        JSON.stringify({
          id: `chatcmpl-${id}`,
          object: "chat.completion",
          model: body.model,
          choices: [{ index: 0, message, finish_reason: reply.kind === "text" ? "stop" : "tool_calls" }],
          usage: { prompt_tokens: 120, completion_tokens: 30, total_tokens: 150 },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: async () => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
