/**
 * The grade stage's work on a job (`SkillJob`, src/plan/job.ts): its prompts filled from the oracle's values before
 * the trials run, and its trials' records graded after.
 */
import { agentNameOf } from "../detect/copies.js";
import { promptTemplate } from "../detect/foreign-vars.js";
import type { Case, CheckResult, TrialRecord, TrialRequest } from "../model/index.js";
import type { SkillJob } from "../plan/job.js";
import { mapLimited } from "../util/slots.js";
import { gradeTrial } from "./grade-trial.js";
import type { Judge } from "./judge.js";
import { gradeTriggerTrial } from "./trigger.js";
import { PlaceholderError, resolvePlaceholders } from "./vars.js";

/** Every variable a case's placeholders read, by precedence: suite vars and oracle, case vars, case oracle. */
function varsOfCase(job: SkillJob, c: Case): Record<string, unknown> {
  return { ...job.vars, ...c.vars, ...(job.caseVars.get(c.id) ?? {}) };
}

/**
 * Sets a job's per-case oracle values and resolves its prompts: the agent receives `$placeholders` filled, never
 * the literal. A prompt that cannot resolve is an error of its case (returned, located), and the case does not run.
 */
export function templateJob(job: SkillJob, caseVars: Map<string, Record<string, unknown>>): string[] {
  job.caseVars = caseVars;
  job.prompts = new Map();
  const errors: string[] = [];
  for (const c of job.skill.suite?.cases ?? []) {
    try {
      const prompt = resolvePlaceholders(promptTemplate(c, job.skill.suite?.meta), varsOfCase(job, c));
      job.prompts.set(c.id, typeof prompt === "string" ? prompt : JSON.stringify(prompt));
    } catch (e) {
      if (!(e instanceof PlaceholderError)) throw e;
      const at = c.promptLoc ?? c.loc;
      errors.push(`${at.file}:${at.line}:${at.column}: case ${c.id} not run: its prompt has ${e.message}`);
    }
  }
  // A case prompt run as a should-fire query is routed as the agent would receive it, or not at all.
  for (const [id, q] of job.queries) {
    if (q.fromCase === undefined || q.fromSkill) continue;
    const prompt = job.prompts.get(q.fromCase);
    if (prompt === undefined) job.queries.delete(id);
    else job.queries.set(id, { ...q, prompt });
  }
  return errors;
}

/** How checks are graded: the judge for natural-language checks (none: they are not graded), the gates' seed. */
export interface GradeOptions {
  judge?: Judge;
  gateSeed: number;
}

/**
 * Trials of one job graded at once. Grading waits mostly on sandboxed children (gates, javascript predicates,
 * oracles: the sandbox runs one per core and queues the rest) and on judge calls, so trials overlap; the
 * assertions of one trial stay in order (`depends_on`).
 */
export const GRADE_CONCURRENCY = 8;

/** Grades the records of one job's requests. Records are shared by key, so each is seen as its request. */
export async function gradeJob(
  job: SkillJob,
  requests: TrialRequest[],
  records: Map<string, TrialRecord>,
  opts: GradeOptions,
): Promise<CheckResult[]> {
  const suite = job.skill.suite;
  const cases = new Map((suite?.cases ?? []).map((c) => [c.id, c]));
  const perRequest = await mapLimited(requests, GRADE_CONCURRENCY, async (req): Promise<CheckResult[]> => {
    const shared = records.get(req.key);
    if (!shared) return [];
    const record: TrialRecord = {
      ...shared,
      skill: req.skill,
      caseId: req.caseId,
      mode: req.mode,
      trial: req.trial,
    };
    if (req.mode === "trigger") {
      const q = job.queries.get(req.caseId);
      // The job's id (head-aligned for the base arm) wins over the positional one.
      return q
        ? [{ ...gradeTriggerTrial(q, record, job.skill.name, agentNameOf(job.skill)), checkId: req.caseId }]
        : [];
    }
    const caseDef = cases.get(req.caseId);
    if (!caseDef || !suite) return [];
    return gradeTrial({
      suite,
      caseDef,
      trial: record,
      vars: job.vars,
      caseVars: job.caseVars.get(caseDef.id),
      repoDir: job.arm.repoDir,
      judge: opts.judge,
      gateSeed: opts.gateSeed,
    });
  });
  // In request order, as the sequential loop gave them: reports and verdicts do not depend on timing.
  return perRequest.flat();
}
