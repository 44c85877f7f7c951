import type { Attribution } from "../attribute/roots.js";
import { attributeRoots, compressionStats } from "../attribute/roots.js";
import type { SkillChangeInfo } from "../detect/changes.js";
import { agentNameOf } from "../detect/copies.js";
import { summariseDiscriminator } from "../grade/discriminator.js";
import { levelsOf } from "../grade/levels.js";
import { checkLockstep } from "../grade/lockstep.js";
import { summariseRobustness } from "../grade/robustness.js";
import { confusionTable, summariseTrigger, triggerQueries } from "../grade/trigger.js";
import type {
  CheckResult,
  Diagnostic,
  GateSummary,
  RecoveryTrial,
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
import {
  buildTranscripts,
  checksByTrial,
  MAX_DETAIL_CHARS_PER_REPORT,
  type RanTrial,
  transcriptId,
} from "../report/transcripts.js";
import { costBySkill } from "../run/cost.js";
import { combineVerdicts, decideSkillVerdict, isNewRoot } from "../verdict/decide.js";
import type { RootDecision } from "../verdict/new-roots.js";
import { toEvidence } from "../verdict/recompute.js";
import { diffSuites, skillRemoved, type Trees } from "../verdict/weakening.js";
import { VERSION } from "../version.js";
import { checkoutTree } from "./checkout-tree.js";

export interface SkillOutcomeInput {
  info: SkillChangeInfo;
  headChecks: CheckResult[];
  baseChecks?: CheckResult[];
  decisions: RootDecision[];
  errors: string[];
  validation: Diagnostic[];
  /** The head job's trials and their records (base trials are not counted in the head's cost or errors). */
  headRecords: { request: TrialRequest; record: TrialRecord }[];
  /** The base job's trials and their records (for the review report's transcripts only). */
  baseRecords?: { request: TrialRequest; record: TrialRecord }[];
  baseSuite?: Suite;
  /** Trials per case and trigger runs the batteries started with; undefined when nothing ran. */
  trials?: { perCase: number; triggerRuns: number };
  /** Error-recovery probes' rounds (head arm). */
  recovery?: RecoveryTrial[];
  /** Cases whose first batch held more trials in one arm (a sweep's stored depth, a PR's stored base trials). */
  deeper?: { headPerCase?: Record<string, number>; basePerCase?: Record<string, number> };
}

export interface ReportInput {
  settings: Settings;
  startedAt: string;
  durationMs: number;
  identity: string;
  head: { ref?: string; sha?: string };
  base?: { ref?: string; sha?: string; tip?: string; dir?: string };
  outcomes: SkillOutcomeInput[];
  diagnostics: Diagnostic[];
  /** Validation errors in files no evaluated skill owns (a duplicate SKILL.md, a stray suite file): each blocks. */
  repositoryErrors?: Diagnostic[];
  cost: Report["cost"];
  runErrors: string[];
  attribution: Attribution;
  records: TrialRecord[];
  /** The head and base checkouts, for comparing the files a suite names (predicates, oracle scripts, fixtures). */
  trees?: { head: string; base?: string };
  /** How many skills were found, selected and evaluated, in one sentence. */
  scope?: Report["scope"];
  /** How untrusted code was confined. */
  isolation?: Report["isolation"];
}

const PROXY_ROUTERS = new Set(["lexical"]);

export function buildReport(input: ReportInput): Report {
  const { settings } = input;
  // Both checkouts as the suite comparison reads them: each file hashed once, in full.
  const trees = input.trees && { head: checkoutTree(input.trees.head), base: checkoutTree(input.trees.base) };
  // One detail budget for the transcripts of the whole report, spent on the most telling trials first.
  const transcriptBudget = { chars: MAX_DETAIL_CHARS_PER_REPORT };
  const skills = input.outcomes.map((o) => buildSkill(o, input, trees, transcriptBudget));
  const policyRoots = [...rootsOfPolicy(settings), ...validationRoots(input.repositoryErrors ?? [])];
  const allRoots = [...policyRoots, ...skills.flatMap((s) => s.roots)];
  const blockingRoots = sortRoots(allRoots.filter((r) => r.blocking));
  const verdict = combineVerdicts(
    [...skills.map((s) => s.verdict), ...(policyRoots.some((r) => r.blocking) ? (["fail"] as const) : [])],
    input.runErrors,
  );
  const c = compressionStats(input.attribution);
  const levels = levelsOf(input.outcomes.flatMap((o) => o.headChecks));
  const triggerChecks = input.outcomes.flatMap((o) => o.headChecks.filter((x) => x.mode === "trigger"));
  return {
    schemaVersion: 2,
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
    ...(settings.trialsOverride !== undefined ? { trialsOverride: settings.trialsOverride } : {}),
    ...(settings.shard ? { shard: settings.shard } : {}),
    ...(input.scope ? { scope: input.scope } : {}),
    skills,
    policy: {
      origin: settings.policy.origin,
      ...(settings.policy.file ? { file: settings.policy.file } : {}),
      ...(settings.override ? { override: settings.override } : {}),
      roots: policyRoots,
      verdict: settings.verdict,
    },
    blockingRoots,
    newRoots: sortRoots(allRoots.filter(isNewRoot)),
    diagnostics: input.diagnostics,
    stats: {
      failedChecks: c.failedChecks,
      roots: c.roots,
      meanFailedChecksPerTrial: c.meanFailedChecksPerTrial,
      meanRootsPerTrial: c.meanRootsPerTrial,
    },
    ...(levels.length ? { levels } : {}),
    cost: input.cost,
    errors: input.runErrors,
    ...(triggerChecks.length ? { triggerConfusion: confusionTable(triggerChecks) } : {}),
    ...(input.isolation ? { isolation: input.isolation } : {}),
  };
}

/** Each trial of one arm with the checks graded on it. */
function ranTrials(
  arm: RanTrial["arm"],
  ran: { request: TrialRequest; record: TrialRecord }[],
  checks: CheckResult[],
): RanTrial[] {
  const byTrial = checksByTrial(arm, checks);
  return ran.map(({ request, record }) => ({
    arm,
    request,
    record,
    checks: byTrial.get(transcriptId(arm, request.mode, request.caseId, request.trial)) ?? [],
  }));
}

function buildSkill(
  o: SkillOutcomeInput,
  input: ReportInput,
  trees: Trees | undefined,
  transcriptBudget: { chars: number },
): SkillReport {
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
  const levels = info.batteries.discriminator ? levelsOf(o.headChecks) : [];
  const trigger = trig(o.headChecks, suite);
  const baseDiscriminator = disc(o.baseChecks);
  const baseTrigger = trig(o.baseChecks, o.baseSuite);

  // Suite changes only count for a skill this PR edits (deleting a skill with a suite is one).
  const edited = info.change !== "unchanged" && info.change !== "sweep" && info.change !== "deleted";
  const weakening =
    edited && o.baseSuite
      ? diffSuites(o.baseSuite, suite, info.base, info.head, trees)
      : info.change === "deleted" && o.baseSuite && info.base
        ? [skillRemoved(o.baseSuite, info.base)]
        : [];
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
  // Requests name the skill as the agent knows it (a copy's run name differs).
  const cost = costBySkill(asAsked).get(agentNameOf(skill)) ?? {
    usd: 0,
    agentCalls: 0,
    cacheHits: 0,
    byMode: {},
  };
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
    thresholds: thresholdsFor(info, trustedThresholds(input.settings, suite, o.baseSuite)),
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
    ...(input.settings.override ? { override: input.settings.override } : {}),
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
  const transcripts = buildTranscripts(
    [
      ...ranTrials("head", o.headRecords, o.headChecks),
      ...ranTrials("base", o.baseRecords ?? [], o.baseChecks ?? []),
    ],
    decided.roots,
    transcriptBudget,
  );
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
    ...(o.headChecks.length
      ? {
          robustness: summariseRobustness({
            checks: o.headChecks,
            cases: skill.suite?.cases ?? [],
            meta: skill.suite?.meta.robustness,
            ...(o.recovery ? { recovery: o.recovery } : {}),
            outputOf: (caseId, trial) =>
              o.headRecords.find(
                (r) => r.request.mode === "skill" && r.request.caseId === caseId && r.request.trial === trial,
              )?.record.output,
          }),
        }
      : {}),
    ...(baseDiscriminator || baseTrigger
      ? {
          base: {
            ...(baseDiscriminator ? { discriminator: baseDiscriminator } : {}),
            ...(baseTrigger ? { trigger: baseTrigger } : {}),
          },
        }
      : {}),
    ...(o.trials ? { trials: o.trials } : {}),
    ...(o.trials && o.headChecks.length
      ? {
          evidence: {
            firstBatch: { ...o.trials, ...o.deeper },
            head: toEvidence(o.headChecks),
            ...(o.baseChecks ? { base: toEvidence(o.baseChecks) } : {}),
          },
        }
      : {}),
    gates,
    ...(transcripts.length ? { transcripts } : {}),
    ...(levels.length ? { levels } : {}),
    roots: decided.roots,
    blockingRoots: decided.blockingRoots,
    newRoots: decided.newRoots,
    // Cascades counted: a check skipped because its dependency failed is a failed check of its root.
    failedChecks: attributeRoots(o.headChecks).failedChecks,
    errors,
    verdict: decided.verdict,
    reasons,
    cost,
  };
}

/** The PR's changes to the trusted policy, and problems of its own config file, as repository roots. */
function rootsOfPolicy(settings: Settings): Root[] {
  const roots: Root[] = [];
  const { policy, override } = settings;
  for (const c of policy.changes) {
    const loosened = c.kind === "loosened";
    const accepted = loosened && override ? ` Accepted by a maintainer's override (${override.by}).` : "";
    roots.push({
      id: c.id,
      kind: loosened ? "policy-weakened" : "policy-changed",
      skill: "",
      status: "new",
      title: loosened ? `Policy weakened: ${c.key}` : `Policy ${c.kind}: ${c.key}`,
      message: `${c.message}. This run is judged by ${policy.origin}.${loosened ? ` A loosening needs a maintainer's approval (the label "${policy.overrideLabel}").` : ""}${accepted}`,
      file: c.file,
      line: c.line,
      column: c.column,
      cascaded: [],
      blocking: loosened && !override,
      change: c.kind,
    });
  }
  for (const d of policy.headDiagnostics.filter((x) => x.severity === "error"))
    roots.push({
      id: `validation/${d.code}/${d.file}:${d.line}`,
      kind: "validation",
      skill: "",
      status: "new",
      title: `Invalid: ${d.code}`,
      message: `${d.message} (this PR's configuration: this run is judged by ${policy.origin}, but the file would apply after the merge)`,
      file: d.file,
      line: d.line,
      column: d.column,
      cascaded: [],
      blocking: true,
    });
  return roots;
}

/** Validation errors no skill's verdict carries, as blocking repository roots. */
function validationRoots(errors: readonly Diagnostic[]): Root[] {
  return errors.map((d) => ({
    id: `validation/${d.code}/${d.file}:${d.line}`,
    kind: "validation",
    skill: "",
    status: "new",
    title: `Invalid: ${d.code}`,
    message: d.message,
    file: d.file,
    line: d.line,
    column: d.column,
    cascaded: [],
    blocking: true,
  }));
}

const KIND_RANK: Record<string, number> = {
  assertion: 0,
  gate: 1,
  trigger: 2,
  "suite-weakened": 3,
  "policy-weakened": 3,
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

/**
 * Thresholds by the trusted policy: the config's, overridden by the base suite's meta.json (a sweep: the
 * checkout's). A suite new in this PR may raise a threshold above the config's, never lower it.
 */
function trustedThresholds(settings: Settings, head: Suite | undefined, base: Suite | undefined): Thresholds {
  if (!settings.base) return { ...settings.thresholds, ...(head?.meta.thresholds ?? {}) };
  if (base) return { ...settings.thresholds, ...base.meta.thresholds };
  const out: Thresholds = { ...settings.thresholds };
  for (const [k, v] of Object.entries(head?.meta.thresholds ?? {}) as [keyof Thresholds, number][]) {
    const floor = out[k];
    out[k] = floor === undefined ? v : Math.max(floor, v);
  }
  return out;
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
