/** Cost per skill and per mode, from trial records: what this run spent (cached and replayed answers cost nothing). */
import type { SkillCost, TrialRecord } from "../model/index.js";

export function costBySkill(records: readonly TrialRecord[]): Map<string, SkillCost> {
  const bySkill = new Map<string, SkillCost>();
  for (const r of records) {
    let c = bySkill.get(r.skill);
    if (!c) {
      c = { usd: 0, agentCalls: 0, cacheHits: 0, byMode: {} };
      bySkill.set(r.skill, c);
    }
    const spent = r.cached ? 0 : r.usage.costUsd;
    c.usd += spent;
    if (r.cached) c.cacheHits++;
    else c.agentCalls += r.attempts ?? (r.error?.kind === "budget" ? 0 : 1);
    const m = c.byMode[r.mode] ?? { usd: 0, trials: 0 };
    c.byMode[r.mode] = m;
    m.usd += spent;
    m.trials++;
  }
  return bySkill;
}
