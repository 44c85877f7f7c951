/**
 * Cache replay (issue 3): 1,000 trials whose answers are in the on-disk cache, run through `runTrials` as a
 * repeat run would: `cacheReplay.{trials, ms, agentCalls}`. Goal: < 1 s and 0 agent calls. The cache is
 * filled through `TrialCache.put` under the adapter's real identity; the agent command would fail if called.
 */
import { join } from "node:path";
import "../src/agents/index.js";
import { createAgent } from "../src/agents/registry.js";
import { emptyResult } from "../src/agents/result.js";
import type { Logger, TrialRequest } from "../src/model/index.js";
import { cacheKey, trialKey } from "../src/plan/keys.js";
import { TrialCache } from "../src/run/cache.js";
import { runTrials } from "../src/run/runner.js";
import type { BenchContext } from "./types.js";

export const CACHED_TRIALS = 1000;

const quietLogger: Logger = {
  info() {},
  warn() {},
  error() {},
  debug() {},
  group: (_n, fn) => fn(),
  progress() {},
};

export async function bench(ctx: BenchContext): Promise<Record<string, unknown>> {
  const dir = join(ctx.tmp, "cache-replay");
  const agent = { adapter: "command", command: "false" };
  const identity = await createAgent(agent, { repoDir: dir }).identity();
  const cache = new TrialCache(join(dir, "cache"));
  const requests: TrialRequest[] = [];
  for (let i = 0; i < CACHED_TRIALS; i++) {
    const trial = i % 5;
    const prompt = `Case ${Math.floor(i / 5)}: split 1000 cents among 3.`;
    const key = trialKey({ mode: "skill", skillContentHash: "h", prompt, files: [], trial });
    requests.push({
      key,
      skill: "s",
      caseId: `case-${Math.floor(i / 5)}`,
      mode: "skill",
      trial,
      prompt,
      files: [],
      install: [],
      seed: 1,
    });
    await cache.put(cacheKey(key, identity), identity, {
      ...emptyResult(),
      output: `334 333 333 (${i})`,
      toolCalls: [{ name: "Skill", input: { skill: "s" }, output: "Launching skill: s", turn: 0 }],
      skillsActivated: ["s"],
      files: { "src/split.ts": "export function splitCents() { return [334, 333, 333]; }\n" },
      usage: { inputTokens: 1000, outputTokens: 100, costUsd: 0.01 },
    });
  }
  const started = performance.now();
  const out = await runTrials(requests, {
    agent,
    repoDir: dir,
    concurrency: 8,
    timeoutMs: 10_000,
    cache: { enabled: true, dir: join(dir, "cache") },
    budget: {},
    logger: quietLogger,
  });
  const ms = performance.now() - started;
  const hits = out.records.filter((r) => r.cached && !r.error).length;
  if (hits !== CACHED_TRIALS) throw new Error(`cache replay: only ${hits}/${CACHED_TRIALS} hits`);
  ctx.log(
    `cacheReplay: ${CACHED_TRIALS} cached trials in ${ms.toFixed(0)} ms (regression guard < 3000 ms), ${out.cost.agentCalls} agent calls (goal 0)`,
  );
  return {
    "cacheReplay.trials": CACHED_TRIALS,
    "cacheReplay.ms": Math.round(ms),
    "cacheReplay.agentCalls": out.cost.agentCalls,
  };
}
