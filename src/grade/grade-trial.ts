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
  const grader = new TrialGrader(input);
  const results: CheckResult[] = [grader.trialOk()];
  for (const a of input.caseDef.assertions) results.push(await grader.resultFor(a));
  return results;
}

type Finish = (status: CheckStatus, message: string, extra?: Partial<CheckResult>) => CheckResult;

/** One trial's assertions, each graded once, dependencies first. */
class TrialGrader {
  private readonly vars: Record<string, unknown>;
  private readonly byId: Map<string, Assertion>;
  private readonly done = new Map<string, CheckResult>();
  private readonly visiting = new Set<string>();

  constructor(private readonly input: GradeTrialInput) {
    const { caseDef } = input;
    this.vars = { ...input.vars, ...caseDef.vars, ...(input.caseVars ?? {}) };
    this.byId = new Map(caseDef.assertions.map((a) => [a.id, a]));
  }

  private base(a: { id: string; discriminator: boolean }) {
    const { suite, caseDef, trial } = this.input;
    return {
      checkId: checkIdOf(caseDef.id, a.id),
      skill: suite.skill,
      caseId: caseDef.id,
      assertionId: a.id,
      mode: trial.mode,
      trial: trial.trial,
      discriminator: a.discriminator,
    };
  }

  /** The implicit `<caseId>/trial-ok`: the trial ran (a contaminated baseline fails it, other errors error it). */
  trialOk(): CheckResult {
    const { caseDef, trial } = this.input;
    return {
      ...this.base({ id: TRIAL_OK, discriminator: false }),
      status: trial.error ? (trial.error.kind === "contaminated" ? "fail" : "error") : "pass",
      message: trial.error
        ? `${where(caseDef.loc)}: trial ${trial.trial} (${trial.mode}) of case ${caseDef.id} failed: ${trial.error.kind}: ${trial.error.message}`
        : `${where(caseDef.loc)}: trial ${trial.trial} (${trial.mode}) of case ${caseDef.id} ran`,
      ...(trial.error ? { details: { errorKind: trial.error.kind } } : {}),
      dependsOn: [],
      loc: caseDef.loc,
    };
  }

  /** How `a` settles: its result is recorded once; in a depends_on cycle the first verdict (the cycle error) stands. */
  private finisher(a: Assertion): Finish {
    const caseId = this.input.caseDef.id;
    const common = {
      ...this.base(a),
      level: levelOf(a),
      dependsOn: [checkIdOf(caseId, TRIAL_OK), ...a.dependsOn.map((d) => checkIdOf(caseId, d))],
      loc: a.loc,
    };
    return (status, message, extra = {}) => {
      const settled = this.done.get(a.id);
      if (settled) return settled;
      const r: CheckResult = {
        ...common,
        status,
        message: `${where(a.loc)}: ${a.id} (${a.rawType}): ${message}`,
        ...extra,
      };
      this.done.set(a.id, r);
      return r;
    };
  }

  async resultFor(a: Assertion): Promise<CheckResult> {
    const existing = this.done.get(a.id);
    if (existing) return existing;
    const finish = this.finisher(a);
    const skipped = this.notApplicable(a, finish);
    if (skipped) return skipped;
    if (this.visiting.has(a.id)) return finish("error", `depends_on cycle through ${a.id}`);
    this.visiting.add(a.id);
    const blocked = await this.dependencies(a, finish);
    if (blocked) return blocked;
    this.visiting.delete(a.id);
    const resolved = this.resolved(a, finish);
    if ("status" in resolved) return resolved;
    return this.evaluated(a, resolved, finish);
  }

  /** Skipped before anything runs: the trial errored, or activation is asked of a baseline. */
  private notApplicable(a: Assertion, finish: Finish): CheckResult | undefined {
    const { trial } = this.input;
    if (trial.error) {
      // An assertion whose condition is false would not have applied anyway: it does not count against the trial.
      if (a.condition !== undefined && conditionIsFalse(a.condition, this.vars)) {
        return finish("skipped", `skipped: ${CONDITION_FALSE}`, { skipReason: CONDITION_FALSE });
      }
      const reason = `trial error (${trial.error.kind})`;
      return finish("skipped", `skipped: ${reason}`, { skipReason: reason });
    }
    // A baseline has no skill installed: whether it activated one says nothing about it (and `skill-used` would
    // fail every baseline trial, a red mark beside a trial that did what it should).
    if (trial.mode === "baseline" && ACTIVATION_TYPES.has(a.type))
      return finish("skipped", `skipped: ${BASELINE_ACTIVATION}`, { skipReason: BASELINE_ACTIVATION });
    return undefined;
  }

  /** A dependency that is missing errors `a`; one that did not pass skips it. */
  private async dependencies(a: Assertion, finish: Finish): Promise<CheckResult | undefined> {
    for (const depId of a.dependsOn) {
      const dep = this.byId.get(depId);
      if (!dep)
        return finish(
          "error",
          `depends_on names "${depId}", which is not an assertion of case ${this.input.caseDef.id}`,
        );
      const depResult = await this.resultFor(dep);
      if (depResult.status !== "pass") {
        const reason =
          depResult.status === "skipped" ? `dependency skipped: ${depId}` : `dependency failed: ${depId}`;
        return finish("skipped", `skipped: ${reason}`, { skipReason: reason });
      }
    }
    return undefined;
  }

  /** `a` with its placeholders resolved, or why it is skipped (a false condition) or cannot be resolved. */
  private resolved(a: Assertion, finish: Finish): Assertion | CheckResult {
    let resolved: Assertion;
    try {
      if (a.condition !== undefined && !evaluateCondition(a.condition, this.vars)) {
        return finish("skipped", `skipped: ${CONDITION_FALSE}`, { skipReason: CONDITION_FALSE });
      }
      resolved = { ...a, params: resolvePlaceholders(a.params, this.vars) };
    } catch (e) {
      if (e instanceof PlaceholderError || e instanceof ConditionError) {
        const known = Object.keys(this.vars);
        return finish("error", `${e.message} (known vars: ${known.length ? known.join(", ") : "none"})`);
      }
      throw e;
    }
    return resolved;
  }

  private async evaluated(a: Assertion, resolved: Assertion, finish: Finish): Promise<CheckResult> {
    const { suite, caseDef, trial } = this.input;
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
        vars: this.vars,
        repoDir: this.input.repoDir,
        ...(this.input.judge ? { judge: this.input.judge } : {}),
        gateSeed: this.input.gateSeed,
        services: this.input.services ?? defaultServices,
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
  }
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
