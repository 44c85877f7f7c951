/**
 * `plan --noise`: the default branch's stored trials graded (no agent call: only answers the trial cache holds are
 * read) and each skill's noise floor reported (`verdict/noise.ts`). The arm read is the one a PR's verdict stands
 * on: the base of a compared skill, the head of a sweep (the default branch itself).
 */

import { type GradeOptions, gradeJob } from "../grade/job.js";
import type { Settings } from "../model/index.js";
import type { TrialLedger } from "../run/ledger.js";
import { type StoredNoise, skillNoise } from "../verdict/noise.js";
import type { JobTrials } from "./confirm.js";
import { type FirstBatch, shapeOf } from "./first-batch.js";

/** Skill-mode trials per case among `requests`: the fewest any case has. */
function fewestPerCase(requests: JobTrials["requests"]): number {
  const perCase = new Map<string, number>();
  for (const r of requests) if (r.mode === "skill") perCase.set(r.caseId, (perCase.get(r.caseId) ?? 0) + 1);
  return perCase.size ? Math.min(...perCase.values()) : 0;
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
    // The shape a PR of this skill runs: its first batch at head, against these stored trials as its base.
    const shape = shapeOf(settings, run.requests.slice(0, batch.planned.get(run)), storedPerCase);
    out[name] = {
      arm,
      storedPerCase,
      shape,
      ...(await skillNoise(checks, shape, settings.verdict, { seed: settings.seed })),
    };
  }
  return out;
}
