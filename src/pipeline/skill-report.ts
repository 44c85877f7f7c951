/**
 * One skill's part of the report, from its outcome (checks of both arms, records) and what the verdict stage
 * decided for it (src/verdict/skill.ts): each part by a pure builder (transcripts, gates, robustness, evidence,
 * cost), composed by `buildSkill` in the report's key order.
 */
import { agentNameOf } from "../detect/copies.js";
import { levelsOf } from "../grade/levels.js";
import { summariseRobustness } from "../grade/robustness.js";
import {
  type CheckResult,
  type GateSummary,
  type Skill,
  type SkillReport,
  transcriptId,
} from "../model/index.js";
import { buildTranscripts, checksByTrial, type RanTrial } from "../report/transcripts.js";
import { costBySkill } from "../run/cost.js";
import type { SkillVerdict } from "../verdict/decide.js";
import { toEvidence } from "../verdict/recompute.js";
import type { SkillDecision, SkillOutcomeInput } from "../verdict/skill.js";

type Ran = SkillOutcomeInput["headRecords"];

/** One detail budget for the transcripts of the whole report, spent on the most telling trials first. */
interface SkillReportContext {
  transcriptBudget: { chars: number };
}

export function buildSkill(
  o: SkillOutcomeInput,
  decision: SkillDecision,
  c: SkillReportContext,
): SkillReport {
  const { info } = o;
  const skill = info.head ?? info.base!;
  const { batteries, failures, verdict: decided } = decision;
  const transcripts = buildTranscripts(
    [
      ...ranTrials("head", o.headRecords, o.headChecks),
      ...ranTrials("base", o.baseRecords ?? [], o.baseChecks ?? []),
    ],
    decided.roots,
    c.transcriptBudget,
  );
  const levels = info.batteries.discriminator ? levelsOf(o.headChecks) : [];
  const robustness = o.headChecks.length ? skillRobustness(o, skill) : undefined;
  const evidence = skillEvidence(o);
  return {
    name: skill.name,
    path: skill.path,
    change: info.change,
    ...(skill.version ? { version: skill.version } : {}),
    ...(batteries.discriminator ? { discriminator: batteries.discriminator } : {}),
    ...(batteries.trigger ? { trigger: batteries.trigger } : {}),
    ...(robustness ? { robustness } : {}),
    ...(batteries.base ? { base: batteries.base } : {}),
    ...(o.trials ? { trials: o.trials } : {}),
    ...(evidence ? { evidence } : {}),
    gates: gateSummaries(o.headChecks),
    ...(transcripts.length ? { transcripts } : {}),
    ...(levels.length ? { levels } : {}),
    roots: decided.roots,
    blockingRoots: decided.blockingRoots,
    newRoots: decided.newRoots,
    // Cascades counted: a check skipped because its dependency failed is a failed check of its root.
    failedChecks: decision.attribution.failedChecks,
    errors: failures.errors,
    verdict: decided.verdict,
    reasons: skillReasons(o, decided),
    cost: skillCost(o, skill),
  };
}

/** The skill's cost: its head trials, each counted as the request that asked for it. */
function skillCost(o: SkillOutcomeInput, skill: Skill): SkillReport["cost"] {
  // Records are shared by key across skills: count each as the request that asked for it.
  const asAsked = o.headRecords
    .filter(({ record }) => record)
    .map(({ request, record }) => ({ ...record, skill: request.skill, mode: request.mode }));
  // Requests name the skill as the agent knows it (a copy's run name differs).
  return costBySkill(asAsked).get(agentNameOf(skill)) ?? { usd: 0, agentCalls: 0, cacheHits: 0, byMode: {} };
}

/** The gates' results on the head's skill trials. */
function gateSummaries(headChecks: CheckResult[]): GateSummary[] {
  return headChecks
    .filter((c) => c.mode === "skill" && c.details && (c.details as { gate?: unknown }).gate)
    .map((c) => {
      const g = c.details as {
        gate: {
          gate: string;
          passed: boolean;
          seed: number;
          checks: GateSummary["checks"];
          metrics: Record<string, unknown>;
        };
        module?: string;
      };
      return {
        gate: g.gate.gate,
        caseId: c.caseId,
        assertionId: c.assertionId,
        module: String(g.module ?? ""),
        passed: g.gate.passed,
        seed: g.gate.seed,
        checks: g.gate.checks,
        metrics: g.gate.metrics,
      };
    });
}

/** What the batteries and gates measured, on the robustness taxonomy. */
function skillRobustness(o: SkillOutcomeInput, skill: Skill): SkillReport["robustness"] {
  return summariseRobustness({
    checks: o.headChecks,
    cases: skill.suite?.cases ?? [],
    meta: skill.suite?.meta.robustness,
    ...(o.recovery ? { recovery: o.recovery } : {}),
    outputOf: (caseId, trial) =>
      o.headRecords.find(
        (r) => r.request.mode === "skill" && r.request.caseId === caseId && r.request.trial === trial,
      )?.record.output,
  });
}

/** Per-trial check outcomes of both arms: what `mode: report` recomputes the decision from. */
function skillEvidence(o: SkillOutcomeInput): SkillReport["evidence"] {
  if (!o.trials || !o.headChecks.length) return undefined;
  return {
    firstBatch: { ...o.trials, ...o.deeper },
    head: toEvidence(o.headChecks),
    ...(o.baseChecks ? { base: toEvidence(o.baseChecks) } : {}),
  };
}

/** The verdict's reasons, then a note for a skill without a suite, then why the skill was evaluated. */
function skillReasons(o: SkillOutcomeInput, decided: SkillVerdict): string[] {
  const reasons = [...decided.reasons];
  if (!o.info.head?.suite && o.info.head)
    reasons.push("no eval suite: only validated (add one with `skillgate init`)");
  reasons.push(o.info.reason);
  return reasons;
}

/** Each trial of one arm with the checks graded on it. */
function ranTrials(arm: RanTrial["arm"], ran: Ran, checks: CheckResult[]): RanTrial[] {
  const byTrial = checksByTrial(arm, checks);
  return ran.map(({ request, record }) => ({
    arm,
    request,
    record,
    checks: byTrial.get(transcriptId(arm, request.mode, request.caseId, request.trial)) ?? [],
  }));
}
