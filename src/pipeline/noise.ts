/**
 * `plan --noise`: the default branch's stored trials graded (no agent call: only answers the trial cache holds are
 * read) and each skill's noise floor reported (`verdict/noise.ts`). The arm read is the one a PR's verdict stands
 * on: the base of a compared skill, the head of a sweep (the default branch itself).
 */
import type { Settings } from "../model/index.js";
import { type StoredNoise, skillNoise } from "../verdict/noise.js";
import type { PowerShape } from "../verdict/power.js";
import { type GradeOptions, gradeJob } from "./arm.js";
import type { JobTrials } from "./confirm.js";
import type { FirstBatch } from "./first-batch.js";
import type { TrialLedger } from "./ledger.js";

/** Skill-mode trials per case among `requests`: the fewest any case has. */
function fewestPerCase(requests: JobTrials["requests"]): number {
  const perCase = new Map<string, number>();
  for (const r of requests) if (r.mode === "skill") perCase.set(r.caseId, (perCase.get(r.caseId) ?? 0) + 1);
  return perCase.size ? Math.min(...perCase.values()) : 0;
}

/** The shape a PR of this skill runs: its first batch at head, against the stored trials as its base. */
function prShape(settings: Settings, run: JobTrials, planned: number, stored: number): PowerShape {
  const first = run.requests.slice(0, planned);
  const skill = first.filter((q) => q.mode === "skill");
  const cases = new Set(skill.map((q) => q.caseId)).size;
  return {
    cases,
    queries: new Set(first.filter((q) => q.mode === "trigger").map((q) => q.caseId)).size,
    trialsPerCase: cases ? Math.round(skill.length / cases) : 0,
    triggerRuns: settings.triggerRuns,
    storedBase: stored,
  };
}

/** Each skill's noise from its stored trials; a skill with nothing stored is reported with no units. */
export async function storedNoise(
  settings: Settings,
  batch: FirstBatch,
  ledger: TrialLedger,
  grading: GradeOptions,
): Promise<Record<string, StoredNoise>> {
  const compared = new Set(batch.runs.filter((r) => r.job.arm.name === "base").map((r) => r.job.skill.name));
  const out: Record<string, StoredNoise> = {};
  for (const run of batch.runs) {
    const name = run.job.skill.name;
    const arm = compared.has(name) ? "base" : "head";
    if (run.job.arm.name !== arm) continue;
    const stored = await ledger.storedKeys(run.requests);
    const requests = run.requests.filter((r) => stored.has(r.key));
    // Every request here has a stored answer: this round makes no agent call.
    await ledger.run(requests, "stored trials");
    const checks = await gradeJob(run.job, requests, ledger.records, grading);
    const storedPerCase = fewestPerCase(requests);
    const shape = prShape(settings, run, batch.planned.get(run) ?? run.requests.length, storedPerCase);
    out[name] = {
      arm,
      storedPerCase,
      shape,
      ...(await skillNoise(checks, shape, settings.verdict, { seed: settings.seed })),
    };
  }
  return out;
}
