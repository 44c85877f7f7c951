/**
 * Trigger battery: should-fire and should-not-fire prompts, k runs each, with the whole catalogue installed.
 * Run-level and query-level precision, recall, F1 and accuracy; suspicious figures flagged; cross-skill negatives
 * and a confusion table across skills.
 */
import type { CheckResult } from "../model/check.js";
import type { TriggerConfusion, TriggerQueryResult, TriggerSummary } from "../model/report.js";
import type { IndexedTriggerQuery, TriggerQuery } from "../model/suite.js";
import type { TrialRecord } from "../model/trial.js";
import { triggerCheckId } from "../plan/queries.js";
import { f1Score } from "./stats.js";
import { type FigureUnits, unitRate } from "./unit-rates.js";

/** Query-level decision: a query "fires" when at least this share of its runs fired (skill-creator's 0.5). */
const QUERY_FIRE_THRESHOLD = 0.5;
const NONE_LABEL = "(none)";

function where(q: TriggerQuery): string {
  return `${q.loc.file}:${q.loc.line}:${q.loc.column}`;
}

/**
 * One trigger run as a check. Passes when the skill fired exactly when it should. A run that errored (or where
 * the skill was never registered with the harness) is an error, not a miss.
 */
export function gradeTriggerTrial(
  query: IndexedTriggerQuery,
  record: TrialRecord,
  /** The run's name of the skill (the check's). */
  skill: string,
  /** The name the agent knows it by, which it reports activating (a copy's run name differs: `nameCopies`). */
  agentName: string = skill,
): CheckResult {
  const checkId = triggerCheckId(query);
  const activated = [...new Set(record.skillsActivated)];
  const fired = activated.includes(agentName);
  const expectedSkill = query.shouldFire ? agentName : (query.fromSkill ?? NONE_LABEL);
  const base = {
    checkId,
    skill,
    caseId: "trigger",
    assertionId: checkId.slice("trigger/".length),
    mode: "trigger" as const,
    trial: record.trial,
    discriminator: false,
    dependsOn: [],
    loc: query.loc,
    details: { shouldFire: query.shouldFire, fired, activated, expectedSkill, weight: query.weight },
  };
  const prompt = JSON.stringify(query.prompt.length > 80 ? `${query.prompt.slice(0, 80)}…` : query.prompt);
  if (record.error) {
    return {
      ...base,
      status: "error",
      message: `${where(query)}: trigger run ${record.trial} of ${prompt} errored (${record.error.kind}): ${record.error.message}`,
    };
  }
  if (record.skillsRegistered && !record.skillsRegistered.includes(agentName)) {
    return {
      ...base,
      status: "error",
      message: `${where(query)}: ${agentName} was not registered by the harness (registered: ${record.skillsRegistered.join(", ") || "none"}); the run measures nothing`,
    };
  }
  const pass = fired === query.shouldFire;
  const expected = `${agentName} ${query.shouldFire ? "fires" : "does not fire"}`;
  const actual = `activated: ${activated.length ? activated.join(", ") : "none"}`;
  return {
    ...base,
    status: pass ? "pass" : "fail",
    expected,
    actual,
    message: `${where(query)}: ${query.fromSkill ? `${query.fromSkill}'s prompt ` : ""}${prompt}: expected ${expected}; saw ${actual} (run ${record.trial})`,
  };
}

interface TriggerDetails {
  shouldFire: boolean;
  fired: boolean;
  activated: string[];
  expectedSkill: string;
  weight: number;
}

function detailsOf(c: CheckResult): TriggerDetails | undefined {
  const d = c.details as Partial<TriggerDetails> | undefined;
  return d && typeof d.fired === "boolean" && Array.isArray(d.activated) ? (d as TriggerDetails) : undefined;
}

export function summariseTrigger(
  checks: CheckResult[],
  queries: IndexedTriggerQuery[],
  opts: { router: string; proxy: boolean },
): TriggerSummary {
  const { results, errored, unmeasured } = queryResults(checks, queries);
  // Each query one vote: its rate from its own runs, whatever number of runs the confirmation gave it.
  const precisionUnits = triggerUnits(results, "triggerPrecision");
  const recallUnits = triggerUnits(results, "triggerRecall");
  // Precision with nothing fired is vacuous (1), which is exactly what the "never fires" flag below looks for.
  const precision = unitRate(precisionUnits, 1);
  const recall = unitRate(recallUnits);
  const accuracy = unitRate({
    kind: "mean",
    unit: "query",
    units: results.map((q) => ({
      id: q.checkId,
      passed: q.shouldFire ? q.fired : q.runs - q.fired,
      total: q.runs,
      weight: q.weight ?? 1,
    })),
  });
  return {
    router: opts.router,
    proxy: opts.proxy,
    precision,
    recall,
    f1: f1Score(precision.rate, recall.rate),
    accuracy,
    queries: results,
    warnings: triggerWarnings(results, errored, unmeasured, opts),
  };
}

/** Each query's runs (trigger checks of its id that did not error), how many fired, and whether it passed. */
function queryResults(
  checks: CheckResult[],
  queries: IndexedTriggerQuery[],
): { results: TriggerQueryResult[]; errored: number; unmeasured: number } {
  const byId = new Map<string, CheckResult[]>();
  for (const c of checks) {
    if (c.mode !== "trigger") continue;
    const list = byId.get(c.checkId) ?? [];
    list.push(c);
    byId.set(c.checkId, list);
  }
  let errored = 0;
  let unmeasured = 0;
  const results: TriggerQueryResult[] = [];
  for (const query of queries) {
    const id = triggerCheckId(query);
    const own = byId.get(id) ?? [];
    const ok = own.filter((c) => c.status !== "error" && detailsOf(c));
    errored += own.length - ok.length;
    const firedRuns = ok.filter((c) => detailsOf(c)!.fired).length;
    const runs = ok.length;
    const firedOthers: Record<string, number> = {};
    for (const c of ok) {
      for (const s of detailsOf(c)!.activated) if (s !== c.skill) firedOthers[s] = (firedOthers[s] ?? 0) + 1;
    }
    const r = runs > 0 ? firedRuns / runs : 0;
    if (runs === 0) unmeasured++;
    results.push({
      checkId: id,
      prompt: query.prompt,
      shouldFire: query.shouldFire,
      runs,
      fired: firedRuns,
      rate: r,
      ...(query.weight !== 1 ? { weight: query.weight } : {}),
      passed: runs > 0 && r >= QUERY_FIRE_THRESHOLD === query.shouldFire,
      firedOthers,
      file: query.loc.file,
      line: query.loc.line,
    });
  }
  return { results, errored, unmeasured };
}

/** What a reader should know before trusting the figures: a proxy router, a skill that never or always fires, runs left out. */
function triggerWarnings(
  results: TriggerQueryResult[],
  errored: number,
  unmeasured: number,
  opts: { router: string; proxy: boolean },
): string[] {
  const fire = results.filter((q) => q.shouldFire && q.runs > 0);
  const nofire = results.filter((q) => !q.shouldFire && q.runs > 0);
  const warnings: string[] = [];
  if (opts.proxy) {
    warnings.push(
      `figures from the ${opts.router} proxy router (BM25 over name + description), not from the agent`,
    );
  }
  const firedAny = (xs: TriggerQueryResult[]) => xs.some((q) => q.fired > 0);
  if (fire.length > 0 && !firedAny(fire) && !firedAny(nofire)) {
    warnings.push(
      "suspicious: recall 0 with precision 1 — the skill never fired on any prompt; check trigger detection and registration before trusting the description",
    );
  }
  if (fire.length + nofire.length > 0 && nofire.length > 0 && results.every((q) => q.fired === q.runs)) {
    warnings.push("suspicious: the skill fired on every prompt, including every should-not-fire prompt");
  }
  if (errored > 0)
    warnings.push(
      `${errored} trigger run${errored === 1 ? "" : "s"} errored and were left out of the figures`,
    );
  if (unmeasured > 0)
    warnings.push(`${unmeasured} quer${unmeasured === 1 ? "y has" : "ies have"} no completed run`);
  if (fire.length === 0) warnings.push("no should-fire runs: recall not measured");
  if (nofire.length === 0)
    warnings.push("no should-not-fire runs: precision rests on should-fire prompts only");
  return warnings;
}

/** The units behind a trigger summary's precision or recall: each query's own runs, weighted. */
export function triggerUnits(
  queries: readonly TriggerQueryResult[],
  figure: "triggerPrecision" | "triggerRecall",
): FigureUnits {
  const units = (shouldFire: boolean) =>
    queries
      .filter((q) => q.shouldFire === shouldFire)
      .map((q) => ({ id: q.checkId, passed: q.fired, total: q.runs, weight: q.weight ?? 1 }));
  return figure === "triggerRecall"
    ? { kind: "mean", unit: "query", units: units(true) }
    : { kind: "precision", fire: units(true), nofire: units(false) };
}

/** Confusion across skills from the trigger checks of every skill's battery. */
export function confusionTable(checks: CheckResult[]): TriggerConfusion {
  const counts: Record<string, Record<string, number>> = {};
  const notFor: Record<string, string[]> = {};
  const labels = new Set<string>();
  for (const c of checks) {
    if (c.mode !== "trigger" || c.status === "error") continue;
    const d = detailsOf(c);
    if (!d) continue;
    const fired = d.activated.length > 0 ? d.activated : [NONE_LABEL];
    if (d.expectedSkill === NONE_LABEL && c.skill) {
      const forbidden = notFor[NONE_LABEL] ?? [];
      notFor[NONE_LABEL] = forbidden;
      if (!forbidden.includes(c.skill)) forbidden.push(c.skill);
    }
    const row = counts[d.expectedSkill] ?? {};
    counts[d.expectedSkill] = row;
    labels.add(d.expectedSkill);
    for (const f of fired) {
      labels.add(f);
      row[f] = (row[f] ?? 0) + 1;
    }
  }
  const sorted = [...labels].filter((l) => l !== NONE_LABEL).sort();
  if (labels.has(NONE_LABEL)) sorted.push(NONE_LABEL);
  for (const l of Object.values(notFor)) l.sort();
  return { labels: sorted, counts, ...(Object.keys(notFor).length ? { notFor } : {}) };
}
