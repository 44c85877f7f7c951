/**
 * The pipeline's plan stage: for each selected skill, its job per arm (head, and base in a PR) with the values its
 * checks expect, or why it does not run. Reads only the oracles the suites name; runs no trial.
 */
import type { BaseCheckout } from "../detect/base.js";
import type { SkillChangeInfo } from "../detect/changes.js";
import { splitSkillProblems } from "../detect/part-problems.js";
import { skillOwnsFile } from "../detect/touched.js";
import { templateJob } from "../grade/job.js";
import { resolveCaseVars, resolveVars } from "../grade/oracle.js";
import type { Diagnostic, Settings, Skill } from "../model/index.js";
import { type Arm, makeJob, type QueryCaps, type SkillJob } from "../plan/job.js";
import { type BaseSide, splitPreExisting } from "../verdict/pre-existing.js";
import type { Detection } from "./detect.js";

/** The checkouts a run compares: the head, and the base in a PR. */
export interface Arms {
  head: Arm;
  base?: Arm;
}

/** One selected skill's jobs per arm (none when it does not run), the errors of its values and its validation. */
export interface SkillPlan {
  info: SkillChangeInfo;
  head?: SkillJob;
  base?: SkillJob;
  errors: string[];
  validation: Diagnostic[];
  /** Errors in the skill's files that the base has too, in files the change leaves alone: reported, not blocking. */
  preExistingValidation: Diagnostic[];
}

/** The router's catalogue is every skill of the checkout: a skill without a suite is seen, and can take work. */
export function armsOf(settings: Settings, detected: Detection, checkout: BaseCheckout | undefined): Arms {
  const head: Arm = { name: "head", repoDir: settings.repoDir, skills: detected.head.skills };
  const base =
    detected.base && checkout
      ? { name: "base" as const, repoDir: checkout.dir, skills: detected.base.skills }
      : undefined;
  return { head, base };
}

/**
 * Errors in files no skill owns (a SKILL.md dropped as a duplicate, a stray suite file) are never evaluated: they
 * block, unless the base has them too in a file the change leaves alone (then they are reported, `preExisting`).
 */
export function repositoryErrorsOf(
  settings: Settings,
  detected: Detection,
  checkout: BaseCheckout | undefined,
): { introduced: Diagnostic[]; preExisting: Diagnostic[] } {
  const errors = headErrors(detected).filter(
    (d) => !detected.head.skills.some((s) => skillOwnsFile(s, d.file)),
  );
  return splitPreExisting(errors, settings.repoDir, baseSide(settings, detected, checkout));
}

/** The base's diagnostics and the PR's changed files, for telling pre-existing errors from new ones. */
function baseSide(
  settings: Settings,
  detected: Detection,
  checkout: BaseCheckout | undefined,
): BaseSide | undefined {
  if (!checkout || !detected.base) return undefined;
  return { dir: checkout.dir, diagnostics: detected.base.diagnostics, changedFiles: settings.changedFiles };
}

function headErrors(detected: Detection): Diagnostic[] {
  return detected.head.diagnostics.filter((d) => d.severity === "error");
}

/** Jobs per skill and arm; a skill whose own files do not validate is not run (fail-closed). */
export async function planJobs(
  settings: Settings,
  detected: Detection,
  arms: Arms,
  checkout?: BaseCheckout,
): Promise<SkillPlan[]> {
  const errors = headErrors(detected);
  const base = baseSide(settings, detected, checkout);
  const plans: SkillPlan[] = [];
  for (const info of detected.changes) plans.push(await planSkill(settings, info, arms, errors, base));
  return plans;
}

async function planSkill(
  settings: Settings,
  info: SkillChangeInfo,
  arms: Arms,
  errors: Diagnostic[],
  base: BaseSide | undefined,
): Promise<SkillPlan> {
  // An error is as small as what it breaks: one of a case (or a trigger file) is that part's root, and the rest of
  // the skill runs; any other error of the skill's files keeps the whole skill from running.
  // Errors the base has too, in files this change leaves alone, are reported and do not keep the skill from running.
  const own = splitPreExisting(
    info.head ? errors.filter((d) => skillOwnsFile(info.head!, d.file)) : [],
    settings.repoDir,
    base,
  );
  const problems = info.head
    ? splitSkillProblems(info.head, own.introduced)
    : { skill: [], parts: [], triggerBroken: false };
  const validation = [...problems.skill, ...problems.parts];
  if (arms.base && settings.requireSuite) validation.push(...suiteRequired(info));
  const plan: SkillPlan = { info, errors: [], validation, preExistingValidation: own.preExisting };
  const batteries = {
    discriminator: info.batteries.discriminator && (info.head?.suite?.cases.length ?? 0) > 0,
    trigger: info.batteries.trigger && !problems.triggerBroken,
  };
  // In a PR a skill without a suite still runs its routing check (the prompts of other skills it may take).
  const runnable =
    info.head &&
    (info.head.suite || arms.base) &&
    (batteries.discriminator || batteries.trigger) &&
    problems.skill.length === 0;
  if (!runnable || !info.head) return plan;
  await makeJobs(settings, plan, info.head, arms, batteries);
  return plan;
}

/** The skill's head job and, when the base has it, its base job, each with its expected values in place. */
async function makeJobs(
  settings: Settings,
  plan: SkillPlan,
  headSkill: Skill,
  arms: Arms,
  batteries: { discriminator: boolean; trigger: boolean },
): Promise<void> {
  const { info } = plan;
  const headVars = headSkill.suite ? await resolveVars(headSkill.suite, settings.repoDir) : { vars: {} };
  if (headVars.error) plan.errors.push(headVars.error);
  const baseVars =
    arms.base && info.base?.suite ? await resolveVars(info.base.suite, arms.base.repoDir) : undefined;
  if (baseVars?.error) plan.errors.push(`base: ${baseVars.error}`);
  // Expected values are policy: the base's oracle and vars decide every value the base defines, for both arms; the
  // PR's own define only values the base has none for (a new case's placeholders).
  const vars = { ...headVars.vars, ...(baseVars?.vars ?? {}) };
  // In a PR only the likeliest competitor and case prompts run (a sweep runs every trigger set's prompts).
  const caps: QueryCaps | undefined = arms.base
    ? { competitors: settings.competitorPrompts, casePrompts: settings.casePrompts }
    : undefined;
  const headJob = makeJob(arms.head, headSkill, batteries, vars, undefined, caps);
  if (!batteries.discriminator && headJob.queries.size === 0) return;
  plan.head = headJob;
  if (arms.base && info.base && (info.base.suite || headJob.queries.size > 0)) {
    const baseBatteries = { ...batteries, discriminator: batteries.discriminator && !!info.base.suite };
    plan.base = makeJob(arms.base, info.base, baseBatteries, baseVars?.vars ?? {}, headJob, caps);
  }
  await templateJobs(settings, plan, headSkill, arms);
}

/** Per-case oracles, with the same rule: a case the base has takes the base's values. */
async function templateJobs(
  settings: Settings,
  plan: SkillPlan,
  headSkill: Skill,
  arms: Arms,
): Promise<void> {
  const headCases = headSkill.suite
    ? await resolveCaseVars(headSkill.suite, settings.repoDir)
    : { vars: new Map<string, Record<string, unknown>>(), errors: [] };
  const baseCases = plan.base?.skill.suite
    ? await resolveCaseVars(plan.base.skill.suite, arms.base!.repoDir)
    : undefined;
  plan.errors.push(...headCases.errors, ...(baseCases?.errors ?? []).map((e) => `base: ${e}`));
  const caseVars = new Map(headCases.vars);
  for (const [id, v] of baseCases?.vars ?? []) caseVars.set(id, { ...caseVars.get(id), ...v });
  plan.errors.push(...templateJob(plan.head!, caseVars));
  if (plan.base)
    plan.errors.push(...templateJob(plan.base, baseCases?.vars ?? new Map()).map((e) => `base: ${e}`));
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
