import type { Attribution } from "../attribute/roots.js";
import { compressionStats } from "../attribute/roots.js";
import type { SkillChangeInfo } from "../detect/changes.js";
import { summariseDiscriminator } from "../grade/discriminator.js";
import { checkLockstep } from "../grade/lockstep.js";
import { summariseRobustness } from "../grade/robustness.js";
import { confusionTable, summariseTrigger, triggerQueries } from "../grade/trigger.js";
import type {
  CheckResult,
  Diagnostic,
  GateSummary,
  Report,
  Root,
  Settings,
  SkillReport,
  Suite,
  Thresholds,
  ToolCall,
  TrialRecord,
  TrialRequest,
} from "../model/index.js";
import { costBySkill } from "../run/cost.js";
import { combineVerdicts, decideSkillVerdict } from "../verdict/decide.js";
import type { RootDecision } from "../verdict/new-roots.js";
import { diffSuites } from "../verdict/weakening.js";
import { VERSION } from "../version.js";

export interface SkillOutcomeInput {
  info: SkillChangeInfo;
  headChecks: CheckResult[];
  baseChecks?: CheckResult[];
  decisions: RootDecision[];
  errors: string[];
  validation: Diagnostic[];
  headRecords: { request: TrialRequest; record: TrialRecord }[];
  baseSuite?: Suite;
}

export interface ReportInput {
  settings: Settings;
  startedAt: string;
  durationMs: number;
  identity: string;
  head: { ref?: string; sha?: string };
  base?: { ref?: string; sha?: string; dir?: string };
  outcomes: SkillOutcomeInput[];
  diagnostics: Diagnostic[];
  cost: Report["cost"];
  runErrors: string[];
  attribution: Attribution;
  records: TrialRecord[];
}

const PROXY_ROUTERS = new Set(["lexical"]);

export function buildReport(input: ReportInput): Report {
  const { settings } = input;
  const skills = input.outcomes.map((o) => buildSkill(o, input));
  const allRoots = skills.flatMap((s) => s.newRoots);
  const verdict = combineVerdicts(
    skills.map((s) => s.verdict),
    input.runErrors,
  );
  const c = compressionStats(input.attribution);
  const triggerChecks = input.outcomes.flatMap((o) => o.headChecks.filter((x) => x.mode === "trigger"));
  return {
    schemaVersion: 1,
    tool: { name: "skillgate", version: VERSION },
    verdict,
    seed: settings.seed,
    startedAt: input.startedAt,
    durationMs: input.durationMs,
    repo: settings.repoDir,
    head: input.head,
    ...(input.base ? { base: input.base } : {}),
    agent: { adapter: settings.agent.adapter, identity: input.identity },
    trials: settings.trials,
    ...(settings.shard ? { shard: settings.shard } : {}),
    skills,
    newRoots: sortRoots(allRoots),
    diagnostics: input.diagnostics,
    stats: {
      failedChecks: c.failedChecks,
      roots: c.roots,
      meanFailedChecksPerTrial: c.meanFailedChecksPerTrial,
      meanRootsPerTrial: c.meanRootsPerTrial,
    },
    cost: input.cost,
    errors: input.runErrors,
    ...(triggerChecks.length ? { triggerConfusion: confusionTable(triggerChecks) } : {}),
  };
}

function buildSkill(o: SkillOutcomeInput, input: ReportInput): SkillReport {
  const { info } = o;
  const skill = info.head ?? info.base!;
  const suite = info.head?.suite;
  const router = input.settings.agent.adapter;
  const proxy = PROXY_ROUTERS.has(router);
  const disc = (checks: CheckResult[] | undefined) => {
    const xs = (checks ?? []).filter((c) => c.mode === "skill" || c.mode === "baseline");
    return info.batteries.discriminator && xs.length ? summariseDiscriminator(xs) : undefined;
  };
  const trig = (checks: CheckResult[] | undefined, s: Suite | undefined) => {
    const xs = (checks ?? []).filter((c) => c.mode === "trigger");
    if (!info.batteries.trigger || !xs.length || !s?.trigger) return undefined;
    return summariseTrigger(xs, triggerQueries(s.trigger), { router, proxy });
  };
  const discriminator = disc(o.headChecks);
  const trigger = trig(o.headChecks, suite);
  const baseDiscriminator = disc(o.baseChecks);
  const baseTrigger = trig(o.baseChecks, o.baseSuite);

  // Suite weakening only counts for a skill this PR edits.
  const edited = info.change !== "unchanged" && info.change !== "sweep" && info.change !== "deleted";
  const weakening =
    edited && o.baseSuite && suite ? diffSuites(o.baseSuite, suite, info.base, info.head) : [];
  const lock = info.head && suite ? checkLockstep(info.head, suite) : undefined;
  const contaminated: { caseId: string; trial: number; call: ToolCall }[] = [];
  const errorCounts = new Map<
    string,
    { kind: SkillReport["errors"][number]["kind"]; message: string; count: number }
  >();
  // Records are shared by key across skills: count each as the request that asked for it.
  const asAsked = o.headRecords
    .filter(({ record }) => record)
    .map(({ request, record }) => ({ ...record, skill: request.skill, mode: request.mode }));
  const cost = costBySkill(asAsked).get(skill.name) ?? { usd: 0, agentCalls: 0, cacheHits: 0, byMode: {} };
  for (const { request, record } of o.headRecords) {
    if (!record?.error) continue;
    if (record.error.kind === "contaminated" && record.error.offendingCall)
      contaminated.push({ caseId: request.caseId, trial: request.trial, call: record.error.offendingCall });
    else {
      // One entry per kind: the first message stands for the rest (keys and trial numbers differ).
      const e = errorCounts.get(record.error.kind) ?? {
        kind: record.error.kind,
        message: record.error.message,
        count: 0,
      };
      e.count++;
      errorCounts.set(record.error.kind, e);
    }
  }
  const errors = [
    ...o.errors.map((message) => ({ kind: "oracle" as const, message, count: 1 })),
    ...errorCounts.values(),
  ];
  const errorLines = errors.map((e) =>
    e.count > 1 ? `${e.count} trials: ${e.kind}, e.g. ${e.message}` : `${e.kind}: ${e.message}`,
  );
  const noSuite = !suite && info.head;
  const decided = decideSkillVerdict({
    skill: skill.name,
    // A trigger run that errored is already counted in `errors`; its check is no root of its own.
    roots: o.decisions.filter((d) => !(d.errorOnly && d.mode === "trigger")),
    weakening,
    thresholds: thresholdsFor(info, { ...input.settings.thresholds, ...(suite?.meta.thresholds ?? {}) }),
    discriminator,
    trigger,
    contaminated,
    lockstep:
      lock?.status === "lagging"
        ? { message: lock.message, file: lock.loc.file, line: lock.loc.line }
        : undefined,
    errors: errorLines,
    validationErrors: o.validation,
    policy: input.settings.verdict,
    locs: {
      skillFile: skill.path,
      descriptionLine: skill.loc.description?.line ?? skill.loc.frontmatter.line,
      metaFile: suite?.meta.loc.file,
      metaLine: suite?.meta.loc.line,
    },
  });
  const gates: GateSummary[] = o.headChecks
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
  const reasons = [...decided.reasons];
  if (noSuite) reasons.push("no eval suite: only validated (add one with `skillgate init`)");
  reasons.push(info.reason);
  return {
    name: skill.name,
    path: skill.path,
    change: info.change,
    ...(skill.version ? { version: skill.version } : {}),
    ...(discriminator ? { discriminator } : {}),
    ...(trigger ? { trigger } : {}),
    ...(o.headChecks.length ? { robustness: summariseRobustness(o.headChecks) } : {}),
    ...(baseDiscriminator || baseTrigger
      ? {
          base: {
            ...(baseDiscriminator ? { discriminator: baseDiscriminator } : {}),
            ...(baseTrigger ? { trigger: baseTrigger } : {}),
          },
        }
      : {}),
    gates,
    roots: decided.roots,
    newRoots: decided.newRoots,
    failedChecks: o.headChecks.filter((c) => c.status === "fail" || c.status === "error").length,
    errors,
    verdict: decided.verdict,
    reasons,
    cost,
  };
}

const KIND_RANK: Record<string, number> = {
  assertion: 0,
  gate: 1,
  trigger: 2,
  "suite-weakened": 3,
  threshold: 4,
};

function sortRoots(roots: Root[]): Root[] {
  return [...roots].sort(
    (a, b) =>
      (KIND_RANK[a.kind] ?? 9) - (KIND_RANK[b.kind] ?? 9) ||
      a.skill.localeCompare(b.skill) ||
      a.file.localeCompare(b.file) ||
      a.line - b.line,
  );
}

/** Only the thresholds of the batteries that ran: a competitor's trigger-only run is not held to lift. */
function thresholdsFor(info: SkillChangeInfo, t: Thresholds): Thresholds {
  return {
    ...(info.batteries.discriminator
      ? { discriminatorPassRate: t.discriminatorPassRate, discriminatorLift: t.discriminatorLift }
      : {}),
    ...(info.batteries.trigger
      ? { triggerPrecision: t.triggerPrecision, triggerRecall: t.triggerRecall }
      : {}),
  };
}
