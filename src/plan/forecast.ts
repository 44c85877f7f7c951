/**
 * A forecast before spending: per skill and battery, the trials the first batch will run, the cache hits it
 * expects and what the rest will cost, estimated from the usage this adapter recorded in earlier runs. Pure over
 * its inputs; the pipeline gathers them (which keys the cache holds, the recorded usage) at its edge.
 */
import type { Budget, Forecast, ForecastLine, TrialMode, TrialRequest } from "../model/index.js";

/** Mean usage per live trial of one mode, as recorded for one adapter identity. */
export interface ModeUsage {
  trials: number;
  usd: number;
  inputTokens: number;
  outputTokens: number;
}

export type RecordedUsage = Partial<Record<TrialMode, ModeUsage>>;

/** One planned request with the skill and battery it belongs to (the first to plan a shared key owns it). */
export interface PlannedRequest {
  skill: string;
  battery: ForecastLine["battery"];
  arm: "head" | "base";
  request: TrialRequest;
}

export interface ForecastInput {
  planned: PlannedRequest[];
  /** Trial keys the cache already answers for this identity. */
  cached: ReadonlySet<string>;
  /** Whether trials are live agent calls (a replay costs nothing). */
  live: boolean;
  identity: string;
  usage: RecordedUsage;
  budget: Budget;
  /** Where the budget came from, for the message (e.g. "the base's .skillgate.yml", "the default"). */
  budgetSource: string;
  /** Confirmation head trials a suspect may add (policy `verdict.maxConfirmationTrials`). */
  maxConfirmationTrials: number;
  /** Base trials a confirmation look adds per head trial (the verdict's design). */
  baseTrialsPerHeadTrial: number;
}

const BATTERY_OF: Record<TrialMode, ForecastLine["battery"]> = {
  skill: "discriminator",
  baseline: "discriminator",
  trigger: "trigger",
};

export function batteryOf(mode: TrialMode): ForecastLine["battery"] {
  return BATTERY_OF[mode];
}

/** USD per live trial of `mode`: its recorded mean, else the mean over every recorded mode, else undefined. */
function usdPerTrial(usage: RecordedUsage, mode: TrialMode): number | undefined {
  const own = usage[mode];
  if (own && own.trials > 0) return own.usd / own.trials;
  let trials = 0;
  let usd = 0;
  for (const u of Object.values(usage)) {
    trials += u?.trials ?? 0;
    usd += u?.usd ?? 0;
  }
  return trials > 0 ? usd / trials : undefined;
}

export function buildForecast(input: ForecastInput): Forecast {
  const lines = new Map<string, ForecastLine>();
  const seen = new Set<string>();
  let unpriced = 0;
  for (const p of input.planned) {
    if (seen.has(p.request.key)) continue;
    seen.add(p.request.key);
    const id = `${p.skill}\0${p.battery}`;
    let line = lines.get(id);
    if (!line) {
      line = { skill: p.skill, battery: p.battery, trials: 0, cacheHits: 0, agentCalls: 0, usd: 0 };
      lines.set(id, line);
    }
    line.trials++;
    if (input.cached.has(p.request.key)) line.cacheHits++;
    else if (input.live) {
      line.agentCalls++;
      const price = usdPerTrial(input.usage, p.request.mode);
      if (price === undefined) unpriced++;
      else line.usd = (line.usd ?? 0) + price;
    }
  }
  const sorted = [...lines.values()].sort(
    (a, b) => a.skill.localeCompare(b.skill) || a.battery.localeCompare(b.battery),
  );
  const priced = unpriced === 0;
  if (!priced) for (const l of sorted) delete l.usd;
  const total = {
    trials: sorted.reduce((s, l) => s + l.trials, 0),
    cacheHits: sorted.reduce((s, l) => s + l.cacheHits, 0),
    agentCalls: sorted.reduce((s, l) => s + l.agentCalls, 0),
    ...(priced ? { usd: sorted.reduce((s, l) => s + (l.usd ?? 0), 0) } : {}),
  };
  const recorded = Object.values(input.usage).reduce((s, u) => s + (u?.trials ?? 0), 0);
  const costBasis = !input.live
    ? "recorded answers (replay): no agent calls"
    : recorded > 0
      ? `mean usage of ${recorded} trial(s) ${input.identity} ran before`
      : `no usage recorded for ${input.identity} yet: USD not estimated`;
  const overBudget = budgetExceeded(total, input.budget, input.budgetSource);
  return {
    identity: input.identity,
    lines: sorted,
    total,
    costBasis,
    confirmation: {
      maxTrialsPerArmPerSuspect: input.maxConfirmationTrials,
      baseTrialsPerHeadTrial: input.baseTrialsPerHeadTrial,
    },
    budget: { ...input.budget, source: input.budgetSource },
    ...(overBudget ? { overBudget } : {}),
  };
}

/** Why the first batch alone would exceed the budget (naming the setting), or undefined. */
function budgetExceeded(total: Forecast["total"], budget: Budget, source: string): string | undefined {
  if (budget.maxAgentCalls !== undefined && total.agentCalls > budget.maxAgentCalls)
    return `the first trials need ${total.agentCalls} agent calls, more than budget.maxAgentCalls ${budget.maxAgentCalls} (${source}); raise budget.maxAgentCalls in the base branch's .skillgate.yml, or narrow the run (--skills, competitors.maxPrompts, trials)`;
  if (budget.maxUsd !== undefined && total.usd !== undefined && total.usd > budget.maxUsd)
    return `the first trials are estimated at $${total.usd.toFixed(2)}, more than budget.maxUsd $${budget.maxUsd} (${source}); raise budget.maxUsd in the base branch's .skillgate.yml, or narrow the run (--skills, competitors.maxPrompts, trials)`;
  return undefined;
}

/** The forecast as terminal lines: one per skill and battery, then the total. */
export function renderForecast(f: Forecast): string[] {
  const usd = (x: number | undefined) => (x === undefined ? "$?" : `$${x.toFixed(2)}`);
  const out = [
    `forecast (${f.costBasis}): ${f.total.trials} trial(s), ${f.total.cacheHits} expected cache hit(s), ${f.total.agentCalls} agent call(s), ${usd(f.total.usd)}; ${confirmationText(f)}`,
  ];
  for (const l of f.lines)
    out.push(
      `  ${l.skill} ${l.battery}: ${l.trials} trial(s), ${l.cacheHits} cached, ${l.agentCalls} call(s), ${usd(l.usd)}`,
    );
  const b = f.budget;
  out.push(
    `  budget (${b.source}): ${b.maxAgentCalls ?? "unlimited"} agent calls, ${b.maxUsd === undefined ? "unlimited USD" : `$${b.maxUsd}`}`,
  );
  if (f.overBudget) out.push(`  over budget: ${f.overBudget}`);
  return out;
}

/** What confirmation may add, in one clause (terminal and check summary). */
function confirmationText(f: Forecast): string {
  const n = f.confirmation.maxTrialsPerArmPerSuspect;
  const r = f.confirmation.baseTrialsPerHeadTrial ?? 1;
  return `confirmation adds up to ${n} head trial(s) and ${Math.ceil(n * r)} base trial(s) for each suspect`;
}
