import path from "node:path";
import { PREDICATE_LIMITS } from "../ports.js";
import { show } from "../vars.js";
import { errorOutcome, extractFor, missingValue, outcome } from "./common.js";
import { VALUE_COMPARATOR } from "./compare.js";
import type { AssertionType } from "./registry.js";

/**
 * A predicate module of the suite (path relative to the suite folder), run in the sandbox as
 * `fn(value, {output, files, toolCalls, skillsActivated, vars})`. It returns a boolean or `{pass, reason?}`;
 * anything else, a throw, a timeout or a load failure is an error, never a pass.
 */
export const javascript: AssertionType = {
  type: "javascript",
  level: "outcome",
  // The module's path is compared as a param; its code, by the suite diff (an edited predicate is a new check).
  compare: {
    ...VALUE_COMPARATOR,
    module: (a) => (typeof a.params.module === "string" ? a.params.module : undefined),
  },
  schema: {
    type: "object",
    required: ["module"],
    properties: { module: { type: "string", minLength: 1 }, export: { type: "string", minLength: 1 } },
    additionalProperties: false,
  },
  async evaluate(a, ctx) {
    const rel = String(a.params.module);
    const suiteDir = path.resolve(ctx.repoDir, ctx.suite.root);
    const modulePath = path.resolve(suiteDir, rel);
    if (!modulePath.startsWith(suiteDir + path.sep)) {
      return errorOutcome(
        `predicate module ${JSON.stringify(rel)} must lie inside the suite folder ${ctx.suite.root}`,
      );
    }
    const exportName = typeof a.params.export === "string" ? a.params.export : undefined;
    const expected = `predicate ${rel}${exportName ? `#${exportName}` : ""} to return true`;
    const got = extractFor(a, ctx);
    if (!got.ok) return missingValue(got.reason, expected);
    const context = {
      output: ctx.trial.output,
      files: ctx.trial.files,
      toolCalls: ctx.trial.toolCalls,
      skillsActivated: ctx.trial.skillsActivated,
      vars: ctx.vars,
    };
    const res = await ctx.services.runPredicate(
      { module: modulePath, ...(exportName ? { export: exportName } : {}), args: [got.value, context] },
      PREDICATE_LIMITS,
      { cwd: path.dirname(modulePath) },
    );
    if (!res.ok) {
      return errorOutcome(`predicate ${rel} could not be evaluated (${res.failure}): ${res.message}`, {
        expected,
        details: { stderr: res.stderr.slice(0, 2000) },
      });
    }
    const v = res.value;
    if (typeof v === "boolean") return outcome(v, expected, `it returned ${v}`);
    if (v && typeof v === "object" && typeof (v as { pass?: unknown }).pass === "boolean") {
      const { pass, reason } = v as { pass: boolean; reason?: unknown };
      return outcome(
        pass,
        expected,
        `it returned ${pass}${reason !== undefined ? `: ${String(reason)}` : ""}`,
      );
    }
    return errorOutcome(`predicate ${rel} returned ${show(v)}; expected a boolean or {pass, reason}`, {
      expected,
    });
  },
};
