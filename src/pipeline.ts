/**
 * The one engine behind the CLI and the action: detect → plan → run → grade → attribute → verdict → report.
 * No GitHub I/O in here; the entry points hand in `Settings` and get a `Report`.
 */
import { join } from "node:path";
import picomatch from "picomatch";
import { writeRecordings } from "./agents/replay.js";
import { attributeRoots } from "./attribute/roots.js";
import { assertionLookup } from "./detect/assertion-types.js";
import { type BaseCheckout, checkoutBase, headSha } from "./detect/base.js";
import { classifyChanges, competitors, type SkillChangeInfo } from "./detect/changes.js";
import { type Discovery, discoverRepository, type ReuseUnchanged } from "./detect/discover.js";
import "./grade/assertions/index.js";
import * as assertionRegistry from "./grade/assertions/registry.js";
import { summariseDiscriminator } from "./grade/discriminator.js";
import { createJudge, type Judge } from "./grade/judge.js";
import { nearDuplicateWarnings } from "./grade/lexical-router.js";
import { resolveVars } from "./grade/oracle.js";
import type {
  CheckResult,
  Diagnostic,
  Report,
  Settings,
  Skill,
  TrialMode,
  TrialRecord,
  TrialRequest,
} from "./model/index.js";
import { type Arm, gradeJob, makeJob, planJob, type SkillJob, uniqueByKey } from "./pipeline/arm.js";
import { buildReport, type SkillOutcomeInput } from "./pipeline/assemble.js";
import { assignShard } from "./plan/shard.js";
import { writeSkillCreatorExports } from "./report/exports.js";
import { runTrials } from "./run/runner.js";
import { decideNewRoots } from "./verdict/new-roots.js";
import { VERSION } from "./version.js";

export async function runPipeline(settings: Settings): Promise<Report> {
  const started = Date.now();
  const startedAt = new Date(started).toISOString();
  const log = settings.logger;
  const lookup = assertionLookup(assertionRegistry);
  const discover = (dir: string, reuse?: ReuseUnchanged): Discovery =>
    discoverRepository(dir, {
      reuse,
      profile: settings.profile,
      globs: settings.config.skills?.globs,
      include: settings.config.skills?.include,
      exclude: settings.config.skills?.exclude,
      assertionTypes: lookup,
    });

  // detect (near-duplicate descriptions make routers guess: warn at both descriptions)
  const head = discover(settings.repoDir);
  head.diagnostics.push(...nearDuplicateWarnings(head.skills));
  let checkout: BaseCheckout | undefined;
  try {
    checkout =
      settings.base && settings.base.kind !== "report"
        ? checkoutBase(settings.repoDir, settings.base)
        : undefined;
    // With the PR's changed files, the base side reads only the skills the PR touches.
    const base = checkout
      ? discover(
          checkout.dir,
          settings.changedFiles ? { from: head, changedFiles: settings.changedFiles } : undefined,
        )
      : undefined;
    const changes = selectChanges(
      classifyChanges(
        { dir: settings.repoDir, skills: head.skills },
        base && checkout ? { dir: checkout.dir, skills: base.skills } : undefined,
        settings.changedFiles,
      ),
      head.skills,
      settings,
    );
    log.info(
      `skillgate ${VERSION}: ${head.skills.length} skill(s) found, ${changes.filter((c) => c.batteries.discriminator || c.batteries.trigger).length} to evaluate` +
        (checkout ? ` against base ${checkout.ref ?? checkout.dir}` : " (sweep)"),
    );

    const headArm: Arm = {
      name: "head",
      repoDir: settings.repoDir,
      skills: head.skills.filter((s) => s.suite),
    };
    const baseArm: Arm | undefined =
      base && checkout
        ? { name: "base", repoDir: checkout.dir, skills: base.skills.filter((s) => s.suite) }
        : undefined;

    // plan: jobs per skill and arm; a skill whose own files do not validate is not run (fail-closed)
    const headErrors = head.diagnostics.filter((d) => d.severity === "error");
    const judge: Judge | undefined = settings.judge ? createJudge(settings.judge) : undefined;
    const jobs: {
      info: SkillChangeInfo;
      head?: SkillJob;
      base?: SkillJob;
      errors: string[];
      validation: Diagnostic[];
    }[] = [];
    for (const info of changes) {
      const validation = info.head ? headErrors.filter((d) => ownsFile(info.head!, d.file)) : [];
      const entry = { info, errors: [] as string[], validation } as (typeof jobs)[number];
      jobs.push(entry);
      const runnable =
        info.head?.suite &&
        (info.batteries.discriminator || info.batteries.trigger) &&
        validation.length === 0;
      if (!runnable || !info.head?.suite) continue;
      const headVars = await resolveVars(info.head.suite, settings.repoDir);
      if (headVars.error) entry.errors.push(headVars.error);
      entry.head = makeJob(headArm, info.head, info.batteries, headVars.vars);
      if (baseArm && info.base?.suite) {
        const baseVars = await resolveVars(info.base.suite, baseArm.repoDir);
        if (baseVars.error) entry.errors.push(`base: ${baseVars.error}`);
        entry.base = makeJob(baseArm, info.base, info.batteries, baseVars.vars, entry.head);
      }
    }

    // run + grade
    const planOpts = { trials: settings.trials, triggerRuns: settings.triggerRuns, seed: settings.seed };
    const trialsOf = (job: SkillJob) => job.skill.suite?.meta.trials ?? settings.trials;
    const batches = jobs.flatMap((j) =>
      [j.head, j.base]
        .filter((x): x is SkillJob => !!x)
        .map((job) => ({ job, requests: planJob(job, { ...planOpts, trials: trialsOf(job) }) })),
    );
    const records = new Map<string, TrialRecord>();
    const allRequests: TrialRequest[] = [];
    const cost = { usd: 0, agentCalls: 0, cacheHits: 0, inputTokens: 0, outputTokens: 0 };
    const runErrors: string[] = [];
    let identity = settings.agent.adapter;
    const run = async (requests: TrialRequest[]) => {
      const unique = uniqueByKey(requests).filter((r) => !records.has(r.key));
      if (unique.length === 0) return;
      const outcome = await log.group(`trials (${unique.length})`, () =>
        runTrials(unique, {
          agent: settings.agent,
          repoDir: settings.repoDir,
          concurrency: settings.concurrency,
          timeoutMs: settings.timeoutMs,
          cache: settings.cache,
          budget: remainingBudget(settings, cost),
          logger: log,
          extraEnv: settings.config.env,
          seed: settings.seed,
        }),
      );
      identity = outcome.identity;
      for (const [i, rec] of outcome.records.entries()) records.set(unique[i]!.key, rec);
      if (settings.record) await writeRecordings(settings.record, unique, outcome.records);
      allRequests.push(...unique);
      for (const k of Object.keys(cost) as (keyof typeof cost)[]) cost[k] += outcome.cost[k];
      if (outcome.budgetExhausted && !runErrors.includes(outcome.budgetExhausted))
        runErrors.push(outcome.budgetExhausted);
    };
    await run(batches.flatMap((b) => b.requests));
    const gradeOpts = { judge, gateSeed: settings.seed };
    const checks = new Map<SkillJob, CheckResult[]>();
    for (const b of batches) checks.set(b.job, await gradeJob(b.job, b.requests, records, gradeOpts));

    // attribute + verdict: new roots decided over the whole PR (one α for the family), confirming suspects
    const nextTrial = new Map<SkillJob, number>(batches.map((b) => [b.job, trialsOf(b.job)]));
    // Read again after confirmation, which appends to each job's checks.
    const checksOf = (arm: Arm["name"]) =>
      [...checks.entries()].filter(([j]) => j.arm.name === arm).flatMap(([, c]) => c);
    const headChecks = checksOf("head");
    const baseChecks = baseArm ? checksOf("base") : undefined;
    const confirm = async (ids: string[], extra: number) => {
      const wanted = ids.map(parseRootId);
      const more: { job: SkillJob; requests: TrialRequest[] }[] = [];
      for (const j of jobs)
        for (const job of [j.head, j.base]) {
          if (!job) continue;
          const mine = wanted.filter((w) => (w.skill ? w.skill === j.info.name : true));
          if (!mine.length) continue;
          const onlyCases = new Set(
            mine.filter((w) => !w.checkId.startsWith("trigger/")).map((w) => w.checkId.split("/")[0]!),
          );
          const onlyTriggers = new Set(
            mine.filter((w) => w.checkId.startsWith("trigger/")).map((w) => w.checkId),
          );
          const first = nextTrial.get(job)!;
          const requests = [
            ...(onlyCases.size
              ? planJob(job, {
                  ...planOpts,
                  trials: extra,
                  firstTrial: first,
                  onlyCases,
                  onlyModes: new Set<TrialMode>(["skill"]),
                  onlyTriggers: new Set(),
                })
              : []),
            ...(onlyTriggers.size
              ? planJob(job, {
                  ...planOpts,
                  triggerRuns: extra,
                  trials: 0,
                  firstTrial: first,
                  onlyTriggers,
                  onlyModes: new Set<TrialMode>(["trigger"]),
                })
              : []),
          ];
          nextTrial.set(job, first + extra);
          if (requests.length) more.push({ job, requests });
        }
      await run(more.flatMap((m) => m.requests));
      const out = { head: [] as CheckResult[], base: [] as CheckResult[] };
      for (const m of more) {
        const graded = await gradeJob(m.job, m.requests, records, gradeOpts);
        checks.get(m.job)!.push(...graded);
        out[m.job.arm.name].push(...graded);
      }
      return out;
    };
    const decisions = await decideNewRoots(headChecks, baseChecks, settings.verdict, confirm);

    // skill-creator compatible exports (benchmark.json, grading.json per run) next to the JSON report
    if (settings.outputs.exports)
      for (const j of jobs) {
        if (!j.head?.skill.suite || !j.info.batteries.discriminator) continue;
        const jobChecks = checks.get(j.head) ?? [];
        const reqs = allRequests.filter((r) => r.skill === j.info.name && r.mode !== "trigger");
        await writeSkillCreatorExports(join(settings.outputs.exports, j.info.name), {
          skill: { name: j.info.name, path: j.head.skill.path },
          suite: j.head.skill.suite,
          records: reqs.map((r) => ({
            ...records.get(r.key)!,
            skill: r.skill,
            caseId: r.caseId,
            mode: r.mode,
            trial: r.trial,
          })),
          checks: jobChecks,
          discriminator: summariseDiscriminator(jobChecks.filter((c) => c.mode !== "trigger")),
          executorModel: identity,
          timestamp: startedAt,
        });
      }

    // report
    const outcomes: SkillOutcomeInput[] = jobs.map((j) => ({
      info: j.info,
      headChecks: j.head ? (checks.get(j.head) ?? []) : [],
      baseChecks: j.base ? (checks.get(j.base) ?? []) : undefined,
      decisions: decisions.filter((d) => d.skill === j.info.name),
      errors: j.errors,
      validation: j.validation,
      headRecords: j.head
        ? allRequests
            .filter((r) => r.skill === j.info.name)
            .map((r) => ({ request: r, record: records.get(r.key)! }))
        : [],
      baseSuite: j.info.base?.suite,
    }));
    return buildReport({
      settings,
      startedAt,
      durationMs: Date.now() - started,
      identity,
      head: { sha: headSha(settings.repoDir) },
      base: checkout
        ? {
            ref: checkout.ref,
            sha: checkout.sha,
            dir: settings.base?.kind === "dir" ? checkout.dir : undefined,
          }
        : undefined,
      outcomes,
      diagnostics: head.diagnostics,
      cost,
      runErrors,
      attribution: attributeRoots(checksOf("head")),
      records: [...records.values()],
    });
  } finally {
    checkout?.dispose();
  }
}

/** Root ids from the verdict stage: `skill|mode|checkId` keys or bare check ids. */
function parseRootId(id: string): { skill?: string; mode?: string; checkId: string } {
  const parts = id.split("|");
  return parts.length === 3 ? { skill: parts[0], mode: parts[1], checkId: parts[2]! } : { checkId: id };
}

function ownsFile(skill: Skill, file: string): boolean {
  return (
    file.startsWith(`${skill.dir}/`) ||
    !!skill.suite?.sourceFiles.includes(file) ||
    (!!skill.suite && file.startsWith(`${skill.suite.root}/`))
  );
}

/** Sweeps, filters and shards; adds the competitors of an edited description to the trigger batteries. */
function selectChanges(
  changes: SkillChangeInfo[],
  headSkills: Skill[],
  settings: Settings,
): SkillChangeInfo[] {
  let out = changes.filter((c) => c.change !== "unchanged");
  const names = new Set(out.map((c) => c.name));
  for (const c of changes.filter((x) => x.descriptionChanged && x.head))
    for (const other of competitors(c.head!, headSkills)) {
      if (names.has(other.name)) continue;
      const existing = changes.find((x) => x.name === other.name);
      if (!existing) continue;
      names.add(other.name);
      out.push({
        ...existing,
        batteries: { discriminator: false, trigger: true },
        reason: `trigger battery: its router may compete with ${c.name}'s new description`,
      });
    }
  if (settings.skillsFilter) {
    const match = picomatch(settings.skillsFilter, { dot: true });
    out = out.filter((c) => match(c.name) || (c.head && match(c.head.path)) || (c.head && match(c.head.dir)));
  }
  if (settings.shard)
    out = assignShard(
      out.map((c) => ({ ...c, expectedCost: expectedCost(c) })),
      settings.shard.index,
      settings.shard.total,
    );
  return out.sort((a, b) => a.name.localeCompare(b.name));
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

function remainingBudget(
  settings: Settings,
  spent: { usd: number; agentCalls: number; inputTokens: number; outputTokens: number },
) {
  const b = settings.budget;
  return {
    maxUsd: b.maxUsd === undefined ? undefined : Math.max(0, b.maxUsd - spent.usd),
    maxTokens:
      b.maxTokens === undefined
        ? undefined
        : Math.max(0, b.maxTokens - spent.inputTokens - spent.outputTokens),
    maxAgentCalls:
      b.maxAgentCalls === undefined ? undefined : Math.max(0, b.maxAgentCalls - spent.agentCalls),
  };
}
