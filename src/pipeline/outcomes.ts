/**
 * The pipeline's last stage: each skill's outcome (its checks, decisions, trials and records per arm) and the
 * report built over them, redacted.
 */
import type { BaseCheckout } from "../detect/base.js";
import { headSha } from "../detect/base.js";
import type { Diagnostic, RecoveryTrial, Report, Settings } from "../model/index.js";
import type { SkillJob } from "../plan/job.js";
import type { TrialLedger } from "../run/ledger.js";
import { outputRedactor } from "../util/redact.js";
import type { RootDecision } from "../verdict/new-roots.js";
import type { SkillDecisions, SkillOutcomeInput } from "../verdict/skill.js";
import { buildReport, type ReportInput } from "./assemble.js";
import type { Detection } from "./detect.js";
import type { FirstBatch } from "./first-batch.js";
import { type SkillPlan, trialsFor } from "./jobs.js";

/** What every trial and decision of the run came to, per skill. */
export interface RunResults {
  batch: FirstBatch;
  recovery: Map<SkillJob, RecoveryTrial[]>;
  decisions: RootDecision[];
}

/** Each selected skill's outcome, in the order of `plans`. */
export function skillOutcomes(
  settings: Settings,
  plans: SkillPlan[],
  results: RunResults,
  ledger: TrialLedger,
  withBase: boolean,
): SkillOutcomeInput[] {
  const { runs, deeper } = results.batch;
  const runOf = (job: SkillJob | undefined) => (job ? runs.find((r) => r.job === job) : undefined);
  const recordsOf = (job: SkillJob | undefined) =>
    (runOf(job)?.requests ?? []).map((r) => ({ request: r, record: ledger.records.get(r.key)! }));
  return plans.map((p) => ({
    info: p.info,
    headChecks: runOf(p.head)?.checks ?? [],
    baseChecks: runOf(p.base)?.checks,
    decisions: results.decisions.filter((d) => d.skill === p.info.name),
    errors: p.errors,
    validation: p.validation,
    preExistingValidation: p.preExistingValidation,
    headRecords: recordsOf(p.head),
    baseRecords: recordsOf(p.base),
    baseSuite: p.info.base?.suite,
    ...(p.head && results.recovery.has(p.head) ? { recovery: results.recovery.get(p.head) } : {}),
    ...(p.head
      ? { trials: { perCase: trialsFor(settings, p.info), triggerRuns: settings.triggerRuns } }
      : {}),
    ...(deeper.has(p.info.name)
      ? { deeper: { [withBase ? "basePerCase" : "headPerCase"]: deeper.get(p.info.name) } }
      : {}),
  }));
}

/** The run as seen from outside: where it ran, what it found and decided, what it cost. */
export interface RunContext {
  settings: Settings;
  started: number;
  detected: Detection;
  checkout: BaseCheckout | undefined;
  repositoryErrors: { introduced: Diagnostic[]; preExisting: Diagnostic[] };
  isolation: Report["isolation"];
}

/** The report (secrets never leave: every string of it, trial outputs, messages, paths, passes the redactor). */
export function assembleReport(
  run: RunContext,
  outcomes: SkillOutcomeInput[],
  decided: SkillDecisions,
  ledger: TrialLedger,
): Report {
  const { settings, checkout } = run;
  return outputRedactor().redactDeep(
    buildReport({
      settings,
      startedAt: new Date(run.started).toISOString(),
      durationMs: Date.now() - run.started,
      identity: ledger.identity,
      head: { sha: headSha(settings.repoDir) },
      base: checkout ? baseOf(settings, checkout) : undefined,
      outcomes,
      decisions: decided.skills,
      diagnostics: run.detected.head.diagnostics,
      repositoryErrors: run.repositoryErrors.introduced,
      preExistingErrors: run.repositoryErrors.preExisting,
      listingRoots: decided.unownedListingRoots,
      cost: ledger.cost,
      runErrors: ledger.runErrors,
      records: [...ledger.records.values()],
      trees: checkoutsOf(settings, checkout),
      scope: run.detected.scope,
      isolation: run.isolation,
    }),
  );
}

/** The checkouts a run compares: the head's, and the base's in a PR. */
export function checkoutsOf(
  settings: Settings,
  checkout: BaseCheckout | undefined,
): { head: string; base?: string } {
  return { head: settings.repoDir, ...(checkout ? { base: checkout.dir } : {}) };
}

/** The base the report names: the merge base, and the branch's tip when it differs. */
function baseOf(settings: Settings, checkout: BaseCheckout): NonNullable<ReportInput["base"]> {
  return {
    ref: checkout.ref,
    sha: checkout.sha,
    tip: settings.base?.kind === "ref" && settings.base.tip !== checkout.sha ? settings.base.tip : undefined,
    dir: settings.base?.kind === "dir" ? checkout.dir : undefined,
  };
}
