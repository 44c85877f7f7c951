/**
 * Trial runner: fans requests out to one adapter with a concurrency limit; each trial gets a fresh workspace, a
 * scrubbed environment, a timeout that kills its process tree, retries with backoff for transient faults only,
 * the cache, the budget, and the baseline contamination scan. Records come back in request order.
 */
import "../agents/index.js";
import { AGENT_WORKSPACE_MB, agentsConfined, sandboxOptions } from "../agents/confine.js";
import { findContamination } from "../agents/contamination.js";
import { agentEnvFor, buildAgentEnv } from "../agents/env.js";
import { createAgent } from "../agents/registry.js";
import { errorResult } from "../agents/result.js";
import {
  collectWrittenFiles,
  type PreparedWorkspace,
  TrialWorkspaces,
  WORKSPACE_MAX_ENTRIES,
  workspaceUsage,
} from "../agents/workspace.js";
import { chooseWorkspaceParent } from "../agents/workspace-parent.js";
import type {
  AgentAdapter,
  AgentConfig,
  AgentResult,
  Budget,
  Logger,
  TrialRecord,
  TrialRequest,
} from "../model/index.js";
import { withLeaks } from "../observe/leaks.js";
import { withToolCallActions } from "../observe/tool-calls.js";
import { tracer } from "../observe/tracer.js";
import { cacheKey } from "../plan/keys.js";
import { outputRedactor } from "../util/redact.js";
import { mapLimited } from "../util/slots.js";
import { AdaptiveLimit } from "./adaptive-limit.js";
import { BudgetTracker } from "./budget.js";
import { TrialCache } from "./cache.js";
import { FirstFailureWatch, fixFor } from "./first-failures.js";
import { backoffDelay, DEFAULT_MAX_RETRIES, DEFAULT_RETRY_BASE_MS, seededRandom, sleep } from "./retry.js";

const MIB = 1024 * 1024;

/** Time an adapter gets beyond the trial timeout to kill its process and report, before the runner gives up on it. */
const ADAPTER_GRACE_MS = 5_000;

export interface RunOptions {
  agent: AgentConfig;
  repoDir: string;
  /** Where paths in the agent's configuration resolve (the trusted tree: the base in a PR); default `repoDir`. */
  agentDir?: string;
  concurrency: number;
  timeoutMs: number;
  maxRetries?: number;
  cache: { enabled: boolean; dir: string };
  budget: Budget;
  logger: Logger;
  /** Extra environment variable names passed to the agent (config `env:`). */
  extraEnv?: string[];
  signal?: AbortSignal;
  /** Base of the exponential backoff (default 1 s). */
  retryBaseMs?: number;
  /** Seed of the retry jitter (default 0); report it with the run's seed. */
  seed?: number;
  /** Parent folder of trial workspaces (default: chosen by `chooseWorkspaceParent`, /dev/shm or the OS temp folder). */
  workspaceParent?: string;
  /** An adapter instance instead of `createAgent(agent)`: for tests and embedding. */
  adapter?: AgentAdapter;
  /** What this batch is, for progress lines (`first batch`, `confirmation look 2 of ≤4: notes c-4`). */
  label?: string;
  /**
   * Batches of one run that may be in flight together (confirmation looks of different units) share one limit of
   * agent calls at once and one budget: `spent` counts every call of the run, and no trial starts once it is over.
   */
  shared?: SharedRunLimits;
}

/** One run's limits across its batches (see `RunOptions.shared`). */
export interface SharedRunLimits {
  limit: AdaptiveLimit;
  spent: BudgetTracker;
}

/** Stored answers looked up at once (file reads, no agent): they never wait behind agent calls. */
const CACHE_LOOKUPS_AT_ONCE = 32;

export interface RunCost {
  usd: number;
  /** Agent calls whose price is unknown (not counted in `usd`). */
  unpricedCalls: number;
  agentCalls: number;
  cacheHits: number;
  inputTokens: number;
  outputTokens: number;
}

export interface RunOutcome {
  /** Same order as the requests. */
  records: TrialRecord[];
  identity: string;
  cost: RunCost;
  /** Set when the budget stopped the run: why. Trials not started carry an error of kind `budget`. */
  budgetExhausted?: string;
  /** Agent calls at once: the configured ceiling, the lowest rate limits pushed it to, and how often they did. */
  concurrency: { ceiling: number; lowest: number; cuts: number };
  /** Set when the first trials all failed the same way (first-failures.ts): what failed and the fix. */
  stopped?: string;
}

function toRecord(req: TrialRequest, result: AgentResult, durationMs: number): TrialRecord {
  return {
    ...result,
    key: req.key,
    skill: req.skill,
    caseId: req.caseId,
    mode: req.mode,
    trial: req.trial,
    durationMs,
  };
}

function withGuard<T>(work: Promise<T>, ms: number, onTimeout: () => T): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const guard = new Promise<T>((resolve) => {
    timer = setTimeout(() => resolve(onTimeout()), ms);
  });
  return Promise.race([work, guard]).finally(() => clearTimeout(timer));
}

async function trialWorkspaces(adapter: AgentAdapter, opts: RunOptions): Promise<TrialWorkspaces> {
  const parent = chooseWorkspaceParent(opts.workspaceParent, undefined, adapter.avoidShm);
  opts.logger.debug(parent.reason);
  for (const path of parent.sweep?.() ?? []) opts.logger.debug(`removed ${path}, left by a killed run`);
  // A trigger trial's catalogue is written once per run (src/agents/catalogue.ts): bound read-only into confined
  // agents' workspaces, linked skill by skill into the others'.
  const sharing = adapter.confined && (await agentsConfined()) ? "mount" : "symlinks";
  return new TrialWorkspaces(adapter.skillsDir, parent.next, Date.now, sharing);
}

export async function runTrials(requests: TrialRequest[], opts: RunOptions): Promise<RunOutcome> {
  const adapter = opts.adapter ?? createAgent(opts.agent, { repoDir: opts.agentDir ?? opts.repoDir });
  const diskCapBytes = (sandboxOptions(opts.agent.options).diskMb ?? AGENT_WORKSPACE_MB) * MIB;
  const identity = await adapter.identity();
  // A stored answer holds what its trial was seen doing only when it was observed: observed and unobserved
  // answers are kept apart (an answer stored before observation existed is never served as observed).
  const cacheIdentity = `${identity}${(await tracer()).tracer ? "" : " (unobserved)"}`;
  const cacheable = adapter.cacheable !== false;
  const cache = opts.cache.enabled && cacheable ? new TrialCache(opts.cache.dir) : undefined;
  // This batch's spending; what may still start is judged on the run's, when batches share it.
  const budget = new BudgetTracker(opts.budget);
  const runBudget = opts.shared?.spent ?? budget;
  const maxRetries = opts.maxRetries ?? DEFAULT_MAX_RETRIES;
  const retryBase = opts.retryBaseMs ?? DEFAULT_RETRY_BASE_MS;
  const random = seededRandom(opts.seed ?? 0);
  let cacheHits = 0;
  let done = 0;
  let errors = 0;
  let budgetExhausted: string | undefined;
  const firstFailures = new FirstFailureWatch((e) => fixFor(e, opts.agent, opts.agentDir ?? opts.repoDir));

  // Only adapters that run in a workspace need a place for them (replays do not).
  const workspaces = adapter.needsWorkspace === false ? undefined : await trialWorkspaces(adapter, opts);
  // Scrubbed once per run (process.env is a live view into the C++ side); each trial adds its HOME.
  const envFor = agentEnvFor({
    allow: adapter.envAllow,
    extra: [...(opts.agent.env ?? []), ...(opts.extraEnv ?? [])],
    source: { ...process.env },
  });
  const limit = opts.shared?.limit ?? new AdaptiveLimit(opts.concurrency);
  // Expected time left: the trials still to run, in rounds of the current limit, at the mean live trial's time.
  let liveDone = 0;
  let liveMs = 0;
  const progress = () => {
    const left = requests.length - done;
    const etaMs =
      liveDone > 0 && left > 0
        ? Math.ceil(left / limit.limit) * (liveMs / liveDone)
        : left > 0
          ? undefined
          : 0;
    opts.logger.progress({
      done,
      total: requests.length,
      errors,
      costUsd: budget.usd,
      cacheHits,
      ...(opts.label ? { label: opts.label } : {}),
      ...(etaMs !== undefined ? { etaMs } : {}),
    });
  };

  const redactor = outputRedactor();

  async function attempt(req: TrialRequest): Promise<AgentResult> {
    if (!workspaces) {
      const none = { dir: opts.repoDir, home: opts.repoDir, skillPaths: {} };
      const env = buildAgentEnv({ allow: [], home: opts.repoDir });
      return adapter
        .run(req, {
          workspace: none,
          env,
          signal: opts.signal ?? new AbortController().signal,
          timeoutMs: opts.timeoutMs,
        })
        .catch((e: unknown) =>
          errorResult("crash", `adapter ${adapter.name} failed: ${(e as Error).message ?? e}`),
        );
    }
    let ws: PreparedWorkspace;
    try {
      ws = workspaces.prepare(req);
    } catch (e) {
      return errorResult(
        "crash",
        `cannot prepare the workspace of ${req.skill}/${req.caseId}: ${(e as Error).message}`,
      );
    }
    const controller = new AbortController();
    const onAbort = () => controller.abort();
    opts.signal?.addEventListener("abort", onAbort, { once: true });
    try {
      // Decoy variables (decoys.ts) unless the trusted config forwards a real one of the same name.
      const env = { ...ws.decoys?.env, ...envFor(ws.home) };
      const run = adapter
        .run(req, { workspace: ws, env, signal: controller.signal, timeoutMs: opts.timeoutMs })
        .catch((e: unknown) =>
          errorResult("crash", `adapter ${adapter.name} failed: ${(e as Error).message ?? e}`),
        );
      const result = await withGuard(run, opts.timeoutMs + ADAPTER_GRACE_MS, () => {
        controller.abort();
        return errorResult("timeout", `trial did not finish within ${opts.timeoutMs} ms`, true);
      });
      // A hostile agent may fill the runner's disk: what it left over its cap fails the trial (confine.ts).
      const usage = workspaceUsage([ws.dir, ws.home], diskCapBytes);
      if (usage.over)
        return errorResult(
          "crash",
          `the agent left more than ${diskCapBytes / MIB} MiB${usage.entries > WORKSPACE_MAX_ENTRIES ? ` or ${WORKSPACE_MAX_ENTRIES} files` : ""} in its workspace (the cap: agent.options.sandbox.diskMb)`,
        );
      if (!result.error && Object.keys(result.files).length === 0) {
        const written = collectWrittenFiles(ws);
        result.files = written.files;
        if (written.notes.length) result.notes = [...(result.notes ?? []), ...written.notes];
      }
      if (!ws.decoys) return result;
      const writable = sandboxOptions(opts.agent.options).writable ?? [];
      const paths = { workspace: ws.dir, home: ws.home, writable, decoyFiles: ws.decoys.files };
      return withToolCallActions(withLeaks(result, ws.decoys, ws.dir), paths);
    } finally {
      opts.signal?.removeEventListener("abort", onAbort);
      workspaces.dispose(ws);
    }
  }

  /** The stored answer of `req`, as its record, or undefined. */
  async function stored(req: TrialRequest): Promise<TrialRecord | undefined> {
    if (!cache) return undefined;
    const started = performance.now();
    const hit = await cache.get(cacheKey(req.key, cacheIdentity), cacheIdentity);
    if (!hit) return undefined;
    cacheHits++;
    return toRecord(req, { ...hit, cached: true }, performance.now() - started);
  }

  async function runOne(req: TrialRequest): Promise<TrialRecord> {
    const started = performance.now();
    const key = cache ? cacheKey(req.key, cacheIdentity) : "";
    let result: AgentResult | undefined;
    let attempts = 0;
    for (let n = 0; ; n++) {
      // Each attempt holds a slot of the adaptive limit (the backoff before a retry does not), and the budget is
      // read inside it: a trial waiting for a slot must not start once the calls ahead of it spent the budget.
      const outcome = await limit.run<{ stop?: AgentResult; ran?: AgentResult }>(async () => {
        // Recordings cost nothing: the budget only stops live agent calls.
        const reason = cacheable ? runBudget.exhausted() : undefined;
        if (reason) {
          budgetExhausted ??= reason;
          return { value: { stop: errorResult("budget", `not run: ${reason}`) }, rateLimited: false };
        }
        if (opts.signal?.aborted)
          return {
            value: { stop: errorResult("crash", "not run: the run was aborted") },
            rateLimited: false,
          };
        if (firstFailures.stopped) {
          const { kind, reason: why } = firstFailures.stopped;
          return { value: { stop: errorResult(kind, `not run: ${why}`) }, rateLimited: false };
        }
        if (cacheable) runBudget.begin();
        let r: AgentResult;
        try {
          r = await attempt(req);
        } finally {
          if (cacheable) runBudget.end();
        }
        if (cacheable && !r.cached) {
          attempts++;
          for (const b of new Set([budget, runBudget])) {
            b.addCall();
            b.addUsage(r.usage);
          }
        }
        // Seen while the slot is held: the trial that takes the slot next must already know the run stopped.
        if (!cacheable || !r.cached) firstFailures.observe(r.error);
        return { value: { ran: r }, rateLimited: r.error?.kind === "rate-limit" };
      });
      if (outcome.stop || !outcome.ran) {
        result = outcome.stop ?? errorResult("crash", "not run");
        break;
      }
      result = outcome.ran;
      if (!result.error?.transient || n >= maxRetries || opts.signal?.aborted) break;
      const delay = backoffDelay(n + 1, retryBase, random);
      opts.logger.debug(
        `retrying ${req.skill}/${req.caseId} (${req.mode} #${req.trial}) in ${delay} ms after ${result.error.kind}: ${result.error.message}`,
      );
      await sleep(delay, opts.signal);
    }
    if (!result.error && req.mode === "baseline") {
      const offending = findContamination(result, { skill: req.skill, repoDir: opts.repoDir });
      if (offending) {
        result = {
          ...result,
          error: {
            kind: "contaminated",
            message: `baseline trial touched skill "${req.skill}" via ${offending.name} ${JSON.stringify(offending.input).slice(0, 300)}`,
            offendingCall: offending,
          },
        };
      }
    }
    // An agent's answer may hold skillgate's secrets (it runs code a PR author steered): redact it before it is
    // cached or graded (grading quotes cuts of it), treating every string as possibly cut by a size cap.
    // Contamination is judged first, on the paths as the agent used them.
    result = redactor.redactDeep(result, { cut: true });
    if (cache && !result.error && !result.cached) await cache.put(key, cacheIdentity, result);
    if (attempts > 0) result = { ...result, attempts };
    const ms = performance.now() - started;
    liveDone++;
    liveMs += ms;
    return toRecord(req, result, ms);
  }

  const finish = (record: TrialRecord): TrialRecord => {
    done++;
    if (record.error) errors++;
    progress();
    return record;
  };
  let records: TrialRecord[];
  try {
    // Stored answers first and all at once: a PR's base arm read from the default branch's results is served
    // before any agent call starts, never queued behind them.
    const hits = await mapLimited(requests, CACHE_LOOKUPS_AT_ONCE, async (req) => {
      const record = await stored(req);
      return record ? finish(record) : undefined;
    });
    // Every miss starts at once; the adaptive limit decides how many agent calls run.
    records = await Promise.all(requests.map(async (req, i) => hits[i] ?? finish(await runOne(req))));
  } finally {
    await workspaces?.drain();
  }

  const unpriced = budget.unpriced();
  if (unpriced) opts.logger.warn(`budget: ${unpriced}`);
  return {
    records,
    identity,
    cost: {
      usd: budget.usd,
      unpricedCalls: budget.unpricedCalls,
      agentCalls: budget.agentCalls,
      cacheHits,
      inputTokens: budget.inputTokens,
      outputTokens: budget.outputTokens,
    },
    ...(budgetExhausted ? { budgetExhausted } : {}),
    concurrency: { ceiling: limit.ceiling, lowest: limit.lowest, cuts: limit.cuts },
    ...(firstFailures.stopped ? { stopped: firstFailures.stopped.reason } : {}),
  };
}
