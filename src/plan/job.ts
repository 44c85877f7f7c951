/**
 * The plan of one skill on one arm (a `SkillJob`): its batteries, the trigger queries it routes (its own, case
 * prompts standing in, cross-skill negatives on a budget), and the trial requests of a batch. Pure: the run stage
 * runs the requests, the grade stage templates the prompts and grades the records.
 */
import { agentNameOf } from "../detect/copies.js";
import type { CatalogueEntry, IndexedTriggerQuery, Skill, TrialMode, TrialRequest } from "../model/index.js";
import { rankCompetitorPrompts, selectCasePrompts, selectCompetitorPrompts } from "./competitors.js";
import { type BatteryPlan, catalogueFor, planTrials } from "./plan.js";
import { casePromptQueries, crossSkillQueries, triggerCheckId, triggerQueries } from "./queries.js";

/** One side of the comparison: the head checkout or the base checkout. */
export interface Arm {
  name: "head" | "base";
  repoDir: string;
  /** Every skill of the checkout, suite or not: the catalogue a router chooses from in trigger trials. */
  skills: Skill[];
}

/** What one skill runs on one arm. */
export interface SkillJob {
  arm: Arm;
  skill: Skill;
  batteries: BatteryPlan;
  vars: Record<string, unknown>;
  /** Per case: what its own oracle computed (over the suite's and the case's `vars`). */
  caseVars: Map<string, Record<string, unknown>>;
  /** Per case: the prompt as the agent receives it, placeholders resolved; a case missing here is not run. */
  prompts: Map<string, string>;
  /** Trigger queries by check id: the skill's own (its trigger set, or its case prompts) and cross-skill negatives. */
  queries: Map<string, IndexedTriggerQuery>;
}

/** Budgets of a PR's trigger queries; undefined runs them all (a sweep: they are the skills' own). */
export interface QueryCaps {
  /** Other skills' should-fire prompts (cross-skill negatives), the likeliest to be stolen first. */
  competitors?: number;
  /** Case prompts run as should-fire queries of a skill with no should-fire prompts of its own. */
  casePrompts?: number;
}

export function makeJob(
  arm: Arm,
  skill: Skill,
  batteries: BatteryPlan,
  vars: Record<string, unknown>,
  /**
   * The head job of the same skill: base queries take the ids of the head queries with the same prompt, and a base
   * job runs the competitor and case prompts its head job chose.
   */
  headJob?: SkillJob,
  /**
   * A PR's budgets; undefined in a sweep, which runs every prompt of the skills' trigger sets and none of their
   * case prompts (a sweep checks suites; case prompts stand in for routing only where something changed).
   */
  caps?: QueryCaps,
): SkillJob {
  const queries = new Map<string, IndexedTriggerQuery>();
  if (batteries.trigger) {
    const headIds = new Map<string, string>();
    for (const [id, q] of headJob?.queries ?? []) headIds.set(queryIdentity(q), id);
    // The skills a trigger trial installs, by the names the agent knows (one copy of each: `catalogueFor`).
    const installs = catalogueFor(skill, arm.skills);
    const name = agentNameOf(skill);
    const entries = installs.map((s) => ({ name: agentNameOf(s), description: s.description }));
    const catalogue = installs.map((s) => ({
      name: agentNameOf(s),
      trigger: s.suite?.trigger,
      cases: caps ? s.suite?.cases : undefined,
    }));
    const cross = crossSkillQueries(name, catalogue);
    // A skill without a suite has no prompts of its own to be judged by: it is probed only where its description
    // shares a word with another skill's prompt (a new skill that would take that skill's work).
    const candidates = skill.suite ? cross : withOverlap(name, entries, cross);
    const competitors =
      caps?.competitors === undefined
        ? candidates
        : headJob
          ? candidates.filter((q) => headIds.has(queryIdentity(q)))
          : selectCompetitorPrompts(name, entries, candidates, caps.competitors);
    for (const q of [...ownQueries(name, entries, skill, headJob, caps), ...competitors]) {
      // Ids are positional; a prompt inserted or removed in the PR must not make head and base compare
      // different prompts. A base prompt the head no longer has gets an id of its own.
      const id = headJob ? (headIds.get(queryIdentity(q)) ?? `${triggerCheckId(q)}@base`) : triggerCheckId(q);
      queries.set(id, q);
    }
  }
  const prompts = new Map((skill.suite?.cases ?? []).map((c) => [c.id, c.prompt]));
  return { arm, skill, batteries, vars, caseVars: new Map(), prompts, queries };
}

/**
 * A skill's own trigger queries: its trigger set; without should-fire prompts in it, its case prompts as
 * should-fire queries (at most `casePrompts`, those the head's description is likeliest to lose), so a description
 * that stops catching its own tasks is seen without a trigger suite. A base job runs the case prompts its head job
 * chose.
 */
function ownQueries(
  /** The skill's name as the agent knows it, and the catalogue a trial installs (`catalogueFor`). */
  name: string,
  entries: readonly CatalogueEntry[],
  skill: Skill,
  headJob: SkillJob | undefined,
  caps: QueryCaps | undefined,
): IndexedTriggerQuery[] {
  const set = skill.suite?.trigger;
  const own = set ? triggerQueries(set) : [];
  if (set?.shouldFire.length || !caps) return own;
  const cases = headJob
    ? [...headJob.queries.values()].filter((q) => q.fromCase !== undefined && !q.fromSkill)
    : selectCasePrompts(name, entries, casePromptQueries(skill.suite?.cases ?? []), caps.casePrompts);
  return [...cases, ...own];
}

/** Cross-skill prompts sharing at least one word (the lexical proxy's terms) with `skill`'s description. */
function withOverlap(
  skill: string,
  catalogue: readonly CatalogueEntry[],
  candidates: readonly IndexedTriggerQuery[],
): IndexedTriggerQuery[] {
  return rankCompetitorPrompts(skill, catalogue, candidates)
    .filter((r) => r.score > 0)
    .map((r) => r.query);
}

function queryIdentity(q: IndexedTriggerQuery): string {
  return JSON.stringify([q.shouldFire, q.fromSkill ?? "", q.prompt]);
}

export interface PlanOptions {
  trials: number;
  triggerRuns: number;
  seed: number;
  firstTrial?: number;
  onlyCases?: Set<string>;
  onlyTriggers?: Set<string>;
  onlyModes?: Set<TrialMode>;
}

export function planJob(job: SkillJob, o: PlanOptions): TrialRequest[] {
  const queries = [...job.queries.entries()]
    .filter(([id]) => !o.onlyTriggers || o.onlyTriggers.has(id))
    .map(([checkId, q]) => ({ checkId, prompt: q.prompt }));
  return planTrials({
    repoDir: job.arm.repoDir,
    skill: job.skill,
    catalogue: job.arm.skills,
    batteries: job.batteries,
    trials: o.trials,
    triggerRuns: o.triggerRuns,
    seed: o.seed,
    firstTrial: o.firstTrial,
    onlyCases: o.onlyCases,
    onlyModes: o.onlyModes,
    triggerQueries: queries,
    prompts: job.prompts,
  });
}

/** Requests with the same key are one trial: run it once. */
export function uniqueByKey(requests: TrialRequest[]): TrialRequest[] {
  const seen = new Map<string, TrialRequest>();
  for (const r of requests) if (!seen.has(r.key)) seen.set(r.key, r);
  return [...seen.values()];
}
