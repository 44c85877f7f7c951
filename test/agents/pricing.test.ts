/**
 * Issue #33: `openai` / `anthropic` trials cost $0 unless `agent.options.pricing` was set, so the USD budget could
 * never stop them. Known models are priced from a built-in table; an unknown model's cost is unknown (never $0),
 * and the run says that the USD budget does not bound those calls.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { priceUsage } from "../../src/agents/http-common.js";
import type { AgentConfig } from "../../src/model/index.js";
import { runTrials } from "../../src/run/runner.js";
import { type ScriptedServer, startScriptedAnthropic, text } from "../support/scripted-anthropic.js";
import { makeRequest, recordingLogger } from "../support/trials.js";

describe("priceUsage", () => {
  const M = 1_000_000;
  test("a known model is priced from the built-in table, dated ids included", () => {
    expect(priceUsage({ adapter: "anthropic", model: "claude-sonnet-4-6" }, M, M)).toEqual({
      inputTokens: M,
      outputTokens: M,
      costUsd: 18,
    });
    expect(priceUsage({ adapter: "anthropic", model: "claude-haiku-4-5-20251001" }, M, 0).costUsd).toBe(1);
    expect(priceUsage({ adapter: "openai", model: "gpt-5" }, M, M).costUsd).toBe(11.25);
  });
  test("configured pricing wins over the table", () => {
    const config = {
      adapter: "anthropic",
      model: "claude-opus-4-8",
      options: { pricing: { inputPerMTok: 1, outputPerMTok: 2 } },
    };
    expect(priceUsage(config, M, M).costUsd).toBe(3);
  });
  test("an unknown model's cost is unknown, not free", () => {
    const u = priceUsage({ adapter: "openai", model: "llama-3-local" }, 1000, 1000);
    expect(u.costUsd).toBe(0);
    expect(u.costUnknown).toBe(true);
  });
});

describe("the USD budget over anthropic trials", () => {
  let server: ScriptedServer;
  let repo: string;
  beforeAll(async () => {
    server = await startScriptedAnthropic(() => text("334, 333, 333"));
    repo = mkdtempSync(join(tmpdir(), "sg-pricing-"));
    process.env.TEST_PRICING_KEY = "sk-ant-test";
  });
  afterAll(async () => {
    await server.close();
    rmSync(repo, { recursive: true, force: true });
  });
  const run = (model: string, maxUsd: number) => {
    const agent: AgentConfig = {
      adapter: "anthropic",
      model,
      baseUrl: server.url,
      apiKeyEnv: "TEST_PRICING_KEY",
      env: ["TEST_PRICING_KEY"],
    };
    const requests = Array.from({ length: 6 }, (_, i) =>
      makeRequest({ prompt: `split ${i}`, mode: "baseline", trial: i }),
    );
    const logger = recordingLogger();
    return runTrials(requests, {
      agent,
      repoDir: repo,
      concurrency: 1,
      timeoutMs: 10_000,
      maxRetries: 0,
      cache: { enabled: false, dir: "" },
      budget: { maxUsd },
      logger,
    }).then((out) => ({ out, logger }));
  };

  test("a known model's trials spend, and the budget stops the run once reached", async () => {
    const { out } = await run("claude-opus-4-8", 1e-9);
    expect(out.cost.usd).toBeGreaterThan(0);
    expect(out.budgetExhausted).toMatch(/budget reached: spent \$/);
    expect(out.records.filter((r) => r.error?.kind === "budget").length).toBeGreaterThan(0);
  });

  test("an unknown model: its calls are counted as unpriced, and the run says the USD budget does not bound them", async () => {
    const { out, logger } = await run("my-own-model", 1e-9);
    expect(out.cost.unpricedCalls).toBe(6);
    expect(out.budgetExhausted).toBeUndefined();
    expect(logger.lines.join("\n")).toMatch(
      /6 call\(s\) of unknown price.*USD budget .* does not bound them.*agent\.options\.pricing/,
    );
  });
});
