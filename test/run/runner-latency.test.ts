import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { emptyResult, errorResult } from "../../src/agents/result.js";
import type { AgentAdapter, AgentResult, TrialRequest } from "../../src/model/index.js";
import { cacheKey } from "../../src/plan/keys.js";
import { TrialCache } from "../../src/run/cache.js";
import { type RunOptions, runTrials } from "../../src/run/runner.js";
import { makeRequest, recordingLogger } from "../support/trials.js";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** An in-process agent: answers after `ms`, or with what `answer` returns; records the order calls end in. */
function agent(opts: { ms: number; answer?: (req: TrialRequest, n: number) => AgentResult }) {
  const ended: string[] = [];
  let n = 0;
  let inFlight = 0;
  const state = { most: 0 };
  const adapter: AgentAdapter = {
    name: "in-process",
    identity: () => "in-process:1",
    skillsDir: ".agents/skills",
    envAllow: [],
    needsWorkspace: false,
    async run(req) {
      const k = n++;
      inFlight++;
      state.most = Math.max(state.most, inFlight);
      await new Promise((r) => setTimeout(r, opts.ms));
      inFlight--;
      ended.push(`${req.prompt}#${req.trial}`);
      return opts.answer?.(req, k) ?? { ...emptyResult(), output: "42" };
    },
  };
  return { adapter, ended, state };
}

function options(adapter: AgentAdapter, p: Partial<RunOptions> = {}): RunOptions {
  const dir = mkdtempSync(join(tmpdir(), "runner-latency-"));
  dirs.push(dir);
  return {
    agent: { adapter: "in-process" },
    adapter,
    repoDir: dir,
    concurrency: 2,
    timeoutMs: 10_000,
    maxRetries: 0,
    cache: { enabled: true, dir: join(dir, "cache") },
    budget: {},
    logger: recordingLogger(),
    retryBaseMs: 1,
    ...p,
  };
}

describe("runner: time to verdict", () => {
  test("stored answers are served before any agent call, never queued behind them", async () => {
    const { adapter, ended } = agent({ ms: 30 });
    const o = options(adapter, { concurrency: 1 });
    const reqs = Array.from({ length: 8 }, (_, trial) => makeRequest({ prompt: "p", trial }));
    // The default branch stored the odd trials.
    const cache = new TrialCache(o.cache.dir);
    for (const r of reqs.filter((x) => x.trial % 2 === 1))
      await cache.put(cacheKey(r.key, "in-process:1"), "in-process:1", {
        ...emptyResult(),
        output: "stored",
      });
    const logger = recordingLogger();
    const out = await runTrials(reqs, { ...o, logger });
    expect(out.cost).toMatchObject({ agentCalls: 4, cacheHits: 4 });
    // The first four progress lines are the four hits, before the first agent call ended.
    expect(logger.progressCalls.slice(0, 4).map((p) => p.cacheHits)).toEqual([1, 2, 3, 4]);
    expect(ended).toHaveLength(4);
    // Records stay in request order.
    expect(out.records.map((r) => r.output)).toEqual([
      "42",
      "stored",
      "42",
      "stored",
      "42",
      "stored",
      "42",
      "stored",
    ]);
  });

  test("rate-limit answers halve the agent calls at once; the retries then succeed", async () => {
    // The first 8 calls answer 429 (a transient error), every later one succeeds.
    const { adapter, state } = agent({
      ms: 10,
      answer: (_req, n) =>
        n < 8
          ? errorResult("rate-limit", "model API answered 429", true)
          : { ...emptyResult(), output: "ok" },
    });
    const reqs = Array.from({ length: 16 }, (_, trial) => makeRequest({ prompt: "r", trial }));
    const out = await runTrials(
      reqs,
      options(adapter, { concurrency: 8, maxRetries: 3, cache: { enabled: false, dir: "" } }),
    );
    expect(out.records.every((r) => r.output === "ok")).toBe(true);
    expect(out.concurrency.ceiling).toBe(8);
    expect(out.concurrency.cuts).toBeGreaterThanOrEqual(1);
    expect(out.concurrency.lowest).toBeLessThanOrEqual(4);
    expect(state.most).toBe(8);
  });

  test("the budget still stops trials queued for a slot", async () => {
    const { adapter } = agent({ ms: 5 });
    const reqs = Array.from({ length: 10 }, (_, trial) => makeRequest({ prompt: "b", trial }));
    const out = await runTrials(
      reqs,
      options(adapter, { concurrency: 1, budget: { maxAgentCalls: 3 }, cache: { enabled: false, dir: "" } }),
    );
    expect(out.cost.agentCalls).toBe(3);
    expect(out.records.filter((r) => r.error?.kind === "budget")).toHaveLength(7);
  });

  test("progress lines carry the batch's label and the expected time left", async () => {
    const { adapter } = agent({ ms: 20 });
    const logger = recordingLogger();
    const reqs = Array.from({ length: 6 }, (_, trial) => makeRequest({ prompt: "l", trial }));
    await runTrials(
      reqs,
      options(adapter, { logger, concurrency: 2, label: "first batch", cache: { enabled: false, dir: "" } }),
    );
    expect(logger.progressCalls.every((p) => p.label === "first batch")).toBe(true);
    // After the first trials, an estimate: rounds left at the current limit × the mean trial time so far.
    const mid = logger.progressCalls[1]!;
    expect(mid.etaMs).toBeGreaterThan(0);
    expect(logger.progressCalls.at(-1)!.etaMs).toBe(0);
  });
});
