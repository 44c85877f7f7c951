/** The judge against loopback HTTP servers speaking the Anthropic Messages and OpenAI chat completions APIs. */
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { createJudge, parseVerdict } from "../../src/grade/judge.js";

interface Seen {
  url: string;
  headers: IncomingMessage["headers"];
  body: Record<string, unknown>;
}

const servers: Server[] = [];

async function serve(
  reply: (seen: Seen) => { status: number; body: unknown },
): Promise<{ url: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    let raw = "";
    req.on("data", (c) => {
      raw += c;
    });
    req.on("end", () => {
      const s = {
        url: req.url ?? "",
        headers: req.headers,
        body: JSON.parse(raw) as Record<string, unknown>,
      };
      seen.push(s);
      const r = reply(s);
      res.writeHead(r.status, { "content-type": "application/json" });
      res.end(JSON.stringify(r.body));
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
});

const context = {
  files: { "src/split.ts": "Math.floor(total / n)" },
  toolCalls: [{ name: "Write", input: { file_path: "src/split.ts" }, turn: 1 }],
};

describe("judge", () => {
  it("Anthropic Messages: sends the expectation, output, files and calls; returns verdict and evidence", async () => {
    const { url, seen } = await serve(() => ({
      status: 200,
      body: {
        content: [{ type: "text", text: 'Verdict: {"passed": true, "evidence": "first part is 334"}' }],
      },
    }));
    const judge = createJudge(
      { adapter: "anthropic", baseUrl: url, model: "judge-model", apiKeyEnv: "JUDGE_KEY" },
      { env: { JUDGE_KEY: "k-123" } },
    );
    const v = await judge.grade("The first person gets the extra cent", "Parts: 334, 333, 333", context);
    expect(v).toEqual({ passed: true, evidence: "first part is 334" });
    expect(seen[0]!.url).toBe("/v1/messages");
    expect(seen[0]!.headers["x-api-key"]).toBe("k-123");
    expect(seen[0]!.headers["anthropic-version"]).toBe("2023-06-01");
    expect(seen[0]!.body.model).toBe("judge-model");
    const user = JSON.stringify(seen[0]!.body.messages);
    expect(user).toContain("The first person gets the extra cent");
    expect(user).toContain("Parts: 334, 333, 333");
    expect(user).toContain("src/split.ts");
    expect(user).toContain("Write");
  });

  it("OpenAI chat completions with baseUrl", async () => {
    const { url, seen } = await serve(() => ({
      status: 200,
      body: { choices: [{ message: { content: '{"passed": false, "evidence": "gives 333 to everyone"}' } }] },
    }));
    const judge = createJudge(
      { adapter: "openai", baseUrl: `${url}/v1`, model: "m" },
      { env: { OPENAI_API_KEY: "sk" } },
    );
    expect(await judge.grade("no cent lost", "333 each", context)).toEqual({
      passed: false,
      evidence: "gives 333 to everyone",
    });
    expect(seen[0]!.url).toBe("/v1/chat/completions");
    expect(seen[0]!.headers.authorization).toBe("Bearer sk");
  });

  it("retries a transient failure", async () => {
    let calls = 0;
    const { url } = await serve(() =>
      ++calls === 1
        ? { status: 529, body: { error: "overloaded" } }
        : { status: 200, body: { content: [{ type: "text", text: '{"passed": true, "evidence": "ok"}' }] } },
    );
    const judge = createJudge({ adapter: "anthropic", baseUrl: url }, { env: {}, retryBaseMs: 1 });
    expect(await judge.grade("x", "y", context)).toEqual({ passed: true, evidence: "ok" });
    expect(calls).toBe(2);
  });

  it("HTTP errors and replies without a verdict throw (the assertion becomes an error)", async () => {
    let calls = 0;
    const { url } = await serve(() => {
      calls++;
      return { status: 529, body: { error: "overloaded" } };
    });
    const judge = createJudge({ adapter: "anthropic", baseUrl: url }, { env: {}, retryBaseMs: 1 });
    await expect(judge.grade("x", "y", context)).rejects.toThrow(/judge HTTP 529/);
    expect(calls).toBe(3);
    const { url: url400 } = await serve(() => ({ status: 400, body: { error: "bad" } }));
    await expect(
      createJudge({ adapter: "anthropic", baseUrl: url400 }, { env: {}, retryBaseMs: 1 }).grade(
        "x",
        "y",
        context,
      ),
    ).rejects.toThrow(/judge HTTP 400/);
    expect(() => parseVerdict("I think it passes")).toThrow(/no \{"passed": boolean\} verdict/);
    expect(() => parseVerdict('{"passed": "yes"}')).toThrow();
    expect(() => createJudge({ adapter: "claude-code" })).toThrow(/not supported/);
    expect(() => createJudge({ adapter: "anthropic" }, { env: {} })).toThrow(/ANTHROPIC_API_KEY is not set/);
  });
});
