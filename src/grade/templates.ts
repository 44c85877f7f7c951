/**
 * Template cases checked before any trial (`validate`, discovery): every `$placeholder` of a prompt, an assertion
 * or a condition must name a variable something defines, and where a variable's value is known already (the
 * case's `vars`, the suite's `vars` when no oracle can override them) the values it fills must be what the
 * assertion type takes. Values an oracle computes are checked when they resolve, at grading.
 */
import { promptTemplate } from "../detect/foreign-vars.js";
import type { Assertion, Case, SourceLocation, SuiteMeta } from "../model/index.js";
import {
  ConditionError,
  conditionVarNames,
  evaluateCondition,
  PlaceholderError,
  placeholderNames,
  resolvePlaceholders,
  show,
} from "./vars.js";

export interface TemplateProblem {
  loc: SourceLocation;
  code: string;
  message: string;
}

/** The check of resolved params by their type's schema (the registry's `resolvedParamsProblems`). */
export type ParamsCheck = (a: Pick<Assertion, "type" | "params">) => string[];

/**
 * Variables by what can override them: meta.json `vars` < the suite oracle < the case's `vars` < the case's
 * oracle. `final` holds the values no oracle can change; `open` says an oracle may define any other name.
 */
function knownVars(c: Case, meta: SuiteMeta | undefined) {
  const defined = new Set([...Object.keys(meta?.vars ?? {}), ...Object.keys(c.vars)]);
  const final: Record<string, unknown> = c.oracle ? {} : { ...(meta?.oracle ? {} : meta?.vars), ...c.vars };
  return { defined, final, open: !!meta?.oracle || !!c.oracle };
}

export function templateProblems(
  c: Case,
  meta: SuiteMeta | undefined,
  check: ParamsCheck,
): TemplateProblem[] {
  const vars = knownVars(c, meta);
  const out: TemplateProblem[] = [];
  const undefinedNames = (names: string[]) => (vars.open ? [] : names.filter((n) => !vars.defined.has(n)));
  const unknown = (loc: SourceLocation, what: string, names: string[]) => {
    const missing = undefinedNames(names);
    if (missing.length)
      out.push({
        loc,
        code: "suite/unknown-placeholder",
        message: `${what}: ${missing.map((n) => `$${n}`).join(", ")} names no variable (define it in meta.json \`vars\`, the case's \`vars\` or an \`oracle\`; known: ${[...vars.defined].join(", ") || "none"})`,
      });
  };
  unknown(c.promptLoc ?? c.loc, `the prompt of case \`${c.id}\``, placeholderNames(promptTemplate(c, meta)));
  for (const a of c.assertions) {
    const names = placeholderNames(a.params);
    unknown(a.loc, `assertion \`${a.id}\``, names);
    const known = names.filter((n) => Object.hasOwn(vars.final, n));
    if (names.length > 0 && known.length === names.length) {
      const filled = known.map((n) => `$${n} = ${show(vars.final[n], 80)}`).join(", ");
      for (const p of check({ type: a.type, params: resolvePlaceholders(a.params, vars.final) }))
        out.push({
          loc: a.loc,
          code: "suite/template-value",
          message: `assertion \`${a.id}\`: with ${filled}: ${p}`,
        });
    }
    if (a.condition !== undefined) out.push(...conditionProblems(a, vars, unknown));
  }
  return out;
}

function conditionProblems(
  a: Assertion,
  vars: ReturnType<typeof knownVars>,
  unknown: (loc: SourceLocation, what: string, names: string[]) => void,
): TemplateProblem[] {
  let names: string[];
  try {
    names = conditionVarNames(a.condition!);
  } catch (e) {
    return [
      {
        loc: a.loc,
        code: "suite/invalid-condition",
        message: `assertion \`${a.id}\`: ${(e as Error).message}`,
      },
    ];
  }
  unknown(a.loc, `the condition of assertion \`${a.id}\``, names);
  if (!names.every((n) => Object.hasOwn(vars.final, n))) return [];
  try {
    evaluateCondition(a.condition!, vars.final);
    return [];
  } catch (e) {
    if (!(e instanceof ConditionError || e instanceof PlaceholderError)) throw e;
    return [{ loc: a.loc, code: "suite/invalid-condition", message: `assertion \`${a.id}\`: ${e.message}` }];
  }
}
