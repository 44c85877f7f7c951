/**
 * `skillgate harvest`: for a skill and its tasks (its suite's cases or a prompts file), unguided baseline trials
 * (no skill installed, the constraint block given, as every baseline), optionally skill trials; their answers
 * clustered and discriminators proposed from the wrong ones, measured, as a suite patch the user reviews. Trials
 * go through the run stage's ledger: the forecast is said first and a first batch over the budget never runs.
 */
import { existsSync } from "node:fs";
import { join, posix } from "node:path";
import picomatch from "picomatch";
import { assertionLookup } from "../detect/assertion-types.js";
import { discoverRepository } from "../detect/discover.js";
import { SEED_EVALS_DIR, skillOwnsFile } from "../detect/touched.js";
import "../grade/assertions/index.js";
import * as assertionRegistry from "../grade/assertions/registry.js";
import { judgeFor } from "../grade/command-judge.js";
import { gradeJob, templateJob } from "../grade/job.js";
import type { Judge } from "../grade/judge.js";
import { resolveCaseVars, resolveVars } from "../grade/oracle.js";
import {
  type AnswerCluster,
  type Case,
  type CheckResult,
  type HarvestCase,
  type HarvestProposal,
  type HarvestReport,
  type HarvestSkill,
  InputError,
  type Settings,
  type Skill,
  type Suite,
  type TrialRecord,
  type TrialRequest,
} from "../model/index.js";
import { renderForecast } from "../plan/forecast.js";
import { type Arm, makeJob, planJob, type SkillJob } from "../plan/job.js";
import { decideIsolation } from "../run/isolation.js";
import { TrialLedger } from "../run/ledger.js";
import { isolation } from "../sandbox/isolation/detect.js";
import { outputRedactor } from "../util/redact.js";
import { VERSION } from "../version.js";
import { clusterFeature, exampleOf, featuresOf, type HarvestTrial, markFailures } from "./analyse.js";
import { type NewCase, patchFiles } from "./patch.js";
import { loadPromptsFile } from "./prompts-file.js";
import { proposeForCase } from "./propose.js";

export interface HarvestOptions {
  promptsFile?: string;
  withSkill: boolean;
  minBaselineFailure: number;
  minSkillPass: number;
  minShare: number;
  /** Trials per case and mode when `--trials` does not say: a habit needs a few samples to show. */
  defaultTrials: number;
}

const ACTIVATION_TYPES = new Set(["skill-used", "not-skill-used"]);

/** Clusters kept per feature in the report (the JSON keeps the wrong ones whatever their rank). */
const CLUSTERS_SHOWN = 5;

interface SkillPlan {
  skill: Skill;
  job: SkillJob;
  source: string;
  requests: TrialRequest[];
  newCases: Map<string, NewCase>;
  errors: string[];
}

export async function runHarvest(
  settings: Settings,
  o: HarvestOptions,
): Promise<{ report: HarvestReport; files: Map<string, string> }> {
  const log = settings.logger;
  const confinement = decideIsolation(await isolation(), settings);
  if (!confinement.go) throw confinement.refused;
  if (confinement.warning) log.warn(confinement.warning);
  const lookup = assertionLookup(assertionRegistry);
  const found = discoverRepository(settings.repoDir, {
    profile: settings.profile,
    ...settings.skills,
    assertionTypes: lookup,
  });
  const skills = selectSkills(found.skills, settings.skillsFilter, o.promptsFile);
  // Without a judge, natural-language checks are not graded (said per skill and case), as in `run`; the case
  // still runs, its answers clustered.
  const unjudged = new Map(skills.map((s) => [s.name, settings.judge ? 0 : dropJudgeChecks(s)]));
  const trials = settings.trialsOverride ?? o.defaultTrials;
  const arm: Arm = { name: "head", repoDir: settings.repoDir, skills: found.skills.filter((s) => s.suite) };
  const plans: SkillPlan[] = [];
  for (const skill of skills) {
    const own = found.diagnostics.filter((d) => d.severity === "error" && skillOwnsFile(skill, d.file));
    if (own.length)
      throw new InputError(
        `${skill.name}: its files do not validate (run skillgate validate): ${own.map((d) => `${d.file}:${d.line}: ${d.message}`).join("; ")}`,
      );
    plans.push(await planSkill(skill, arm, settings, o, trials, lookup));
  }
  const agentDir = settings.policy.agentDir ?? settings.policy.dir ?? settings.repoDir;
  const ledger = new TrialLedger(settings, { agentDir });
  const judge = settings.judge ? judgeFor(settings.judge, agentDir) : undefined;
  const all = plans.flatMap((p) => p.requests);
  const forecast = await ledger.forecast(
    plans.flatMap((p) =>
      p.requests.map((request) => ({
        skill: p.skill.name,
        battery: "discriminator" as const,
        arm: "head" as const,
        request,
      })),
    ),
    { maxConfirmationTrials: 0, baseTrialsPerHeadTrial: 0 },
  );
  for (const line of renderForecast(forecast)) log.info(line);
  const report: HarvestReport = {
    tool: { name: "skillgate", version: VERSION },
    seed: settings.seed,
    agent: { adapter: settings.agent.adapter, identity: ledger.identity },
    trials,
    withSkill: o.withSkill,
    thresholds: {
      minBaselineFailure: o.minBaselineFailure,
      minSkillPass: o.minSkillPass,
      minShare: o.minShare,
    },
    forecast,
    skills: [],
    cost: { usd: 0, agentCalls: 0, cacheHits: 0 },
    errors: [],
  };
  if (forecast.overBudget) {
    report.errors.push(`not run: ${forecast.overBudget}`);
    return { report, files: new Map() };
  }
  await ledger.run(all);
  report.errors.push(...ledger.runErrors);
  report.agent.identity = ledger.identity;
  const newCases: NewCase[] = [];
  for (const p of plans) {
    const notGraded = unjudged.get(p.skill.name) ?? 0;
    if (notGraded)
      p.errors.push(
        `${notGraded} natural-language check(s) not graded: no judge is configured (set \`judge:\` in .skillgate.yml)`,
      );
    report.skills.push(await harvestSkill(p, ledger.records, settings, o, judge));
    newCases.push(...p.newCases.values());
  }
  report.cost = {
    usd: ledger.cost.usd,
    agentCalls: ledger.cost.agentCalls,
    cacheHits: ledger.cost.cacheHits,
  };
  await ledger.recordUsage();
  const proposals = report.skills.flatMap((s) => s.cases.flatMap((c) => c.proposals));
  const withProposals = newCases.filter((n) => proposals.some((p) => p.file === n.file));
  const files = patchFiles(settings.repoDir, proposals, withProposals);
  if (files.size) report.patchFiles = [...files.keys()].sort();
  // Outputs and examples are the agent's: secrets never leave, here as in run's report.
  return { report: outputRedactor().redactDeep(report), files };
}

/** Takes the natural-language (`judge`) checks out of the skill's cases; returns how many there were. */
function dropJudgeChecks(skill: Skill): number {
  const suite = skill.suite;
  if (!suite) return 0;
  let dropped = 0;
  const cases = suite.cases.map((c) => {
    const judged = new Set(c.assertions.filter((a) => a.type === "judge").map((a) => a.id));
    dropped += judged.size;
    if (judged.size === 0) return c;
    const rest = c.assertions
      .filter((a) => !judged.has(a.id))
      .map((a) => ({ ...a, dependsOn: a.dependsOn.filter((d) => !judged.has(d)) }));
    return { ...c, assertions: rest };
  });
  skill.suite = { ...suite, cases };
  return dropped;
}

/** The skills a harvest is for: the filter's, else every skill with a suite; a prompts file is for one skill. */
function selectSkills(all: Skill[], filter: string | undefined, promptsFile: string | undefined): Skill[] {
  const match = filter ? picomatch(filter, { dot: true }) : undefined;
  const chosen = match
    ? all.filter((s) => match(s.name) || match(s.path) || match(s.dir))
    : all.filter((s) => s.suite);
  if (chosen.length === 0)
    throw new InputError(
      filter
        ? `--skills ${filter} matches none of the ${all.length} skill(s) found (${all
            .map((s) => s.name)
            .slice(0, 8)
            .join(", ")})`
        : "no skill with an eval suite found: name one with --skills and give its tasks with --prompts",
    );
  if (promptsFile && chosen.length > 1)
    throw new InputError(
      `a prompts file is the tasks of one skill; --skills matches ${chosen.length}: ${chosen.map((s) => s.name).join(", ")}`,
    );
  return chosen;
}

async function planSkill(
  skill: Skill,
  arm: Arm,
  settings: Settings,
  o: HarvestOptions,
  trials: number,
  lookup: ReturnType<typeof assertionLookup>,
): Promise<SkillPlan> {
  const errors: string[] = [];
  const newCases = new Map<string, NewCase>();
  let suite: Suite;
  let source: string;
  const seedRoot = skill.suite?.formats.includes("seed")
    ? skill.suite.root
    : `${SEED_EVALS_DIR}/${skill.name}`;
  if (o.promptsFile) {
    const loaded = loadPromptsFile(settings.repoDir, o.promptsFile, lookup);
    source = loaded[0]!.caseDef.loc.file;
    suite = {
      skill: skill.name,
      root: skill.suite?.root ?? seedRoot,
      formats: ["seed"],
      meta: skill.suite?.meta ?? {
        thresholds: {},
        vars: {},
        loc: { file: source, line: 1, column: 1 },
        keyLoc: {},
      },
      cases: loaded.map((l) => l.caseDef),
      sourceFiles: [],
    };
    for (const l of loaded) {
      const file = posix.join(seedRoot, "prompts", `${l.caseDef.id}.yaml`);
      if (existsSync(join(settings.repoDir, file)))
        errors.push(
          `${file} exists: case ${l.caseDef.id} of the prompts file gets no new case file (rename it)`,
        );
      else newCases.set(l.caseDef.id, { file, caseDef: l.caseDef, written: l.written });
    }
  } else {
    if (!skill.suite)
      throw new InputError(`${skill.name} has no eval suite: give its tasks with --prompts FILE`);
    suite = skill.suite;
    source = suite.root;
  }
  const vars = await resolveVars(suite, settings.repoDir);
  if (vars.error) errors.push(vars.error);
  const job = makeJob(arm, { ...skill, suite }, { discriminator: true, trigger: false }, vars.vars);
  const caseVars = await resolveCaseVars(suite, settings.repoDir);
  errors.push(...caseVars.errors, ...templateJob(job, caseVars.vars));
  const requests = planJob(job, {
    trials,
    triggerRuns: 1,
    seed: settings.seed,
    ...(o.withSkill ? {} : { onlyModes: new Set(["baseline" as const]) }),
  });
  return { skill, job, source, requests, newCases, errors };
}

async function harvestSkill(
  p: SkillPlan,
  records: Map<string, TrialRecord>,
  settings: Settings,
  o: HarvestOptions,
  judge: Judge | undefined,
): Promise<HarvestSkill> {
  const suite = p.job.skill.suite!;
  const checks = await gradeJob(p.job, p.requests, records, {
    gateSeed: settings.seed,
    ...(judge ? { judge } : {}),
  });
  const cases: HarvestCase[] = [];
  for (const c of suite.cases) {
    const reqs = p.requests.filter((r) => r.caseId === c.id);
    if (reqs.length === 0) continue;
    const ran = reqs.map((r) => ({ request: r, record: records.get(r.key) })).filter((x) => x.record);
    const ok = ran.filter((x) => !x.record!.error);
    // A baseline never activates the skill: activation checks say nothing about its answers.
    const activation = new Set([
      "trial-ok",
      ...c.assertions.filter((a) => ACTIVATION_TYPES.has(a.type)).map((a) => a.id),
    ]);
    const trials = markFailures(
      ok.map(({ request, record }) => ({
        record: { ...record!, caseId: c.id, mode: request.mode, trial: request.trial },
        checks: checks.filter(
          (x) =>
            x.caseId === c.id &&
            x.mode === request.mode &&
            x.trial === request.trial &&
            !activation.has(x.assertionId),
        ),
      })),
    );
    const harvested = await harvestCase(c, suite, trials, ran.length - ok.length, p, settings, o);
    if (p.errors.some((e) => e.includes("no judge is configured")))
      harvested.notes.push("its natural-language checks are not graded: no judge is configured");
    cases.push(harvested);
  }
  return { name: p.skill.name, source: p.source, cases, errors: p.errors };
}

async function harvestCase(
  c: Case,
  suite: Suite,
  trials: HarvestTrial[],
  errored: number,
  p: SkillPlan,
  settings: Settings,
  o: HarvestOptions,
): Promise<HarvestCase> {
  const baseline = trials.filter((t) => t.record.mode === "baseline").length;
  const skill = trials.length - baseline;
  const features = featuresOf(trials);
  const clusters: AnswerCluster[] = [
    ...features.flatMap((f) => {
      const all = clusterFeature(f, trials, o.minShare);
      return all.filter((x, i) => i < CLUSTERS_SHOWN || x.wrong).map(({ raw: _raw, ...x }) => x);
    }),
    ...checkClusters(trials),
  ];
  const file = p.newCases.get(c.id)?.file ?? caseFile(c, suite, settings.repoDir);
  const proposed = await proposeForCase(c, suite, trials, features, file ?? "", {
    minBaselineFailure: o.minBaselineFailure,
    minSkillPass: o.minSkillPass,
    minShare: o.minShare,
    gateSeed: settings.seed,
    repoDir: settings.repoDir,
  });
  const proposals: HarvestProposal[] = proposed.proposals;
  const notes: string[] = [...proposed.notes];
  if (errored) notes.push(`${errored} trial(s) errored: left out`);
  if (!file) notes.push(`${c.loc.file} is not in the seed layout: proposals are reported, not patched`);
  if (proposals.length === 0 && proposed.notes.length === 0)
    notes.push(
      baseline === 0
        ? "no baseline trial gave an answer"
        : !o.withSkill && !trials.some((t) => t.failed)
          ? "nothing says which answers are wrong: no trial failed a check another passed (run --with-skill, or give the case a reference assertion)"
          : "no answer separated failing from passing trials well enough",
    );
  return {
    id: c.id,
    prompt: p.job.prompts.get(c.id) ?? c.prompt,
    trials: { baseline, skill, errored },
    clusters,
    proposals,
    notes,
  };
}

/**
 * The suite's own checks that failed, by check and failing gate invariants: what the baseline gets wrong. A check
 * that could not be graded (`error`) says nothing about the answer and is not listed.
 */
function checkClusters(trials: HarvestTrial[]): AnswerCluster[] {
  const groups = new Map<string, { feature: string; value: string; ts: HarvestTrial[] }>();
  for (const t of trials)
    for (const x of t.checks) {
      if (x.status !== "fail") continue;
      const invariants = gateFailures(x);
      const value = invariants.length ? `failed invariants: ${invariants.join(", ")}` : x.status;
      const key = `${x.assertionId}\u0000${value}`;
      const g = groups.get(key) ?? { feature: `check:${x.assertionId}`, value, ts: [] };
      g.ts.push(t);
      groups.set(key, g);
    }
  return [...groups.values()].map((g) => ({
    feature: g.feature,
    value: g.value,
    baseline: g.ts.filter((t) => t.record.mode === "baseline").length,
    skill: g.ts.filter((t) => t.record.mode === "skill").length,
    wrong: true,
    example: exampleOf(g.ts[0]!.record),
  }));
}

function gateFailures(x: CheckResult): string[] {
  const gate = (x.details as { gate?: { checks?: { id: string; passed: boolean }[] } } | undefined)?.gate;
  return (gate?.checks ?? []).filter((k) => !k.passed).map((k) => k.id);
}

/** Where a seed case's new assertions go: its assertion file, else its prompt file; undefined for other formats. */
function caseFile(c: Case, suite: Suite, repoDir: string): string | undefined {
  const own = c.assertions.find((a) => a.loc.file.startsWith(`${suite.root}/assertions/`))?.loc.file;
  if (own) return own;
  for (const ext of ["yaml", "yml", "json"]) {
    const f = `${suite.root}/assertions/${c.id}.${ext}`;
    if (existsSync(join(repoDir, f))) return f;
  }
  return c.loc.file.startsWith(`${suite.root}/prompts/`) ? c.loc.file : undefined;
}
