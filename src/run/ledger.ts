/**
 * The run stage's books: every unique trial asked for, its record, and what the run cost. The pipeline hands it
 * requests (the first batch, then confirmation batches); each trial key runs once per pipeline run.
 */
import "../agents/index.js";
import { createAgent } from "../agents/registry.js";
import { writeRecordings } from "../agents/replay.js";
import { errorResult } from "../agents/result.js";
import type { Forecast, Settings, TrialRecord, TrialRequest, TrialRound } from "../model/index.js";
import { buildForecast, type PlannedRequest } from "../plan/forecast.js";
import { uniqueByKey } from "../plan/job.js";
import { cacheKey } from "../plan/keys.js";
import { mapLimited } from "../util/slots.js";
import { AdaptiveLimit } from "./adaptive-limit.js";
import { BudgetTracker } from "./budget.js";
import { TrialCache } from "./cache.js";
import { type RunCost, runTrials, type SharedRunLimits } from "./runner.js";
import { readRecordedUsage, recordUsage } from "./usage-ledger.js";

/** What the run stage reads of the settings, and nothing else (resolved up front, `resolveSettings`). */
export type LedgerSettings = Pick<
  Settings,
  | "agent"
  | "repoDir"
  | "concurrency"
  | "timeoutMs"
  | "cache"
  | "budget"
  | "budgetSource"
  | "env"
  | "seed"
  | "record"
  | "logger"
>;

export class TrialLedger {
  readonly records = new Map<string, TrialRecord>();
  /** Every unique request run, in the order they ran. */
  readonly requests: TrialRequest[] = [];
  readonly cost: RunCost = {
    usd: 0,
    unpricedCalls: 0,
    agentCalls: 0,
    cacheHits: 0,
    inputTokens: 0,
    outputTokens: 0,
  };
  /** Run-level errors (the budget stopped the run …). */
  readonly runErrors: string[] = [];
  /** Each batch that ran (first batch, confirmation rounds): what a PR waited for, in rounds of agent calls. */
  readonly rounds: TrialRound[] = [];
  identity: string;
  /** Whether the adapter's trials are live agent calls (set by `adapter()`; a replay is not). */
  private live = false;
  private adapterInfo: Promise<{ identity: string; live: boolean }> | undefined;
  /** Why the run stopped starting trials (its first trials all failed alike): later batches run nothing. */
  private stopped: string | undefined;
  /** Batches in flight together (confirmation looks of different units) share agent-call slots and the budget. */
  private readonly shared: SharedRunLimits;

  constructor(
    private readonly settings: LedgerSettings,
    private readonly opts: { agentDir: string },
  ) {
    this.identity = settings.agent.adapter;
    this.shared = {
      limit: new AdaptiveLimit(settings.concurrency),
      spent: new BudgetTracker(settings.budget),
    };
  }

  /**
   * Runs the requests whose key has no record yet, as one batch labelled `label` in progress lines and the report
   * (in a log group of its own unless `grouped` is false: batches in flight together share their caller's).
   * Returns why this batch stopped early, when it did: the budget, or first trials that all failed alike (then no
   * later batch runs either). Batches may run at once: they share one limit of agent calls and one budget.
   */
  async run(
    requests: TrialRequest[],
    label = "trials",
    opts: { grouped?: boolean; look?: number } = {},
  ): Promise<{ budgetExhausted?: string }> {
    const { settings } = this;
    const unique = uniqueByKey(requests).filter((r) => !this.records.has(r.key));
    if (unique.length === 0) return {};
    if (this.stopped) {
      this.notRun(unique, "crash", this.stopped);
      return { budgetExhausted: this.stopped };
    }
    const started = Date.now();
    const batch = () =>
      runTrials(unique, {
        agent: settings.agent,
        repoDir: settings.repoDir,
        agentDir: this.opts.agentDir,
        concurrency: settings.concurrency,
        timeoutMs: settings.timeoutMs,
        cache: settings.cache,
        budget: settings.budget,
        shared: this.shared,
        logger: settings.logger,
        extraEnv: settings.env,
        seed: settings.seed,
        label,
      });
    const outcome =
      opts.grouped === false
        ? await batch()
        : await settings.logger.group(`${label} (${unique.length} trials)`, batch);
    this.rounds.push({
      label,
      ...(opts.look ? { look: opts.look } : {}),
      trials: unique.length,
      agentCalls: outcome.cost.agentCalls,
      cacheHits: outcome.cost.cacheHits,
      ms: Date.now() - started,
      concurrency: outcome.concurrency,
    });
    this.identity = outcome.identity;
    for (const [i, rec] of outcome.records.entries()) this.records.set(unique[i]!.key, rec);
    if (settings.record) await writeRecordings(settings.record, unique, outcome.records);
    this.requests.push(...unique);
    for (const k of Object.keys(this.cost) as (keyof RunCost)[]) this.cost[k] += outcome.cost[k];
    if (outcome.budgetExhausted && !this.runErrors.includes(outcome.budgetExhausted))
      this.runErrors.push(outcome.budgetExhausted);
    if (outcome.stopped) {
      this.stopped = outcome.stopped;
      this.runErrors.push(outcome.stopped);
    }
    const stoppedBy = outcome.budgetExhausted ?? outcome.stopped;
    return stoppedBy ? { budgetExhausted: stoppedBy } : {};
  }

  /** Records every request as not run (kind `budget`): the forecast said the budget cannot cover them. */
  refuse(requests: TrialRequest[], reason: string): void {
    this.notRun(requests, "budget", reason);
    if (!this.runErrors.includes(`not run: ${reason}`)) this.runErrors.push(`not run: ${reason}`);
  }

  private notRun(requests: TrialRequest[], kind: "budget" | "crash", reason: string): void {
    for (const r of uniqueByKey(requests)) {
      if (this.records.has(r.key)) continue;
      const result = errorResult(kind, `not run: ${reason}`);
      this.records.set(r.key, {
        ...result,
        key: r.key,
        skill: r.skill,
        caseId: r.caseId,
        mode: r.mode,
        trial: r.trial,
        durationMs: 0,
      });
    }
  }

  /** The adapter's identity and whether its trials are live agent calls (a replay is not); computed once. */
  async adapter(): Promise<{ identity: string; live: boolean }> {
    this.adapterInfo ??= (async () => {
      const adapter = createAgent(this.settings.agent, { repoDir: this.opts.agentDir });
      return { identity: await adapter.identity(), live: adapter.cacheable !== false };
    })();
    const info = await this.adapterInfo;
    this.identity = info.identity;
    this.live = info.live;
    return info;
  }

  /** Keys of `requests` whose answer is stored (the trial cache holds it for this adapter): no agent call. */
  async storedKeys(requests: TrialRequest[]): Promise<Set<string>> {
    const { identity, live } = await this.adapter();
    const stored = new Set<string>();
    if (!live || !this.settings.cache.enabled) return stored;
    const cache = new TrialCache(this.settings.cache.dir);
    const unique = uniqueByKey(requests);
    const hits = await mapLimited(unique, 32, (r) => cache.get(cacheKey(r.key, identity), identity));
    for (const [i, hit] of hits.entries()) if (hit) stored.add(unique[i]!.key);
    return stored;
  }

  /**
   * The forecast of `planned` (no agent runs): the adapter's identity, which keys the cache answers for it, and
   * the usage it recorded in earlier runs.
   */
  async forecast(
    planned: PlannedRequest[],
    confirmation: { maxConfirmationTrials: number; baseTrialsPerHeadTrial: number },
  ): Promise<Forecast> {
    const { settings } = this;
    const { identity, live } = await this.adapter();
    const cached = await this.storedKeys(planned.map((p) => p.request));
    const usage = settings.cache.enabled ? await readRecordedUsage(settings.cache.dir, identity) : {};
    return buildForecast({
      planned,
      cached,
      live,
      identity,
      usage,
      budget: settings.budget,
      budgetSource: settings.budgetSource,
      ...confirmation,
    });
  }

  /** Adds this run's live trials to the usage the next forecasts price calls with. */
  async recordUsage(): Promise<void> {
    if (!this.settings.cache.enabled || !this.live) return;
    try {
      await recordUsage(this.settings.cache.dir, this.identity, [...this.records.values()]);
    } catch (e) {
      this.settings.logger.warn(`could not record usage for forecasts: ${(e as Error).message}`);
    }
  }
}
