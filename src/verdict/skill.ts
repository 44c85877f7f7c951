/**
 * A skill's verdict, decided before its report is assembled: the batteries' figures of both arms, the head trials'
 * errors, the suite diff (weakening), the trusted thresholds and the security roots, then `decideSkillVerdict`.
 * The report stage (src/pipeline/skill-report.ts) only writes down what was decided here.
 */
import { isRouterOnlyAgent } from "../agents/registry.js";
import { type Attribution, attributeRoots } from "../attribute/roots.js";
import type { SkillChangeInfo } from "../detect/changes.js";
import { summariseDiscriminator } from "../grade/discriminator.js";
import { checkLockstep } from "../grade/lockstep.js";
import { summariseTrigger } from "../grade/trigger.js";
import type {
  CheckResult,
  Diagnostic,
  RecoveryTrial,
  Root,
  Settings,
  SkillReport,
  Suite,
  Thresholds,
  ToolCall,
  TrialRecord,
  TrialRequest,
} from "../model/index.js";
import { triggerQueries } from "../plan/queries.js";
import { checkoutTree } from "./checkout-tree.js";
import { decideSkillVerdict, type SkillVerdict, type SkillVerdictInput } from "./decide.js";
import { listingRootOwners, withListingRoots } from "./listing-roots.js";
import type { RootDecision } from "./new-roots.js";
import { securityRoots } from "./security-roots.js";
import { diffSuites, skillRemoved, type Trees, type WeakeningFinding } from "./weakening.js";

type Ran = { request: TrialRequest; record: TrialRecord }[];

export interface SkillOutcomeInput {
  info: SkillChangeInfo;
  headChecks: CheckResult[];
  baseChecks?: CheckResult[];
  decisions: RootDecision[];
  errors: string[];
  validation: Diagnostic[];
  /** Validation errors the base has too, in files the change leaves alone: reported, not blocking. */
  preExistingValidation?: Diagnostic[];
  /** The head job's trials and their records (base trials are not counted in the head's cost or errors). */
  headRecords: Ran;
  /** The base job's trials and their records (for the review report's transcripts only). */
  baseRecords?: Ran;
  baseSuite?: Suite;
  /** Trials per case and trigger runs the batteries started with; undefined when nothing ran. */
  trials?: { perCase: number; triggerRuns: number };
  /** Error-recovery probes' rounds (head arm). */
  recovery?: RecoveryTrial[];
  /** Cases whose first batch held more trials in one arm (a sweep's stored depth, a PR's stored base trials). */
  deeper?: { headPerCase?: Record<string, number>; basePerCase?: Record<string, number> };
}

/** The settings a skill's verdict reads, and nothing else. */
export type VerdictSettings = Pick<
  Settings,
  "agent" | "base" | "thresholds" | "verdict" | "override" | "security"
>;

/** What every skill's decision reads besides its outcome. */
interface SkillDecisionContext {
  settings: VerdictSettings;
  /** Both checkouts as the suite comparison reads them. */
  trees: Trees | undefined;
  /** Both checkouts' folders (the static review reads a skill folder's files in full). */
  checkouts?: { head: string; base?: string };
}

/** What was decided for one skill: its roots, the figures its verdict read, its trials' errors, and the verdict. */
export interface SkillDecision {
  /** The head checks attributed to roots, once: the report's failed checks and the run's figures read it. */
  attribution: Attribution;
  batteries: BatterySummaries;
  failures: TrialFailures;
  verdict: SkillVerdict;
}

/** What the verdict stage decided for a run's skills. */
export interface SkillDecisions {
  /** Each skill's decision, in the outcomes' order. */
  skills: SkillDecision[];
  /** The listing roots no evaluated skill owns: the repository's (listing-roots.ts). */
  unownedListingRoots: Root[];
}

/**
 * Every skill's decision, in the outcomes' order, with the listing roots (`crowdedOutRoots`) of the skill each
 * points at; each file of both checkouts is hashed once, in full.
 */
export function decideSkills(
  settings: VerdictSettings,
  outcomes: readonly SkillOutcomeInput[],
  checkouts: { head: string; base?: string } | undefined,
  listingRoots: readonly Root[] = [],
): SkillDecisions {
  const trees = checkouts && { head: checkoutTree(checkouts.head), base: checkoutTree(checkouts.base) };
  const context = { settings, trees, ...(checkouts ? { checkouts } : {}) };
  const { owned, unowned } = listingRootOwners(
    outcomes.map((o) => (o.info.head ?? o.info.base!).path),
    listingRoots,
  );
  const skills = outcomes.map((o, i) => {
    const decision = decideSkill(o, context);
    return { ...decision, verdict: withListingRoots(decision.verdict, owned.get(i) ?? []) };
  });
  return { skills, unownedListingRoots: unowned };
}

function decideSkill(o: SkillOutcomeInput, c: SkillDecisionContext): SkillDecision {
  const batteries = batterySummaries(o, c.settings.agent.adapter);
  const failures = trialErrors(o);
  const verdict = decideSkillVerdict(verdictInput(o, c, batteries, failures));
  return { attribution: attributeRoots(o.headChecks), batteries, failures, verdict };
}

export interface BatterySummaries {
  discriminator?: SkillReport["discriminator"];
  trigger?: SkillReport["trigger"];
  base?: SkillReport["base"];
}

/** The discriminator and trigger batteries' figures of both arms (a router-only agent's marked as a proxy). */
function batterySummaries(o: SkillOutcomeInput, router: string): BatterySummaries {
  const { info } = o;
  const proxy = isRouterOnlyAgent(router);
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
  const trigger = trig(o.headChecks, info.head?.suite);
  const baseDiscriminator = disc(o.baseChecks);
  const baseTrigger = trig(o.baseChecks, o.baseSuite);
  return {
    ...(discriminator ? { discriminator } : {}),
    ...(trigger ? { trigger } : {}),
    ...(baseDiscriminator || baseTrigger
      ? {
          base: {
            ...(baseDiscriminator ? { discriminator: baseDiscriminator } : {}),
            ...(baseTrigger ? { trigger: baseTrigger } : {}),
          },
        }
      : {}),
  };
}

/** Everything the skill's verdict is decided from. */
function verdictInput(
  o: SkillOutcomeInput,
  c: SkillDecisionContext,
  batteries: BatterySummaries,
  failures: TrialFailures,
): SkillVerdictInput {
  const { info } = o;
  const { settings } = c;
  const skill = info.head ?? info.base!;
  const suite = info.head?.suite;
  const lock = info.head && suite ? checkLockstep(info.head, suite) : undefined;
  return {
    skill: skill.name,
    // A trigger run that errored is already counted in `errors`; its check is no root of its own.
    roots: o.decisions.filter((d) => !(d.errorOnly && d.mode === "trigger")),
    weakening: suiteWeakening(o, c.trees),
    thresholds: thresholdsFor(info, trustedThresholds(settings, suite, o.baseSuite)),
    discriminator: batteries.discriminator,
    trigger: batteries.trigger,
    ...(o.baseChecks ? { baseFigures: batteries.base ?? {} } : {}),
    contaminated: failures.contaminated,
    lockstep:
      lock?.status === "lagging"
        ? { message: lock.message, file: lock.loc.file, line: lock.loc.line }
        : undefined,
    errors: failures.errorLines,
    validationErrors: o.validation,
    preExistingValidation: o.preExistingValidation ?? [],
    policy: settings.verdict,
    ...(settings.override ? { override: settings.override } : {}),
    security: securityRoots(
      {
        ...(info.head ? { head: info.head } : {}),
        ...(info.base ? { base: info.base } : {}),
        headRecords: o.headRecords,
        ...(o.baseRecords ? { baseRecords: o.baseRecords } : {}),
        hasBase: Boolean(o.baseRecords?.length),
      },
      settings,
      c.trees,
      c.checkouts,
    ),
    locs: {
      skillFile: skill.path,
      descriptionLine: skill.loc.description?.line ?? skill.loc.frontmatter.line,
      metaFile: suite?.meta.loc.file,
      metaLine: suite?.meta.loc.line,
    },
  };
}

/** Suite changes only count for a skill this PR edits (deleting a skill with a suite is one). */
function suiteWeakening(o: SkillOutcomeInput, trees: Trees | undefined): WeakeningFinding[] {
  const { info } = o;
  const edited = info.change !== "unchanged" && info.change !== "sweep" && info.change !== "deleted";
  if (edited && o.baseSuite) return diffSuites(o.baseSuite, info.head?.suite, info.base, info.head, trees);
  if (info.change === "deleted" && o.baseSuite && info.base) return [skillRemoved(o.baseSuite, info.base)];
  return [];
}

export interface TrialFailures {
  /** Trials stopped for calling a tool the baseline must not use. */
  contaminated: { caseId: string; trial: number; call: ToolCall }[];
  errors: SkillReport["errors"];
  /** `errors` as the verdict's reasons say them. */
  errorLines: string[];
}

/** The head trials' errors: contaminations apart, the rest counted per kind (the first message stands for all). */
function trialErrors(o: SkillOutcomeInput): TrialFailures {
  const contaminated: TrialFailures["contaminated"] = [];
  const errorCounts = new Map<string, SkillReport["errors"][number]>();
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
  return { contaminated, errors, errorLines };
}

/**
 * Thresholds by the trusted policy: the config's, overridden by the base suite's meta.json (a sweep: the
 * checkout's). A suite new in this PR may raise a threshold above the config's, never lower it.
 */
function trustedThresholds(
  settings: Pick<Settings, "base" | "thresholds">,
  head: Suite | undefined,
  base: Suite | undefined,
): Thresholds {
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
