/**
 * Grades one trial: one CheckResult per assertion of the case (`<caseId>/<assertionId>`) plus the implicit
 * `<caseId>/trial-ok`. Assertions run in `depends_on` order; a dependency that did not pass skips its dependents,
 * a false `condition` skips the assertion, a trial error skips everything. Nothing that could not be evaluated
 * ever counts as a pass.
 */
import {
  type AssertionOutcome,
  type CheckResult,
  type CheckStatus,
  CONDITION_FALSE,
} from "../model/check.js";
import type { Assertion, Case, Suite } from "../model/suite.js";
import type { TrialRecord } from "../model/trial.js";
import "./assertions/index.js";
import { getAssertionType, levelOf, resolvedParamsProblems } from "./assertions/registry.js";
import type { Judge } from "./judge.js";
import type { GradeServices } from "./ports.js";
import { defaultServices } from "./services.js";
import {
  ConditionError,
  evaluateCondition,
  PlaceholderError,
  placeholderNames,
  resolvePlaceholders,
  show,
} from "./vars.js";

/** Checks of which skills the agent activated: not graded on a baseline trial, which has none installed. */
const ACTIVATION_TYPES = new Set(["skill-used", "not-skill-used"]);
const BASELINE_ACTIVATION = "a baseline trial has no skill installed: activation is not checked";

export const TRIAL_OK = "trial-ok";

export interface GradeTrialInput {
  suite: Suite;
  caseDef: Case;
  trial: TrialRecord;
  vars: Record<string, unknown>;
  /** What the case's own oracle computed: overrides `vars` and the case's `vars`. */
  caseVars?: Record<string, unknown>;
  repoDir: string;
  judge?: Judge;
  gateSeed: number;
  /** The sandbox and gates; tests may pass their own. */
  services?: GradeServices;
}

export function checkIdOf(caseId: string, assertionId: string): string {
  return `${caseId}/${assertionId}`;
}

export async function gradeTrial(input: GradeTrialInput): Promise<CheckResult[]> {
  const { suite, caseDef, trial } = input;
  const vars = { ...input.vars, ...caseDef.vars, ...(input.caseVars ?? {}) };
  const trialOkId = checkIdOf(caseDef.id, TRIAL_OK);
  const base = (a: { id: string; discriminator: boolean }) => ({
    checkId: checkIdOf(caseDef.id, a.id),
    skill: suite.skill,
    caseId: caseDef.id,
    assertionId: a.id,
    mode: trial.mode,
    trial: trial.trial,
    discriminator: a.discriminator,
  });

  const trialOk: CheckResult = {
    ...base({ id: TRIAL_OK, discriminator: false }),
    status: trial.error ? (trial.error.kind === "contaminated" ? "fail" : "error") : "pass",
    message: trial.error
      ? `${where(caseDef.loc)}: trial ${trial.trial} (${trial.mode}) of case ${caseDef.id} failed: ${trial.error.kind}: ${trial.error.message}`
      : `${where(caseDef.loc)}: trial ${trial.trial} (${trial.mode}) of case ${caseDef.id} ran`,
    ...(trial.error ? { details: { errorKind: trial.error.kind } } : {}),
    dependsOn: [],
    loc: caseDef.loc,
  };
  const results: CheckResult[] = [trialOk];

  const byId = new Map(caseDef.assertions.map((a) => [a.id, a]));
  const done = new Map<string, CheckResult>();
  const visiting = new Set<string>();

  const resultFor = async (a: Assertion): Promise<CheckResult> => {
    const existing = done.get(a.id);
    if (existing) return existing;
    const common = {
      ...base(a),
      level: levelOf(a),
      dependsOn: [trialOkId, ...a.dependsOn.map((d) => checkIdOf(caseDef.id, d))],
      loc: a.loc,
    };
    const finish = (status: CheckStatus, message: string, extra: Partial<CheckResult> = {}): CheckResult => {
      // In a depends_on cycle the first verdict (the cycle error) stands.
      const settled = done.get(a.id);
      if (settled) return settled;
      const r: CheckResult = {
        ...common,
        status,
        message: `${where(a.loc)}: ${a.id} (${a.rawType}): ${message}`,
        ...extra,
      };
      done.set(a.id, r);
      return r;
    };

    if (trial.error) {
      // An assertion whose condition is false would not have applied anyway: it does not count against the trial.
      if (a.condition !== undefined && conditionIsFalse(a.condition, vars)) {
        return finish("skipped", `skipped: ${CONDITION_FALSE}`, { skipReason: CONDITION_FALSE });
      }
      const reason = `trial error (${trial.error.kind})`;
      return finish("skipped", `skipped: ${reason}`, { skipReason: reason });
    }
    // A baseline has no skill installed: whether it activated one says nothing about it (and `skill-used` would
    // fail every baseline trial, a red mark beside a trial that did what it should).
    if (trial.mode === "baseline" && ACTIVATION_TYPES.has(a.type))
      return finish("skipped", `skipped: ${BASELINE_ACTIVATION}`, { skipReason: BASELINE_ACTIVATION });
    if (visiting.has(a.id)) return finish("error", `depends_on cycle through ${a.id}`);
    visiting.add(a.id);
    for (const depId of a.dependsOn) {
      const dep = byId.get(depId);
      if (!dep)
        return finish(
          "error",
          `depends_on names "${depId}", which is not an assertion of case ${caseDef.id}`,
        );
      const depResult = await resultFor(dep);
      if (depResult.status !== "pass") {
        const reason =
          depResult.status === "skipped" ? `dependency skipped: ${depId}` : `dependency failed: ${depId}`;
        return finish("skipped", `skipped: ${reason}`, { skipReason: reason });
      }
    }
    visiting.delete(a.id);

    let resolved: Assertion;
    try {
      if (a.condition !== undefined && !evaluateCondition(a.condition, vars)) {
        return finish("skipped", `skipped: ${CONDITION_FALSE}`, { skipReason: CONDITION_FALSE });
      }
      resolved = { ...a, params: resolvePlaceholders(a.params, vars) };
    } catch (e) {
      if (e instanceof PlaceholderError || e instanceof ConditionError) {
        const known = Object.keys(vars);
        return finish("error", `${e.message} (known vars: ${known.length ? known.join(", ") : "none"})`);
      }
      throw e;
    }

    const type = getAssertionType(a.type);
    if (!type) return finish("error", `unknown assertion type "${a.rawType}"`);
    // A value that came from a variable is checked now that it is known: a list where a list belongs, numbers …
    if (placeholderNames(a.params).length > 0) {
      const problems = resolvedParamsProblems(resolved);
      if (problems.length)
        return finish(
          "error",
          `after placeholders resolve (${show(resolved.params)}): ${problems.join("; ")}`,
        );
    }
    let out: AssertionOutcome;
    try {
      out = await type.evaluate(resolved, {
        // The name the agent knows the skill by (the request's), which it reports activating.
        skill: trial.skill || suite.skill,
        suite,
        caseDef,
        trial,
        vars,
        repoDir: input.repoDir,
        ...(input.judge ? { judge: input.judge } : {}),
        gateSeed: input.gateSeed,
        services: input.services ?? defaultServices,
      });
    } catch (e) {
      out = { pass: false, error: true, message: `evaluation crashed: ${(e as Error).message}` };
    }
    const negated = applyNegation(a, out);
    return finish(negated.error ? "error" : negated.pass ? "pass" : "fail", negated.message, {
      ...(negated.expected !== undefined ? { expected: negated.expected } : {}),
      ...(negated.actual !== undefined ? { actual: negated.actual } : {}),
      ...(negated.evidence !== undefined ? { evidence: negated.evidence } : {}),
      ...(negated.details !== undefined ? { details: negated.details } : {}),
    });
  };

  for (const a of caseDef.assertions) results.push(await resultFor(a));
  return results;
}

/**
 * `not-` flips pass and fail. It never flips an error or a missing value: "no number at all" does not satisfy
 * "the number is not 333".
 */
export function applyNegation(a: Assertion, out: AssertionOutcome): AssertionOutcome {
  if (!a.negate || out.error || out.missingValue) return out;
  const expected = out.expected !== undefined ? `NOT ${out.expected}` : undefined;
  return {
    ...out,
    pass: !out.pass,
    ...(expected !== undefined ? { expected } : {}),
    message:
      expected !== undefined && out.actual !== undefined
        ? `expected ${expected}; saw ${out.actual}`
        : `expected the opposite of: ${out.message}`,
  };
}

function conditionIsFalse(condition: string, vars: Record<string, unknown>): boolean {
  try {
    return !evaluateCondition(condition, vars);
  } catch {
    return false;
  }
}

function where(loc: { file: string; line: number; column: number }): string {
  return `${loc.file}:${loc.line}:${loc.column}`;
}
