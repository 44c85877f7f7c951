import { InputError } from "../model/diagnostics.js";
import { MAX_SHARDS, validateShard } from "../settings/shard-spec.js";

/**
 * The items shard `index` of `total` runs (index 1-based). Deterministic whatever the input order, and balanced
 * by expected cost: longest-processing-time-first greedy (items by cost descending, ties by name; each goes to
 * the least loaded shard, ties to the lowest index), which keeps the largest shard within 4/3 of the optimum.
 * Every item lands in exactly one shard. Returned in name order.
 */
export function assignShard<T extends { name: string; expectedCost: number }>(
  items: T[],
  index: number,
  total: number,
): T[] {
  validateShard(index, total, "shard");
  for (const item of items) {
    if (!Number.isFinite(item.expectedCost) || item.expectedCost < 0)
      throw new InputError(
        `shard: expected cost of ${item.name} must be a finite number ≥ 0, got ${item.expectedCost}`,
      );
  }
  const order = [...items].sort((a, b) => b.expectedCost - a.expectedCost || compareNames(a.name, b.name));
  const load = new Array<number>(total).fill(0);
  const mine: T[] = [];
  for (const item of order) {
    let target = 0;
    for (let s = 1; s < total; s++) if (load[s]! < load[target]!) target = s;
    load[target]! += item.expectedCost;
    if (target === index - 1) mine.push(item);
  }
  return mine.sort((a, b) => compareNames(a.name, b.name));
}

/** Code-unit order, not locale order: the same on every runner. */
function compareNames(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Rounds of agent calls one shard's first batch may take (each about one agent latency) before `skillgate plan`
 * spreads a run over more shards; confirmation rounds come on top (at most three).
 */
const FIRST_BATCH_ROUNDS_PER_SHARD = 4;

/**
 * How many shards a run needs so that each shard's first batch takes about `rounds` rounds of agent calls at
 * `concurrency`: the forecast's agent calls over what one shard does in that time, at least 1, at most one shard
 * per skill with calls to make (a skill's trials stay in one shard: its confirmation rounds need its first batch).
 */
export function shardCount(
  forecast: { lines: { skill: string; agentCalls: number }[] },
  opts: { concurrency: number; rounds?: number },
): number {
  const rounds = opts.rounds ?? FIRST_BATCH_ROUNDS_PER_SHARD;
  const perSkill = new Map<string, number>();
  for (const l of forecast.lines) perSkill.set(l.skill, (perSkill.get(l.skill) ?? 0) + l.agentCalls);
  const calls = [...perSkill.values()].reduce((a, b) => a + b, 0);
  const skills = [...perSkill.values()].filter((c) => c > 0).length;
  const wanted = Math.ceil(calls / (Math.max(1, opts.concurrency) * Math.max(1, rounds)));
  return Math.max(1, Math.min(wanted, skills, MAX_SHARDS));
}

/** The job matrix of `n` shards, as a workflow's `strategy.matrix` reads it from JSON: `{"shard": ["1/n", …]}`. */
export function shardMatrix(n: number): { shard: string[] } {
  return { shard: Array.from({ length: n }, (_, i) => `${i + 1}/${n}`) };
}
