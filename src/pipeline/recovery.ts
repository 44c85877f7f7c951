/**
 * Error recovery (seeds/001, dimension 4): a probe case tagged `dimension: error-recovery` whose first attempt
 * fails is given back to the agent, with its own answer, the files it wrote (placed in the new workspace as it
 * left them) and the failing checks' messages, for up to three rounds; each round is graded with the case's
 * checks. Every adapter gets the conversation this way (the prior turn in the prompt, the prior state on disk):
 * the same for Claude Code, Codex and a command agent, cacheable by content like any trial. The rounds feed the
 * robustness report only; the verdict is decided on the first batch and its confirmations, as before.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { CheckResult, RecoveryTrial, TrialRecord, TrialRequest } from "../model/index.js";
import type { SkillJob } from "../plan/job.js";
import { sha256Hex, trialKey } from "../plan/keys.js";

const RECOVERY_ROUNDS = 3;
/** Longest answer quoted back to the agent. */
const MAX_QUOTED_OUTPUT = 4000;

const graded = (cs: CheckResult[]) => cs.filter((c) => c.status !== "skipped");
const passes = (cs: CheckResult[]) => graded(cs).every((c) => c.status === "pass");

/** The follow-up prompt of a round: the task again, the agent's answer, what failed. */
function recoveryPrompt(task: string, output: string, failed: CheckResult[], round: number): string {
  const quoted = output.length > MAX_QUOTED_OUTPUT ? `${output.slice(0, MAX_QUOTED_OUTPUT)}…` : output;
  return [
    task,
    "",
    `Your previous attempt at this task did not pass its checks (fix round ${round} of ${RECOVERY_ROUNDS}). Your answer was:`,
    "<<<",
    quoted,
    ">>>",
    "The files you wrote are in the workspace as you left them. What failed:",
    ...failed.map((c) => `- ${c.assertionId}: ${c.message}`),
    "Find the cause, fix it, and answer the task again.",
  ].join("\n");
}

interface Pending {
  job: SkillJob;
  original: TrialRequest;
  record: TrialRecord;
  checks: CheckResult[];
  firstPassing: Set<string>;
  out: RecoveryTrial;
}

export interface RecoveryPorts {
  records: Map<string, TrialRecord>;
  run(requests: TrialRequest[]): Promise<{ budgetExhausted?: string }>;
  grade(job: SkillJob, requests: TrialRequest[]): Promise<CheckResult[]>;
}

/** The first attempts to recover from: error-recovery probes' skill-mode trials that failed, per head job. */
function firstFailures(
  runs: { job: SkillJob; requests: TrialRequest[]; checks: CheckResult[] }[],
  records: Map<string, TrialRecord>,
): Pending[] {
  const out: Pending[] = [];
  for (const r of runs) {
    const probes = new Set(
      (r.job.skill.suite?.cases ?? [])
        .filter((c) => c.probe?.dimension === "error-recovery")
        .map((c) => c.id),
    );
    for (const q of r.requests) {
      if (q.mode !== "skill" || !probes.has(q.caseId)) continue;
      const checks = r.checks.filter(
        (c) => c.mode === "skill" && c.caseId === q.caseId && c.trial === q.trial,
      );
      const record = records.get(q.key);
      if (!record || passes(checks)) continue;
      out.push({
        job: r.job,
        original: q,
        record,
        checks,
        firstPassing: new Set(checks.filter((c) => c.status === "pass").map((c) => c.checkId)),
        out: { skill: q.skill, caseId: q.caseId, trial: q.trial, rounds: [] },
      });
    }
  }
  return out;
}

/** One round's request: the agent's written files over the case's, the follow-up prompt, a key of its own. */
async function followUp(p: Pending, round: number, folder: string): Promise<TrialRequest> {
  const written = Object.entries(p.record.files);
  for (const [rel, content] of written) {
    await mkdir(dirname(join(folder, rel)), { recursive: true });
    await writeFile(join(folder, rel), content);
  }
  const kept = p.original.files.filter((f) => !written.some(([rel]) => rel === f.to));
  const files = [...kept, ...written.map(([rel]) => ({ to: rel, from: join(folder, rel) }))];
  const hashed = await Promise.all(
    files.map(async (f) => ({ to: f.to, sha256: sha256Hex(await readFile(f.from)) })),
  );
  const prompt = recoveryPrompt(
    p.original.prompt,
    p.record.output,
    graded(p.checks).filter((c) => c.status !== "pass"),
    round,
  );
  const key = trialKey({
    mode: "skill",
    skillContentHash: p.job.skill.folder.contentHash,
    prompt,
    files: hashed,
    trial: p.original.trial,
  });
  return {
    ...p.original,
    key,
    prompt,
    files,
    seed: (Number.parseInt(key.slice(0, 8), 16) ^ p.original.seed) >>> 0,
  };
}

/** Runs the rounds for the head jobs' failing error-recovery probes; per job, the probes' rounds. */
export async function recoverProbes(
  runs: { job: SkillJob; requests: TrialRequest[]; checks: CheckResult[] }[],
  ports: RecoveryPorts,
): Promise<Map<SkillJob, RecoveryTrial[]>> {
  let pending = firstFailures(runs, ports.records);
  const all = [...pending];
  const folder = pending.length ? await mkdtemp(join(tmpdir(), "skillgate-recovery-")) : undefined;
  try {
    for (let round = 1; round <= RECOVERY_ROUNDS && pending.length; round++) {
      const requests = await Promise.all(
        pending.map((p, i) => followUp(p, round, join(folder!, `${round}-${i}`))),
      );
      const ran = await ports.run(requests);
      const next: Pending[] = [];
      for (const [i, p] of pending.entries()) {
        const req = requests[i]!;
        const record = ports.records.get(req.key);
        if (ran.budgetExhausted || !record) {
          p.out.rounds.push({
            round,
            passed: false,
            key: req.key,
            regressions: 0,
            error: ran.budgetExhausted ?? "no record",
          });
          continue;
        }
        const checks = await ports.grade(p.job, [req]);
        const passed = passes(checks);
        const regressions = checks.filter(
          (c) => c.status !== "pass" && c.status !== "skipped" && p.firstPassing.has(c.checkId),
        ).length;
        p.out.rounds.push({ round, passed, key: req.key, regressions });
        if (passed) p.out.fixedAt = round;
        else next.push({ ...p, record, checks });
      }
      pending = next;
    }
  } finally {
    if (folder) await rm(folder, { recursive: true, force: true });
  }
  const out = new Map<SkillJob, RecoveryTrial[]>();
  for (const p of all) out.set(p.job, [...(out.get(p.job) ?? []), p.out]);
  return out;
}
