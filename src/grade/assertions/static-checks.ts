/**
 * Built-in static checks of assertions (see `registerAssertionCheck`): what can be known wrong before any trial
 * runs. A value holding `$placeholders` is checked after they resolve, at grading time, not here.
 */
import { GATE_IDS, isGateId } from "../../../gates/ids.js";
import type { Assertion } from "../../model/suite.js";
import { compilePattern, compileRegex, type RegexSyntax } from "../regex-source.js";
import { placeholderNames } from "../vars.js";
import { type AssertionProblem, registerAssertionCheck } from "./registry.js";

/** Why `source` with `flags` does not compile as graders compile it, or undefined when it does. */
function regexProblem(source: string, flags = ""): string | undefined {
  try {
    compileRegex(source, flags);
    return undefined;
  } catch (e) {
    return (e as Error).message;
  }
}

const resolvedLater = (v: unknown) => placeholderNames(v).length > 0;

/**
 * `regex`: `value` with its `flags` compiles in its syntax. A pattern written for RE2 that RE2 rejects is wrong
 * in the suite's own terms (its tool would reject it too), not a dialect skillgate lacks.
 */
function regexAssertion(a: Assertion): AssertionProblem[] {
  const { value, flags, syntax } = a.params;
  if (typeof value !== "string" || resolvedLater(value)) return [];
  const re2 = syntax === "re2";
  let problem: string | undefined;
  try {
    compilePattern(
      value,
      typeof flags === "string" ? flags : "",
      (syntax as RegexSyntax | undefined) ?? "js",
    );
  } catch (e) {
    problem = (e as Error).message;
  }
  return problem
    ? [
        {
          path: ["value"],
          code: "suite/invalid-regex",
          message: `invalid regular expression${re2 ? " (RE2 syntax, as its tool reads it)" : ""}: ${problem}`,
          ...(re2 ? { ownSyntax: true } : {}),
        },
      ]
    : [];
}

/** A tool name given as `/pattern/flags`, and every `{regex}` argument matcher, compile. */
function traceMatchers(tool: unknown, args: unknown, at: (string | number)[]): AssertionProblem[] {
  const out: AssertionProblem[] = [];
  if (typeof tool === "string" && !resolvedLater(tool)) {
    const m = /^\/(.*)\/([a-z]*)$/.exec(tool);
    const problem = m ? regexProblem(m[1]!, m[2]) : undefined;
    if (problem)
      out.push({
        path: [...at, "tool"],
        code: "suite/invalid-regex",
        message: `invalid regular expression in tool \`${tool}\`: ${problem}`,
      });
  }
  if (args && typeof args === "object" && !Array.isArray(args))
    for (const [name, matcher] of Object.entries(args)) {
      const source = (matcher as { regex?: unknown } | null)?.regex;
      if (typeof source !== "string" || resolvedLater(source)) continue;
      const problem = regexProblem(source);
      if (problem)
        out.push({
          path: [...at, "args", name, "regex"],
          code: "suite/invalid-regex",
          message: `invalid regular expression for argument \`${name}\`: ${problem}`,
        });
    }
  return out;
}

function toolCall(a: Assertion): AssertionProblem[] {
  return traceMatchers(a.params.tool, a.params.args, []);
}

function toolOrder(a: Assertion): AssertionProblem[] {
  const steps = Array.isArray(a.params.values) ? a.params.values : [];
  return steps.flatMap((step, i) =>
    typeof step === "string"
      ? traceMatchers(step, undefined, ["values", i]).map((p) => ({ ...p, path: ["values", i] }))
      : traceMatchers((step as { tool?: unknown }).tool, (step as { args?: unknown }).args, ["values", i]),
  );
}

/** `gate`: the gate id is one of the eight. Its options are checked by the gate's own schema, registered apart. */
function gateId(a: Assertion): AssertionProblem[] {
  const id = a.params.gate;
  if (typeof id !== "string" || resolvedLater(id) || isGateId(id)) return [];
  return [
    {
      path: ["gate"],
      code: "suite/unknown-gate",
      message: `unknown gate \`${id}\`; known gates: ${GATE_IDS.join(", ")}`,
    },
  ];
}

registerAssertionCheck("regex", regexAssertion);
registerAssertionCheck("tool-called", toolCall);
registerAssertionCheck("tool-not-called", toolCall);
registerAssertionCheck("tool-order", toolOrder);
registerAssertionCheck("gate", gateId);
