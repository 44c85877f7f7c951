/** The `anthropic` and `openai` adapters against scripted servers speaking their protocols on loopback. */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { AgentConfig } from "../../src/model/index.js";
import { type RunOptions, runTrials } from "../../src/run/runner.js";
import {
  apiError,
  hang,
  type ScriptedServer,
  startScriptedAnthropic,
  text,
  toolUse,
} from "../support/scripted-anthropic.js";
import {
  chatError,
  chatText,
  chatTool,
  type ScriptedChatServer,
  startScriptedOpenAI,
} from "../support/scripted-openai.js";
import { makeRequest, recordingLogger, skill } from "../support/trials.js";

let repo: string;
const attempts = new Map<string, number>();
const bump = (k: string) => {
  const n = (attempts.get(k) ?? 0) + 1;
  attempts.set(k, n);
  return n;
};

beforeAll(() => {
  repo = mkdtempSync(join(tmpdir(), "http-repo-"));
  for (const [name, desc, body] of [
    [
      "split-cents",
      "Split money amounts in cents without losing a cent.",
      "Use the largest remainder method.",
    ],
    ["weather-report", "Write weather reports.", "Be brief."],
  ]) {
    mkdirSync(join(repo, "skills", name!), { recursive: true });
    writeFileSync(
      join(repo, "skills", name!, "SKILL.md"),
      `---\nname: ${name}\ndescription: ${desc}\n---\n${body}\n`,
    );
  }
  process.env.TEST_ANTHROPIC_KEY = "sk-ant-test";
  process.env.OPENAI_API_KEY = "sk-openai-test";
});

const catalogue = () => [
  skill(
    "split-cents",
    join(repo, "skills/split-cents"),
    ["SKILL.md"],
    "Split money amounts in cents without losing a cent.",
  ),
  skill("weather-report", join(repo, "skills/weather-report"), ["SKILL.md"], "Write weather reports."),
];

function opts(agent: AgentConfig, p: Partial<RunOptions> = {}): RunOptions {
  return {
    agent,
    repoDir: repo,
    concurrency: 2,
    timeoutMs: 10_000,
    maxRetries: 0,
    cache: { enabled: false, dir: "" },
    budget: {},
    logger: recordingLogger(),
    retryBaseMs: 5,
    ...p,
  };
}

describe("anthropic adapter", () => {
  let server: ScriptedServer;
  beforeAll(async () => {
    server = await startScriptedAnthropic((r) => {
      const system = JSON.stringify(r.body.system ?? "");
      const prompt = String(r.body.messages?.[0]?.content ?? "");
      if (prompt.startsWith("ROUTE")) {
        if (r.turn === 0) {
          // Route only on the catalogue actually offered.
          return /bill|cents/.test(prompt) && system.includes("- split-cents:")
            ? toolUse("activate_skill", { name: "split-cents" })
            : text("no skill needed");
        }
        return text(
          r.lastUserText.includes("largest remainder") ? "334, 333, 333 (largest remainder)" : "333 each",
        );
      }
      if (prompt.startsWith("BASELINE"))
        return text(`tools=${r.hasTools} constrained=${system.includes("Answer without skills.")}`);
      if (prompt.startsWith("RATE"))
        return bump(prompt) === 1 ? apiError(429, "slow down", "rate_limit_error") : text("after retry");
      if (prompt.startsWith("BAD")) return apiError(400, "bad request");
      if (prompt.startsWith("HANG")) return hang();
      return text("?");
    });
  });
  afterAll(() => server.close());

  const agent = (): AgentConfig => ({
    adapter: "anthropic",
    model: "claude-test",
    baseUrl: server.url,
    apiKeyEnv: "TEST_ANTHROPIC_KEY",
    env: ["TEST_ANTHROPIC_KEY"],
    options: { pricing: { inputPerMTok: 3, outputPerMTok: 15 } },
  });

  test("trigger trials: the catalogue and activation tool route; the skill body is served from the workspace", async () => {
    const out = await runTrials(
      [
        makeRequest({ prompt: "ROUTE split the bill of 1000 cents", mode: "trigger", install: catalogue() }),
        makeRequest({ prompt: "ROUTE what is the capital of France", mode: "trigger", install: catalogue() }),
      ],
      opts(agent()),
    );
    const [fire, quiet] = out.records;
    expect(fire!.error).toBeUndefined();
    expect(fire!.skillsActivated).toEqual(["split-cents"]);
    expect(fire!.skillsRegistered).toEqual(["split-cents", "weather-report"]);
    expect(fire!.toolCalls[0]).toMatchObject({
      name: "activate_skill",
      input: { name: "split-cents" },
      turn: 0,
    });
    expect(fire!.output).toBe("334, 333, 333 (largest remainder)");
    expect(fire!.usage).toEqual({ inputTokens: 200, outputTokens: 40, costUsd: (200 * 3 + 40 * 15) / 1e6 });
    expect(quiet!.skillsActivated).toEqual([]);
    expect(quiet!.output).toBe("no skill needed");
    const first = server.requests.find((r) => String(r.body.messages[0].content).includes("split the bill"))!;
    expect(first.headers["x-api-key"]).toBe("sk-ant-test");
    expect(first.headers["anthropic-version"]).toBe("2023-06-01");
    expect(first.body.tools[0].input_schema.properties.name.enum).toEqual(["split-cents", "weather-report"]);
  });

  test("baseline: no tools, the constraint block in the system prompt", async () => {
    const out = await runTrials(
      [makeRequest({ prompt: "BASELINE", mode: "baseline", constraints: ["Answer without skills."] })],
      opts(agent()),
    );
    expect(out.records[0]!.output).toBe("tools=false constrained=true");
  });

  test("429 is a transient rate-limit that the runner retries; 400 is not retried; a hang times out", async () => {
    const out = await runTrials(
      [makeRequest({ prompt: "RATE once" }), makeRequest({ prompt: "BAD" }), makeRequest({ prompt: "HANG" })],
      opts(agent(), { maxRetries: 1, timeoutMs: 800 }),
    );
    expect(out.records[0]!.error).toBeUndefined();
    expect(out.records[0]!.output).toBe("after retry");
    expect(out.records[1]!.error).toMatchObject({ kind: "protocol" });
    expect(out.records[1]!.error?.message).toMatch(/answered 400: .*bad request/);
    expect(out.records[2]!.error).toMatchObject({ kind: "timeout", transient: true });
    // RATE: 2 calls; BAD: 1; HANG: 2 (timeouts are retried)
    expect(out.cost.agentCalls).toBe(5);
  });

  test("an unreachable server is a transient network error", async () => {
    const out = await runTrials(
      [makeRequest({ prompt: "x" })],
      opts({ ...agent(), baseUrl: "http://127.0.0.1:9" }),
    );
    expect(out.records[0]!.error).toMatchObject({ kind: "crash", transient: true });
    expect(out.records[0]!.error?.message).toMatch(/network error/);
  });
});

describe("openai adapter", () => {
  let server: ScriptedChatServer;
  beforeAll(async () => {
    server = await startScriptedOpenAI((r) => {
      const system = String(r.body.messages?.[0]?.content ?? "");
      const prompt = String(r.body.messages?.[1]?.content ?? "");
      if (prompt.startsWith("ROUTE")) {
        if (r.turn === 0)
          return /bill/.test(prompt) && system.includes("- split-cents:")
            ? chatTool("activate_skill", { name: "split-cents" })
            : chatText("plain");
        const toolMsg = r.body.messages.find((m: { role: string }) => m.role === "tool");
        return chatText(
          String(toolMsg?.content ?? "").includes("largest remainder") ? "334, 333, 333" : "333 each",
        );
      }
      if (prompt.startsWith("BADARGS"))
        return r.turn === 0 ? chatTool("activate_skill", "{not json") : chatText("recovered");
      if (prompt.startsWith("FIVE")) return chatError(503, "overloaded");
      return chatText(`model=${r.body.model}`);
    });
  });
  afterAll(() => server.close());

  test("routes through the activate_skill function and reads tool results back", async () => {
    const out = await runTrials(
      [makeRequest({ prompt: "ROUTE split the bill", mode: "trigger", install: catalogue() })],
      opts({ adapter: "openai", model: "gpt-test", baseUrl: `${server.url}/v1` }),
    );
    const r = out.records[0]!;
    expect(r.error).toBeUndefined();
    expect(r.skillsActivated).toEqual(["split-cents"]);
    expect(r.output).toBe("334, 333, 333");
    expect(r.usage).toMatchObject({ inputTokens: 240, outputTokens: 60 });
    const req = server.requests.at(-1)!;
    expect(req.path).toBe("/v1/chat/completions");
    expect(req.headers.authorization).toBe("Bearer sk-openai-test");
    expect(req.body.tools[0].function.name).toBe("activate_skill");
  });

  test("Azure: api-key header and api-version on the deployment URL", async () => {
    process.env.AZURE_OPENAI_API_KEY = "azure-key";
    const out = await runTrials(
      [makeRequest({ prompt: "hello azure" })],
      opts({
        adapter: "openai",
        model: "my-deployment",
        baseUrl: `${server.url}/openai/deployments/my-deployment`,
        options: { azure: true, apiVersion: "2024-10-21" },
      }),
    );
    expect(out.records[0]!.output).toBe("model=my-deployment");
    const req = server.requests.at(-1)!;
    expect(req.path).toBe("/openai/deployments/my-deployment/chat/completions?api-version=2024-10-21");
    expect(req.headers["api-key"]).toBe("azure-key");
    expect(req.headers.authorization).toBeUndefined();
  });

  test("bad tool arguments are answered as a tool error; 503 is a transient error record", async () => {
    const out = await runTrials(
      [makeRequest({ prompt: "BADARGS", install: catalogue() }), makeRequest({ prompt: "FIVE" })],
      opts({ adapter: "openai", model: "gpt-test", baseUrl: `${server.url}/v1` }),
    );
    expect(out.records[0]!.output).toBe("recovered");
    expect(out.records[0]!.toolCalls[0]).toMatchObject({
      isError: true,
      output: "Tool arguments are not valid JSON.",
    });
    expect(out.records[0]!.skillsActivated).toEqual([]);
    expect(out.records[1]!.error).toMatchObject({ kind: "crash", transient: true });
    expect(out.records[1]!.error?.message).toMatch(/503/);
  });

  test("a model is required", async () => {
    await expect(runTrials([], opts({ adapter: "openai" }))).rejects.toThrow(
      /needs a model .*`--model NAME`/,
    );
  });
});
