import type { AssertionOutcome } from "../../model/check.js";
import type { Assertion, Case, CheckLevel, Suite, SuiteMeta } from "../../model/suite.js";
import type { TrialRecord } from "../../model/trial.js";
import type { Judge } from "../judge.js";
import type { GradeServices } from "../ports.js";
import { type TemplateProblem, templateProblems } from "../templates.js";
import type { AssertionComparator } from "./compare.js";
import { placeholderTolerant, schemaProblems } from "./placeholder-schema.js";

/** Everything an assertion may look at for one trial. Placeholders in `assertion.params` are already resolved. */
export interface AssertionContext {
  /** The skill under test. */
  skill: string;
  suite: Suite;
  caseDef: Case;
  trial: TrialRecord;
  vars: Record<string, unknown>;
  /** Absolute path of the repository checkout. */
  repoDir: string;
  judge?: Judge;
  gateSeed: number;
  services: GradeServices;
}

export interface AssertionType {
  type: string;
  /** ajv JSON Schema of its params (the type-specific fields of the assertion). */
  schema: object;
  /** What it looks at when the suite does not say (`level:` on the assertion overrides it). */
  level: CheckLevel;
  evaluate(a: Assertion, ctx: AssertionContext): Promise<AssertionOutcome>;
  /** How two of its configurations compare (loosened or tightened, `./compare.ts`); `value` compared whole if none. */
  compare?: AssertionComparator;
}

const types = new Map<string, AssertionType>();

/**
 * A problem an assertion has before any trial runs (an unknown gate, a regular expression that does not
 * compile, gate options its gate rejects). `path` is where in the assertion, e.g. `["options", "mode"]`.
 */
export interface AssertionProblem {
  path: (string | number)[];
  code: string;
  message: string;
  severity?: "error" | "warning";
  /**
   * The value is wrong in the syntax its own tool reads (an RE2 pattern RE2 rejects): an error for a suite of
   * another tool's format too, not a dialect skillgate lacks.
   */
  ownSyntax?: boolean;
}

/** A static check of one assertion's params (placeholders not yet resolved: skip what depends on them). */
export type AssertionCheck = (a: Assertion) => AssertionProblem[];

const checks = new Map<string, AssertionCheck[]>();

/**
 * Adds a static check for an assertion type, run by discovery (so by `validate` and before any trial of `run`)
 * on every assertion of that type, `not-` forms included. Several may be registered per type: the built-in ones
 * (`./static-checks.ts`) and those other modules contribute, such as a gate's own options schema.
 */
export function registerAssertionCheck(type: string, check: AssertionCheck): void {
  checks.set(type, [...(checks.get(type) ?? []), check]);
}

/** Every problem the registered static checks find in `a` (a check that throws is a problem too). */
export function checkAssertion(a: Assertion): AssertionProblem[] {
  return (checks.get(a.type) ?? []).flatMap((check) => {
    try {
      return check(a);
    } catch (e) {
      return [
        { path: [], code: "suite/assertion-check", message: `could not be checked: ${(e as Error).message}` },
      ];
    }
  });
}

export function registerAssertion(def: AssertionType): void {
  if (types.has(def.type)) throw new Error(`assertion type "${def.type}" is already registered`);
  types.set(def.type, def);
}

export function getAssertionType(type: string): AssertionType | undefined {
  return types.get(type);
}

/**
 * The params schema suites are validated with before any trial: the type's own, where any value may also be one
 * `$placeholder` (checked once it resolves, by `resolvedParamsProblems`).
 */
export function staticSchemaOf(type: string): object | undefined {
  const t = types.get(type);
  return t && placeholderTolerant(t.schema);
}

/** Placeholders of a case's prompt, assertions and conditions, checked before any trial (`../templates.ts`). */
export function checkTemplates(c: Case, meta: SuiteMeta | undefined): TemplateProblem[] {
  return templateProblems(c, meta, resolvedParamsProblems);
}

/** Problems of params whose placeholders have resolved, by the type's own schema (empty when valid or unknown). */
export function resolvedParamsProblems(a: Pick<Assertion, "type" | "params">): string[] {
  const t = types.get(a.type);
  return t ? schemaProblems(t.schema, a.params) : [];
}

/** The level of an assertion: its own `level`, else its type's default (`outcome` for an unknown type). */
export function levelOf(a: Pick<Assertion, "type" | "level">): CheckLevel {
  return a.level ?? types.get(a.type)?.level ?? "outcome";
}

export function assertionTypeNames(): string[] {
  return [...types.keys()].sort();
}

/**
 * How a written type maps onto the registry: a registered name is taken as is (`not-one-of`, `not-skill-used`
 * are types of their own); otherwise a `not-` prefix negates the rest. Undefined when neither is registered.
 */
export function normaliseAssertionType(rawType: string): { type: string; negate: boolean } | undefined {
  if (types.has(rawType)) return { type: rawType, negate: false };
  if (rawType.startsWith("not-") && types.has(rawType.slice(4)))
    return { type: rawType.slice(4), negate: true };
  return undefined;
}
