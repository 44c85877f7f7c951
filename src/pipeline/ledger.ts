/**
 * The run stage's books: every unique trial asked for, its record, and what the run cost. The pipeline hands it
 * requests (the first batch, then confirmation batches); each trial key runs once per pipeline run.
 */
import { writeRecordings } from "../agents/replay.js";
import type { Settings, TrialRecord, TrialRequest } from "../model/index.js";
import { type RunCost, runTrials } from "../run/runner.js";
import { uniqueByKey } from "./arm.js";

export class TrialLedger {
  readonly records = new Map<string, TrialRecord>();
  /** Every unique request run, in the order they ran. */
  readonly requests: TrialRequest[] = [];
  readonly cost: RunCost = { usd: 0, agentCalls: 0, cacheHits: 0, inputTokens: 0, outputTokens: 0 };
  /** Run-level errors (the budget stopped the run …). */
  readonly runErrors: string[] = [];
  identity: string;

  constructor(
    private readonly settings: Settings,
    private readonly opts: { agentDir: string },
  ) {
    this.identity = settings.agent.adapter;
  }

  /** Runs the requests whose key has no record yet. Returns whether the budget stopped this batch. */
  async run(requests: TrialRequest[]): Promise<{ budgetExhausted?: string }> {
    const { settings } = this;
    const unique = uniqueByKey(requests).filter((r) => !this.records.has(r.key));
    if (unique.length === 0) return {};
    const outcome = await settings.logger.group(`trials (${unique.length})`, () =>
      runTrials(unique, {
        agent: settings.agent,
        repoDir: settings.repoDir,
        agentDir: this.opts.agentDir,
        concurrency: settings.concurrency,
        timeoutMs: settings.timeoutMs,
        cache: settings.cache,
        budget: this.remainingBudget(),
        logger: settings.logger,
        extraEnv: settings.config.env,
        seed: settings.seed,
      }),
    );
    this.identity = outcome.identity;
    for (const [i, rec] of outcome.records.entries()) this.records.set(unique[i]!.key, rec);
    if (settings.record) await writeRecordings(settings.record, unique, outcome.records);
    this.requests.push(...unique);
    for (const k of Object.keys(this.cost) as (keyof RunCost)[]) this.cost[k] += outcome.cost[k];
    if (outcome.budgetExhausted && !this.runErrors.includes(outcome.budgetExhausted))
      this.runErrors.push(outcome.budgetExhausted);
    return outcome.budgetExhausted ? { budgetExhausted: outcome.budgetExhausted } : {};
  }

  private remainingBudget() {
    const b = this.settings.budget;
    const spent = this.cost;
    return {
      maxUsd: b.maxUsd === undefined ? undefined : Math.max(0, b.maxUsd - spent.usd),
      maxTokens:
        b.maxTokens === undefined
          ? undefined
          : Math.max(0, b.maxTokens - spent.inputTokens - spent.outputTokens),
      maxAgentCalls:
        b.maxAgentCalls === undefined ? undefined : Math.max(0, b.maxAgentCalls - spent.agentCalls),
    };
  }
}
