/**
 * The one engine behind the CLI and the action: detect → plan → run → grade → attribute → verdict → report.
 * No GitHub I/O in here; the entry points hand in `Settings` and get a `Report`.
 */
import { join } from "node:path";
import picomatch from "picomatch";
import { attributeRoots } from "./attribute/roots.js";
import { assertionLookup } from "./detect/assertion-types.js";
import { type BaseCheckout, checkoutBase, headSha } from "./detect/base.js";
import { classifyChanges, type SkillChangeInfo } from "./detect/changes.js";
import { agentNameOf } from "./detect/copies.js";
import { type Discovery, discoverRepository, type ReuseUnchanged } from "./detect/discover.js";
import { withoutJudge } from "./detect/needs-judge.js";
import { outsideGlobsDiagnostics } from "./detect/outside-globs.js";
import { splitSkillProblems } from "./detect/part-problems.js";
import { skillOwnsFile } from "./detect/touched.js";
import "./grade/assertions/index.js";
import * as assertionRegistry from "./grade/assertions/registry.js";
import { summariseDiscriminator } from "./grade/discriminator.js";
import { createJudge, type Judge } from "./grade/judge.js";
import { nearDuplicateWarnings } from "./grade/lexical-router.js";
import { resolveCaseVars, resolveVars } from "./grade/oracle.js";
import {
  type CheckResult,
  type Diagnostic,
  type Forecast,
  InputError,
  type Report,
  type Settings,
  type Skill,
} from "./model/index.js";
import { type Arm, gradeJob, makeJob, planJob, type SkillJob, templateJob } from "./pipeline/arm.js";
import { buildReport, type SkillOutcomeInput } from "./pipeline/assemble.js";
import { type JobTrials, planConfirmation } from "./pipeline/confirm.js";
import { decideIsolation } from "./pipeline/isolation.js";
import { TrialLedger } from "./pipeline/ledger.js";
import { recoverProbes } from "./pipeline/recovery.js";
import { addStoredTrials } from "./pipeline/stored.js";
import { batteryOf, renderForecast } from "./plan/forecast.js";
import { assignShard } from "./plan/shard.js";
import { writeSkillCreatorExports } from "./report/exports.js";
import { isolation } from "./sandbox/isolation/detect.js";
import { outputRedactor } from "./util/redact.js";
import { type ConfirmationBatch, RootDecider } from "./verdict/new-roots.js";
import { BASE_TRIALS_PER_HEAD_TRIAL, DEFAULT_BASE_DEPTH } from "./verdict/policy.js";
import { VERSION } from "./version.js";

/** The whole run for `settings`; the report it returns has passed the redactor (secrets never leave). */
export async function runPipeline(settings: Settings): Promise<Report> {
  return (await pipeline(settings, { forecastOnly: false })).report!;
}

/** Everything up to the forecast, and no trial: `skillgate plan` and the action's on-demand mode. */
export async function forecastPipeline(settings: Settings): Promise<{ forecast: Forecast; scope: Scope }> {
  const out = await pipeline(settings, { forecastOnly: true });
  return { forecast: out.forecast, scope: out.scope };
}

type Scope = NonNullable<Report["scope"]>;

async function pipeline(
  settings: Settings,
  opts: { forecastOnly: boolean },
): Promise<{ report?: Report; forecast: Forecast; scope: Scope }> {
  const started = Date.now();
  const startedAt = new Date(started).toISOString();
  const log = settings.logger;
  // Before anything untrusted runs: how it would be confined (every agent adapter that runs a process, the gate
  // children, predicates, oracles and compiles alike), and whether that is enough for this run.
  const confinement = decideIsolation(await isolation(), settings);
  if (!confinement.go) throw confinement.refused;
  if (confinement.warning) log.warn(confinement.warning);
  const lookup = assertionLookup(assertionRegistry);
  const discover = (dir: string, reuse?: ReuseUnchanged): Discovery => {
    const found = discoverRepository(dir, {
      reuse,
      profile: settings.profile,
      globs: settings.config.skills?.globs,
      include: settings.config.skills?.include,
      exclude: settings.config.skills?.exclude,
      assertionTypes: lookup,
    });
    // Without a judge, natural-language checks are not graded; a case left with none is an error of that case.
    if (!settings.judge) found.diagnostics.push(...withoutJudge(found.skills));
    return found;
  };

  // detect (near-duplicate descriptions make routers guess: warn at both descriptions)
  const head = discover(settings.repoDir);
  head.diagnostics.push(
    ...(settings.policy.warnings ?? []),
    ...nearDuplicateWarnings(head.skills),
    ...outsideGlobsDiagnostics(head.outsideGlobs, settings.changedFiles),
  );
  let checkout: BaseCheckout | undefined;
  try {
    checkout = settings.base ? checkoutBase(settings.repoDir, settings.base) : undefined;
    // With the PR's changed files, the base side reads only the skills the PR touches.
    const base = checkout
      ? discover(
          checkout.dir,
          settings.changedFiles ? { from: head, changedFiles: settings.changedFiles } : undefined,
        )
      : undefined;
    const { changes, beforeShard } = selectChanges(
      classifyChanges(
        { dir: settings.repoDir, skills: head.skills },
        base && checkout ? { dir: checkout.dir, skills: base.skills } : undefined,
        settings.changedFiles,
      ),
      head.skills,
      settings,
    );
    // Nothing found is a misconfiguration (a wrong folder, wrong globs), never a clean pass.
    if (head.skills.length === 0 && (base?.skills.length ?? 0) === 0)
      throw new InputError(
        head.outsideGlobs.length > 0
          ? `no skill found in ${settings.repoDir}${checkout ? " or its base" : ""} within the configured skills globs (${(settings.config.skills?.globs ?? []).join(", ") || "include/exclude"}); ${head.outsideGlobs.length} SKILL.md file(s) lie outside them (${head.outsideGlobs.slice(0, 3).join(", ")}${head.outsideGlobs.length > 3 ? ", …" : ""})`
          : `no skill found in ${settings.repoDir}${checkout ? " or its base" : ""}: no SKILL.md file anywhere (git-ignored, vendored and node_modules folders are not read); point --repo / working-directory at the repository`,
      );
    const toEvaluate = changes.filter((c) => c.batteries.discriminator || c.batteries.trigger).length;
    const scope = {
      skillsFound: head.skills.length,
      selected: changes.length,
      evaluated: toEvaluate,
      message:
        changes.length === 0
          ? settings.shard && beforeShard > 0
            ? `${head.skills.length} skill(s) found; shard ${settings.shard.index}/${settings.shard.total} got none of the ${beforeShard} selected skill(s): nothing to evaluate in this shard`
            : checkout
              ? `${head.skills.length} skill(s) found; this change touches none of them: nothing to evaluate`
              : `${head.skills.length} skill(s) found; none selected`
          : `${head.skills.length} skill(s) found, ${changes.length} selected, ${toEvaluate} with batteries to run`,
    };
    log.info(
      `skillgate ${VERSION}: ${scope.message}` +
        (checkout ? ` (against base ${checkout.ref ?? checkout.dir})` : " (sweep)"),
    );

    // The router's catalogue is every skill of the checkout: a skill without a suite is seen, and can take work.
    const headArm: Arm = { name: "head", repoDir: settings.repoDir, skills: head.skills };
    const baseArm: Arm | undefined =
      base && checkout ? { name: "base", repoDir: checkout.dir, skills: base.skills } : undefined;

    // plan: jobs per skill and arm; a skill whose own files do not validate is not run (fail-closed)
    const headErrors = head.diagnostics.filter((d) => d.severity === "error");
    // Errors in files no skill owns (a SKILL.md dropped as a duplicate, a stray suite file) are never evaluated:
    // they block unless the change leaves the file alone.
    const changed = settings.changedFiles && checkout ? new Set(settings.changedFiles) : undefined;
    const repositoryErrors = headErrors.filter(
      (d) => !head.skills.some((s) => skillOwnsFile(s, d.file)) && (!changed || changed.has(d.file)),
    );
    const judge: Judge | undefined = settings.judge ? createJudge(settings.judge) : undefined;
    const jobs: {
      info: SkillChangeInfo;
      head?: SkillJob;
      base?: SkillJob;
      errors: string[];
      validation: Diagnostic[];
    }[] = [];
    for (const info of changes) {
      // An error is as small as what it breaks: one of a case (or a trigger file) is that part's root, and the
      // rest of the skill runs; any other error of the skill's files keeps the whole skill from running.
      const problems = info.head
        ? splitSkillProblems(
            info.head,
            headErrors.filter((d) => skillOwnsFile(info.head!, d.file)),
          )
        : { skill: [], parts: [], triggerBroken: false };
      const validation = [...problems.skill, ...problems.parts];
      if (baseArm && settings.requireSuite) validation.push(...suiteRequired(info));
      const entry = { info, errors: [] as string[], validation } as (typeof jobs)[number];
      jobs.push(entry);
      const batteries = {
        discriminator: info.batteries.discriminator && (info.head?.suite?.cases.length ?? 0) > 0,
        trigger: info.batteries.trigger && !problems.triggerBroken,
      };
      // In a PR a skill without a suite still runs its routing check (the prompts of other skills it may take).
      const runnable =
        info.head &&
        (info.head.suite || baseArm) &&
        (batteries.discriminator || batteries.trigger) &&
        problems.skill.length === 0;
      if (!runnable || !info.head) continue;
      const headVars = info.head.suite ? await resolveVars(info.head.suite, settings.repoDir) : { vars: {} };
      if (headVars.error) entry.errors.push(headVars.error);
      const baseVars =
        baseArm && info.base?.suite ? await resolveVars(info.base.suite, baseArm.repoDir) : undefined;
      if (baseVars?.error) entry.errors.push(`base: ${baseVars.error}`);
      // Expected values are policy: the base's oracle and vars decide every value the base defines, for both
      // arms; the PR's own define only values the base has none for (a new case's placeholders).
      const vars = { ...headVars.vars, ...(baseVars?.vars ?? {}) };
      // In a PR only the likeliest competitor and case prompts run (a sweep runs every trigger set's prompts).
      const caps = baseArm
        ? { competitors: settings.competitorPrompts, casePrompts: settings.casePrompts }
        : undefined;
      const headJob = makeJob(headArm, info.head, batteries, vars, undefined, caps);
      if (!batteries.discriminator && headJob.queries.size === 0) continue;
      entry.head = headJob;
      if (baseArm && info.base && (info.base.suite || headJob.queries.size > 0)) {
        const baseBatteries = { ...batteries, discriminator: batteries.discriminator && !!info.base.suite };
        entry.base = makeJob(baseArm, info.base, baseBatteries, baseVars?.vars ?? {}, headJob, caps);
      }
      // Per-case oracles, with the same rule: a case the base has takes the base's values.
      const headCases = info.head.suite
        ? await resolveCaseVars(info.head.suite, settings.repoDir)
        : { vars: new Map<string, Record<string, unknown>>(), errors: [] };
      const baseCases = entry.base?.skill.suite
        ? await resolveCaseVars(entry.base.skill.suite, baseArm!.repoDir)
        : undefined;
      entry.errors.push(...headCases.errors, ...(baseCases?.errors ?? []).map((e) => `base: ${e}`));
      const caseVars = new Map(headCases.vars);
      for (const [id, v] of baseCases?.vars ?? []) caseVars.set(id, { ...caseVars.get(id), ...v });
      entry.errors.push(...templateJob(entry.head, caseVars));
      if (entry.base)
        entry.errors.push(...templateJob(entry.base, baseCases?.vars ?? new Map()).map((e) => `base: ${e}`));
    }

    // run + grade: the first batch of every job, both arms with the trials the trusted policy sets
    const trialsOf = (job: SkillJob) => {
      const j = jobs.find((x) => x.head === job || x.base === job)!;
      return trialsFor(settings, j.info);
    };
    // Paths in the agent's configuration (a command script, replay recordings) name files of the trusted tree.
    const ledger = new TrialLedger(settings, {
      agentDir: settings.policy.agentDir ?? settings.policy.dir ?? checkout?.dir ?? settings.repoDir,
    });
    const runs: JobTrials[] = jobs.flatMap((j) =>
      [j.head, j.base]
        .filter((x): x is SkillJob => !!x)
        .map((job) => ({
          job,
          requests: planJob(job, {
            trials: trialsOf(job),
            triggerRuns: settings.triggerRuns,
            seed: settings.seed,
          }),
          checks: [] as CheckResult[],
        })),
    );
    // The default branch pays for the base once: a sweep stores `baseDepth` trials per case, a PR's base arm reads them.
    const deeper = await addStoredTrials(runs, ledger, {
      depth: settings.verdict.baseDepth ?? DEFAULT_BASE_DEPTH,
      sweep: !baseArm,
      seed: settings.seed,
      cacheEnabled: settings.cache.enabled,
    });
    // forecast: what the first batch will spend, said before it spends; over the budget nothing runs (fail-closed)
    const forecast = await ledger.forecast(
      runs.flatMap((r) =>
        r.requests.map((request) => ({
          skill: r.job.skill.name,
          battery: batteryOf(request.mode),
          arm: r.job.arm.name,
          request,
        })),
      ),
      {
        maxConfirmationTrials: settings.verdict.maxConfirmationTrials,
        baseTrialsPerHeadTrial: BASE_TRIALS_PER_HEAD_TRIAL,
      },
    );
    for (const line of renderForecast(forecast)) log.info(line);
    if (opts.forecastOnly) return { forecast, scope };
    if (forecast.overBudget)
      ledger.refuse(
        runs.flatMap((r) => r.requests),
        forecast.overBudget,
      );
    else
      await ledger.run(
        runs.flatMap((r) => r.requests),
        "first batch",
      );
    const gradeOpts = { judge, gateSeed: settings.seed };
    for (const r of runs) r.checks = await gradeJob(r.job, r.requests, ledger.records, gradeOpts);
    // error-recovery probes that failed get their own answer and failures back (robustness only, not the verdict)
    const recovery = await recoverProbes(
      runs.filter((r) => r.job.arm.name === "head"),
      {
        records: ledger.records,
        run: (requests) => ledger.run(requests),
        grade: (job, requests) => gradeJob(job, requests, ledger.records, gradeOpts),
      },
    );

    // verdict: new roots decided over the whole PR (one α for the family), with sequential confirmation trials
    // on suspects: decide → plan → run → grade → decide again, until every root is decided.
    const armChecks = (arm: Arm["name"]) =>
      runs.filter((r) => r.job.arm.name === arm).flatMap((r) => r.checks);
    const decider = new RootDecider(
      armChecks("head"),
      baseArm ? armChecks("base") : undefined,
      settings.verdict,
      {
        canConfirm: !!baseArm,
      },
    );
    for (let req = decider.next(); req; req = decider.next()) {
      const planned = planConfirmation(runs, req, { seed: settings.seed });
      const ran = await ledger.run(
        planned.flatMap((p) => p.requests),
        `confirmation round ${req.look - 1} of ≤${decider.rounds}: ${req.roots.length} suspect(s)`,
      );
      if (ran.budgetExhausted) {
        decider.abort(ran.budgetExhausted);
        break;
      }
      const batch: ConfirmationBatch = { head: [], base: [] };
      for (const p of planned) {
        const graded = await gradeJob(p.run.job, p.requests, ledger.records, gradeOpts);
        p.run.requests.push(...p.requests);
        p.run.checks.push(...graded);
        batch[p.run.job.arm.name].push(...graded);
      }
      decider.observe(batch);
    }
    const decisions = decider.decisions();
    const runOf = (job: SkillJob | undefined) => (job ? runs.find((r) => r.job === job) : undefined);

    // skill-creator compatible exports (benchmark.json, grading.json per run) next to the JSON report
    if (settings.outputs.exports)
      for (const j of jobs) {
        if (!j.head?.skill.suite || !j.info.batteries.discriminator) continue;
        const headRun = runOf(j.head)!;
        const jobChecks = headRun.checks;
        const reqs = headRun.requests.filter((r) => r.mode !== "trigger");
        // A plugin's skill (`plugin:skill`) gets a folder per plugin.
        await writeSkillCreatorExports(join(settings.outputs.exports, ...j.info.name.split(":")), {
          skill: { name: j.info.name, path: j.head.skill.path },
          suite: j.head.skill.suite,
          records: reqs.map((r) => ({
            ...ledger.records.get(r.key)!,
            skill: r.skill,
            caseId: r.caseId,
            mode: r.mode,
            trial: r.trial,
          })),
          checks: jobChecks,
          discriminator: summariseDiscriminator(jobChecks.filter((c) => c.mode !== "trigger")),
          executorModel: ledger.identity,
          timestamp: startedAt,
        });
      }

    // report
    const outcomes: SkillOutcomeInput[] = jobs.map((j) => ({
      info: j.info,
      headChecks: runOf(j.head)?.checks ?? [],
      baseChecks: runOf(j.base)?.checks,
      decisions: decisions.filter((d) => d.skill === j.info.name),
      errors: j.errors,
      validation: j.validation,
      headRecords: (runOf(j.head)?.requests ?? []).map((r) => ({
        request: r,
        record: ledger.records.get(r.key)!,
      })),
      baseRecords: (runOf(j.base)?.requests ?? []).map((r) => ({
        request: r,
        record: ledger.records.get(r.key)!,
      })),
      baseSuite: j.info.base?.suite,
      ...(j.head && recovery.has(j.head) ? { recovery: recovery.get(j.head) } : {}),
      ...(j.head ? { trials: { perCase: trialsOf(j.head), triggerRuns: settings.triggerRuns } } : {}),
      ...(deeper.has(j.info.name)
        ? { deeper: { [baseArm ? "basePerCase" : "headPerCase"]: deeper.get(j.info.name) } }
        : {}),
    }));
    await ledger.recordUsage();
    // Secrets never leave: every string of the report (trial outputs, messages, paths) passes the redactor.
    const report = outputRedactor().redactDeep(
      buildReport({
        settings,
        startedAt,
        durationMs: Date.now() - started,
        identity: ledger.identity,
        head: { sha: headSha(settings.repoDir) },
        base: checkout
          ? {
              ref: checkout.ref,
              sha: checkout.sha,
              tip:
                settings.base?.kind === "ref" && settings.base.tip !== checkout.sha
                  ? settings.base.tip
                  : undefined,
              dir: settings.base?.kind === "dir" ? checkout.dir : undefined,
            }
          : undefined,
        outcomes,
        diagnostics: head.diagnostics,
        repositoryErrors,
        cost: ledger.cost,
        runErrors: ledger.runErrors,
        attribution: attributeRoots(armChecks("head")),
        records: [...ledger.records.values()],
        trees: { head: settings.repoDir, ...(checkout ? { base: checkout.dir } : {}) },
        scope,
        isolation: confinement.report,
      }),
    );
    report.forecast = forecast;
    report.rounds = ledger.rounds;
    return { report, forecast, scope };
  } finally {
    checkout?.dispose();
  }
}

/**
 * Trials per case for a skill, by the trusted policy: `--trials`, else the base suite's meta.json (in a sweep the
 * checkout's), else the config's default; a suite new in this PR may raise its trials above the default, never
 * lower them.
 */
export function trialsFor(settings: Settings, info: SkillChangeInfo): number {
  if (settings.trialsOverride !== undefined) return settings.trialsOverride;
  // A sweep vouches for the checkout itself: its meta.json is the policy.
  if (!settings.base) return info.head?.suite?.meta.trials ?? settings.trials;
  const base = info.base?.suite?.meta.trials;
  if (base !== undefined) return base;
  if (info.base?.suite) return settings.trials;
  return Math.max(settings.trials, info.head?.suite?.meta.trials ?? 0);
}

/**
 * Sweeps, filters and shards. Other skills a changed description may compete with are not re-run whole: their
 * should-fire prompts likeliest to be stolen run as the changed skill's cross-skill negatives (`makeJob`).
 */
/**
 * The skills to evaluate (and how many were selected before sharding, to tell an empty shard from an untouched
 * repository). A router-only proxy agent answers no discriminator prompt: that battery does not run for it.
 */
function selectChanges(
  changes: SkillChangeInfo[],
  _headSkills: Skill[],
  settings: Settings,
): { changes: SkillChangeInfo[]; beforeShard: number } {
  let out = changes
    .filter((c) => c.change !== "unchanged")
    .map((c) => withoutRouterOnlyBatteries(c, settings));
  if (settings.skillsFilter) {
    const match = picomatch(settings.skillsFilter, { dot: true });
    const matches = (c: SkillChangeInfo) => {
      const s = c.head ?? c.base;
      // A skill's name selects every copy of it (`<name>@<folder>`: `nameCopies`).
      return match(c.name) || (!!s && (match(agentNameOf(s)) || match(s.path) || match(s.dir)));
    };
    // A filter that names no skill at all is a typo, not an empty (and so passing) selection.
    if (!changes.some(matches))
      throw new InputError(
        `--skills ${settings.skillsFilter} matches none of the ${changes.length} skill(s) found (${changes
          .slice(0, 8)
          .map((c) => c.name)
          .join(
            ", ",
          )}${changes.length > 8 ? ", …" : ""}); it is matched against skill names, SKILL.md paths and skill folders`,
      );
    out = out.filter(matches);
  }
  const beforeShard = out.length;
  if (settings.shard)
    out = assignShard(
      out.map((c) => ({ ...c, expectedCost: expectedCost(c) })),
      settings.shard.index,
      settings.shard.total,
    );
  return { changes: out.sort((a, b) => a.name.localeCompare(b.name)), beforeShard };
}

/** Agents that route but never answer (`lexical`): their canned line is no answer a discriminator could grade. */
export const ROUTER_ONLY_AGENTS = new Set(["lexical"]);

function withoutRouterOnlyBatteries(c: SkillChangeInfo, settings: Settings): SkillChangeInfo {
  if (!ROUTER_ONLY_AGENTS.has(settings.agent.adapter) || !c.batteries.discriminator) return c;
  return {
    ...c,
    batteries: { ...c.batteries, discriminator: false },
    reason: `${c.reason}; discriminator battery not run: the ${settings.agent.adapter} proxy is a router, not an agent (it answers no prompt)`,
  };
}

/**
 * The base config's `requireSuite`: a skill new in this PR without an eval suite (no case and no trigger prompt) is
 * an error located on its SKILL.md, blocking like any invalid file of the skill.
 */
function suiteRequired(info: SkillChangeInfo): Diagnostic[] {
  const s = info.head;
  if (!s || info.change !== "new") return [];
  const suite = s.suite;
  const prompts = (suite?.cases.length ?? 0) + (suite?.trigger?.shouldFire.length ?? 0);
  if (prompts > 0) return [];
  return [
    {
      ...(s.loc.name ?? s.loc.frontmatter),
      severity: "error",
      code: "skill/suite-required",
      message: `${s.name} is new and has ${suite ? "an eval suite with no case and no should-fire prompt" : "no eval suite"}; the base configuration requires one for every new skill (requireSuite). Add cases (\`skillgate init ${s.name}\`) so its work and its routing are gated`,
    },
  ];
}

/** Expected cost of a skill's batteries, in trials: what shards are balanced by. */
function expectedCost(c: SkillChangeInfo): number {
  const s = c.head?.suite;
  if (!s) return 1;
  const cases = c.batteries.discriminator ? s.cases.length * 2 : 0;
  const queries = c.batteries.trigger
    ? (s.trigger?.shouldFire.length ?? 0) + (s.trigger?.shouldNotFire.length ?? 0)
    : 0;
  return cases + queries + 1;
}
