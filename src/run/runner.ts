/**
 * Trial runner: fans requests out to one adapter with a concurrency limit; each trial gets a fresh workspace, a
 * scrubbed environment, a timeout that kills its process tree, retries with backoff for transient faults only,
 * the cache, the budget, and the baseline contamination scan. Records come back in request order.
 */
import "../agents/index.js";
import { agentsConfined } from "../agents/confine.js";
import { findContamination } from "../agents/contamination.js";
import { createAgent } from "../agents/registry.js";
import { errorResult } from "../agents/result.js";
import { TrialWorkspaces } from "../agents/workspace.js";
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
import { tracer } from "../observe/tracer.js";
import { cacheKey } from "../plan/keys.js";
import { outputRedactor } from "../util/redact.js";
import { mapLimited } from "../util/slots.js";
import { AdaptiveLimit } from "./adaptive-limit.js";
import { BudgetTracker } from "./budget.js";
import { TrialCache } from "./cache.js";
import { FirstFailureWatch, fixFor } from "./first-failures.js";
import { backoffDelay, DEFAULT_MAX_RETRIES, DEFAULT_RETRY_BASE_MS, seededRandom, sleep } from "./retry.js";
import { TrialAttempt } from "./trial-attempt.js";

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

async function trialWorkspaces(adapter: AgentAdapter, opts: RunOptions): Promise<TrialWorkspaces> {
  const parent = chooseWorkspaceParent(opts.workspaceParent, undefined, adapter.avoidShm);
  opts.logger.debug(parent.reason);
  for (const path of parent.sweep?.() ?? []) opts.logger.debug(`removed ${path}, left by a killed run`);
  // A trigger trial's catalogue is written once per run (src/agents/catalogue.ts): bound read-only into confined
  // agents' workspaces, linked skill by skill into the others'.
  const sharing = adapter.confined && (await agentsConfined()) ? "mount" : "symlinks";
  return new TrialWorkspaces(adapter.skillsDir, parent.next, Date.now, sharing);
}

/** The bookkeeping of one `runTrials` call: counts, progress, and each trial from cache or agent to its record. */
class TrialRun {
  cacheHits = 0;
  done = 0;
  errors = 0;
  budgetExhausted: string | undefined;
  /** Live trials finished and their time, for the expected time left. */
  private liveDone = 0;
  private liveMs = 0;
  /** This batch's spending; what may still start is judged on the run's, when batches share it. */
  readonly budget: BudgetTracker;
  private readonly runBudget: BudgetTracker;
  readonly limit: AdaptiveLimit;
  private readonly cache: TrialCache | undefined;
  private readonly cacheable: boolean;
  private readonly random: () => number;
  private readonly redactor = outputRedactor();
  readonly firstFailures: FirstFailureWatch;

  constructor(
    private readonly requests: readonly TrialRequest[],
    private readonly opts: RunOptions,
    adapter: AgentAdapter,
    private readonly cacheIdentity: string,
    private readonly attempt: TrialAttempt,
  ) {
    this.cacheable = adapter.cacheable !== false;
    this.cache = opts.cache.enabled && this.cacheable ? new TrialCache(opts.cache.dir) : undefined;
    this.budget = new BudgetTracker(opts.budget);
    this.runBudget = opts.shared?.spent ?? this.budget;
    this.random = seededRandom(opts.seed ?? 0);
    this.firstFailures = new FirstFailureWatch((e) => fixFor(e, opts.agent, opts.agentDir ?? opts.repoDir));
    this.limit = opts.shared?.limit ?? new AdaptiveLimit(opts.concurrency);
  }

  /** Expected time left: the trials still to run, in rounds of the current limit, at the mean live trial's time. */
  private progress(): void {
    const left = this.requests.length - this.done;
    const etaMs =
      this.liveDone > 0 && left > 0
        ? Math.ceil(left / this.limit.limit) * (this.liveMs / this.liveDone)
        : left > 0
          ? undefined
          : 0;
    this.opts.logger.progress({
      done: this.done,
      total: this.requests.length,
      errors: this.errors,
      costUsd: this.budget.usd,
      cacheHits: this.cacheHits,
      ...(this.opts.label ? { label: this.opts.label } : {}),
      ...(etaMs !== undefined ? { etaMs } : {}),
    });
  }

  finish(record: TrialRecord): TrialRecord {
    this.done++;
    if (record.error) this.errors++;
    this.progress();
    return record;
  }

  /** The stored answer of `req`, as its record, or undefined. */
  async stored(req: TrialRequest): Promise<TrialRecord | undefined> {
    if (!this.cache) return undefined;
    const started = performance.now();
    const hit = await this.cache.get(cacheKey(req.key, this.cacheIdentity), this.cacheIdentity);
    if (!hit) return undefined;
    this.cacheHits++;
    return toRecord(req, { ...hit, cached: true }, performance.now() - started);
  }

  /** Why no new agent call may start now (budget, abort, the first trials' common failure), as its result. */
  private refusal(): AgentResult | undefined {
    // Recordings cost nothing: the budget only stops live agent calls.
    const reason = this.cacheable ? this.runBudget.exhausted() : undefined;
    if (reason) {
      this.budgetExhausted ??= reason;
      return errorResult("budget", `not run: ${reason}`);
    }
    if (this.opts.signal?.aborted) return errorResult("crash", "not run: the run was aborted");
    const stopped = this.firstFailures.stopped;
    return stopped ? errorResult(stopped.kind, `not run: ${stopped.reason}`) : undefined;
  }

  /**
   * One attempt holding a slot of the adaptive limit (the backoff before a retry does not), with the budget read
   * inside it: a trial waiting for a slot must not start once the calls ahead of it spent the budget.
   */
  private inSlot(req: TrialRequest): Promise<{ stop?: AgentResult; ran?: AgentResult }> {
    return this.limit.run<{ stop?: AgentResult; ran?: AgentResult }>(async () => {
      const stop = this.refusal();
      if (stop) return { value: { stop }, rateLimited: false };
      if (this.cacheable) this.runBudget.begin();
      let r: AgentResult;
      try {
        r = await this.attempt.run(req);
      } finally {
        if (this.cacheable) this.runBudget.end();
      }
      if (this.cacheable && !r.cached) {
        for (const b of new Set([this.budget, this.runBudget])) {
          b.addCall();
          b.addUsage(r.usage);
        }
      }
      // Seen while the slot is held: the trial that takes the slot next must already know the run stopped.
      if (!this.cacheable || !r.cached) this.firstFailures.observe(r.error);
      return { value: { ran: r }, rateLimited: r.error?.kind === "rate-limit" };
    });
  }

  /** The trial's result after retries of transient faults with backoff, and how many agent calls it paid. */
  private async withRetries(req: TrialRequest): Promise<{ result: AgentResult; attempts: number }> {
    const maxRetries = this.opts.maxRetries ?? DEFAULT_MAX_RETRIES;
    const retryBase = this.opts.retryBaseMs ?? DEFAULT_RETRY_BASE_MS;
    let attempts = 0;
    for (let n = 0; ; n++) {
      const outcome = await this.inSlot(req);
      if (outcome.stop || !outcome.ran)
        return { result: outcome.stop ?? errorResult("crash", "not run"), attempts };
      const result = outcome.ran;
      if (this.cacheable && !result.cached) attempts++;
      if (!result.error?.transient || n >= maxRetries || this.opts.signal?.aborted)
        return { result, attempts };
      const delay = backoffDelay(n + 1, retryBase, this.random);
      this.opts.logger.debug(
        `retrying ${req.skill}/${req.caseId} (${req.mode} #${req.trial}) in ${delay} ms after ${result.error.kind}: ${result.error.message}`,
      );
      await sleep(delay, this.opts.signal);
    }
  }

  /** A baseline trial that touched the skill is contaminated (it would grade the skill, not its absence). */
  private contaminationChecked(req: TrialRequest, result: AgentResult): AgentResult {
    if (result.error || req.mode !== "baseline") return result;
    const offending = findContamination(result, { skill: req.skill, repoDir: this.opts.repoDir });
    if (!offending) return result;
    return {
      ...result,
      error: {
        kind: "contaminated",
        message: `baseline trial touched skill "${req.skill}" via ${offending.name} ${JSON.stringify(offending.input).slice(0, 300)}`,
        offendingCall: offending,
      },
    };
  }

  async runOne(req: TrialRequest): Promise<TrialRecord> {
    const started = performance.now();
    const key = this.cache ? cacheKey(req.key, this.cacheIdentity) : "";
    const tried = await this.withRetries(req);
    // An agent's answer may hold skillgate's secrets (it runs code a PR author steered): redact it before it is
    // cached or graded (grading quotes cuts of it), treating every string as possibly cut by a size cap.
    // Contamination is judged first, on the paths as the agent used them.
    let result = this.redactor.redactDeep(this.contaminationChecked(req, tried.result), { cut: true });
    if (this.cache && !result.error && !result.cached) await this.cache.put(key, this.cacheIdentity, result);
    if (tried.attempts > 0) result = { ...result, attempts: tried.attempts };
    const ms = performance.now() - started;
    this.liveDone++;
    this.liveMs += ms;
    return toRecord(req, result, ms);
  }
}

export async function runTrials(requests: TrialRequest[], opts: RunOptions): Promise<RunOutcome> {
  const adapter = opts.adapter ?? createAgent(opts.agent, { repoDir: opts.agentDir ?? opts.repoDir });
  const identity = await adapter.identity();
  // A stored answer holds what its trial was seen doing only when it was observed: observed and unobserved
  // answers are kept apart (an answer stored before observation existed is never served as observed).
  const cacheIdentity = `${identity}${(await tracer()).tracer ? "" : " (unobserved)"}`;
  // Only adapters that run in a workspace need a place for them (replays do not).
  const workspaces = adapter.needsWorkspace === false ? undefined : await trialWorkspaces(adapter, opts);
  const run = new TrialRun(
    requests,
    opts,
    adapter,
    cacheIdentity,
    new TrialAttempt(adapter, workspaces, opts),
  );
  let records: TrialRecord[];
  try {
    // Stored answers first and all at once: a PR's base arm read from the default branch's results is served
    // before any agent call starts, never queued behind them.
    const hits = await mapLimited(requests, CACHE_LOOKUPS_AT_ONCE, async (req) => {
      const record = await run.stored(req);
      return record ? run.finish(record) : undefined;
    });
    // Every miss starts at once; the adaptive limit decides how many agent calls run.
    records = await Promise.all(requests.map(async (req, i) => hits[i] ?? run.finish(await run.runOne(req))));
  } finally {
    await workspaces?.drain();
  }
  return outcomeOf(run, records, identity, opts.logger);
}

function outcomeOf(run: TrialRun, records: TrialRecord[], identity: string, logger: Logger): RunOutcome {
  const { budget, limit } = run;
  const unpriced = budget.unpriced();
  if (unpriced) logger.warn(`budget: ${unpriced}`);
  return {
    records,
    identity,
    cost: {
      usd: budget.usd,
      unpricedCalls: budget.unpricedCalls,
      agentCalls: budget.agentCalls,
      cacheHits: run.cacheHits,
      inputTokens: budget.inputTokens,
      outputTokens: budget.outputTokens,
    },
    ...(run.budgetExhausted ? { budgetExhausted: run.budgetExhausted } : {}),
    concurrency: { ceiling: limit.ceiling, lowest: limit.lowest, cuts: limit.cuts },
    ...(run.firstFailures.stopped ? { stopped: run.firstFailures.stopped.reason } : {}),
  };
}
