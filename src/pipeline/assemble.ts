/**
 * The report stage: every skill's part (skill-report.ts, from its outcome and the verdict stage's decision) and
 * the repository's roots (repository-roots.ts) combined into one `Report` with the run's verdict, figures and context.
 */
import { compressionStats, mergeAttributions } from "../attribute/roots.js";
import { levelsOf } from "../grade/levels.js";
import { confusionTable } from "../grade/trigger.js";
import type { Diagnostic, Report, Root, Settings, SkillReport, TrialRecord } from "../model/index.js";
import { MAX_DETAIL_CHARS_PER_REPORT } from "../report/transcripts.js";
import { combineVerdicts, isNewRoot } from "../verdict/decide.js";
import type { SkillDecision, SkillOutcomeInput } from "../verdict/skill.js";
import { VERSION } from "../version.js";
import { prDiff } from "./pr-diff.js";
import { rootsOfPolicy, sortRoots, validationRoots } from "./repository-roots.js";
import { buildSkill } from "./skill-report.js";

export interface ReportInput {
  settings: Settings;
  startedAt: string;
  durationMs: number;
  identity: string;
  head: { ref?: string; sha?: string };
  base?: { ref?: string; sha?: string; tip?: string; dir?: string };
  outcomes: SkillOutcomeInput[];
  /** What the verdict stage decided for each outcome, in the same order (`decideSkills`). */
  decisions: SkillDecision[];
  diagnostics: Diagnostic[];
  /** Validation errors in files no evaluated skill owns (a duplicate SKILL.md, a stray suite file): each blocks. */
  repositoryErrors?: Diagnostic[];
  /** Such errors the base has too, in files the change leaves alone: reported, not blocking. */
  preExistingErrors?: Diagnostic[];
  /**
   * Roots of the change to what a target lists (`crowdedOutRoots`) that no evaluated skill owns (the verdict stage
   * gave each other one to its skill's decision): blocking.
   */
  listingRoots?: Root[];
  cost: Report["cost"];
  runErrors: string[];
  records: TrialRecord[];
  /** The head and base checkouts, for comparing the files a suite names (predicates, oracle scripts, fixtures). */
  trees?: { head: string; base?: string };
  /** How many skills were found, selected and evaluated, in one sentence. */
  scope?: Report["scope"];
  /** How untrusted code was confined. */
  isolation?: Report["isolation"];
}

export function buildReport(input: ReportInput): Report {
  const { settings } = input;
  const skills = buildSkills(input);
  const policyRoots = [
    ...rootsOfPolicy(settings),
    ...validationRoots(input.repositoryErrors ?? []),
    ...validationRoots(input.preExistingErrors ?? [], settings.verdict.preExisting === "fail"),
    ...(input.listingRoots ?? []),
  ];
  const allRoots = [...policyRoots, ...skills.flatMap((s) => s.roots)];
  const verdict = combineVerdicts(
    [...skills.map((s) => s.verdict), ...(policyRoots.some((r) => r.blocking) ? (["fail"] as const) : [])],
    input.runErrors,
  );
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
    policy: policyPart(settings, policyRoots),
    blockingRoots: sortRoots(allRoots.filter((r) => r.blocking)),
    newRoots: sortRoots(allRoots.filter(isNewRoot)),
    diagnostics: input.diagnostics,
    stats: runStats(input.decisions),
    ...(levels.length ? { levels } : {}),
    cost: input.cost,
    errors: input.runErrors,
    ...(triggerChecks.length ? { triggerConfusion: confusionTable(triggerChecks) } : {}),
    ...(input.isolation ? { isolation: input.isolation } : {}),
    ...changesPart(input),
  };
}

/** The PR's changes to the evaluated skills' files (a PR only: a sweep has no base to compare with). */
function changesPart(input: ReportInput): Pick<Report, "changes"> {
  if (!input.trees?.base) return {};
  const changes = prDiff(
    input.outcomes.map((o) => o.info),
    input.trees,
  );
  return changes.length ? { changes } : {};
}

/** Every evaluated skill's part, in the outcomes' order. */
function buildSkills(input: ReportInput): SkillReport[] {
  // One detail budget for the transcripts of the whole report, spent on the most telling trials first.
  const context = { transcriptBudget: { chars: MAX_DETAIL_CHARS_PER_REPORT } };
  return input.outcomes.map((o, i) => buildSkill(o, input.decisions[i]!, context));
}

/** Where the policy came from, the maintainer's override, and the repository's own roots. */
function policyPart(settings: Settings, roots: Root[]): Report["policy"] {
  return {
    origin: settings.policy.origin,
    ...(settings.policy.file ? { file: settings.policy.file } : {}),
    ...(settings.override ? { override: settings.override } : {}),
    roots,
    verdict: settings.verdict,
  };
}

/** Failed checks against roots: how much attribution compressed the failures (each skill's, attributed once). */
function runStats(decisions: readonly SkillDecision[]): Report["stats"] {
  const c = compressionStats(mergeAttributions(decisions.map((d) => d.attribution)));
  return {
    failedChecks: c.failedChecks,
    roots: c.roots,
    meanFailedChecksPerTrial: c.meanFailedChecksPerTrial,
    meanRootsPerTrial: c.meanRootsPerTrial,
  };
}
