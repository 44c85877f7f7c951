import picomatch from "picomatch";
import type { AssertionOutcome } from "../../model/check.js";
import type { ToolCall } from "../../model/trial.js";
import { looseEqual, show } from "../vars.js";
import { outcome } from "./common.js";
import { listComparator } from "./one-of.js";
import type { AssertionType } from "./registry.js";
import {
  ARGS_SCHEMA,
  type ArgMatcher,
  describeCall,
  describeCalls,
  describeMatcher,
  getArg,
  matchArgs,
  orderedCalls,
  STEP_SCHEMA,
  TOOL_NAME_SCHEMA,
  toolNameMatcher,
} from "./trace.js";

type Count = number | { min?: number; max?: number };

const COUNT_SCHEMA = {
  anyOf: [
    { type: "integer", minimum: 0 },
    {
      type: "object",
      properties: { min: { type: "integer", minimum: 0 }, max: { type: "integer", minimum: 0 } },
      additionalProperties: false,
      minProperties: 1,
    },
  ],
};

function countBounds(c: Count | undefined): { min: number; max: number } {
  if (c === undefined) return { min: 1, max: Number.POSITIVE_INFINITY };
  if (typeof c === "number") return { min: c, max: c };
  return { min: c.min ?? 0, max: c.max ?? Number.POSITIVE_INFINITY };
}

function describeCount({ min, max }: { min: number; max: number }): string {
  if (min === max) return `exactly ${min} time${min === 1 ? "" : "s"}`;
  if (max === Number.POSITIVE_INFINITY) return `at least ${min} time${min === 1 ? "" : "s"}`;
  return `${min}–${max} times`;
}

/**
 * `tool-called`: `tool` (name or /regex/), `args` matchers, `count` (exact or {min, max}; default at least once),
 * `scope: {arg, values}` — every expected scope value must be covered by a matching call (missing calls) and no
 * matching call may carry a value outside the list (out-of-scope calls).
 */
export const toolCalled: AssertionType = {
  type: "tool-called",
  level: "process",
  schema: {
    type: "object",
    required: ["tool"],
    properties: {
      tool: TOOL_NAME_SCHEMA,
      args: ARGS_SCHEMA,
      count: COUNT_SCHEMA,
      scope: {
        type: "object",
        required: ["arg", "values"],
        properties: { arg: { type: "string", minLength: 1 }, values: { type: "array" } },
        additionalProperties: false,
      },
    },
    additionalProperties: false,
  },
  async evaluate(a, ctx): Promise<AssertionOutcome> {
    const tool = String(a.params.tool);
    const args = a.params.args as Record<string, ArgMatcher> | undefined;
    const bounds = countBounds(a.params.count as Count | undefined);
    const scope = a.params.scope as { arg: string; values: unknown[] } | undefined;
    const isTool = toolNameMatcher(tool);
    const named = ctx.trial.toolCalls.filter((c) => isTool(c.name));
    const matching = named.filter((c) => matchArgs(args, c));
    const problems: string[] = [];
    const parts = [`${describeMatcher(tool, args)} called ${describeCount(bounds)}`];
    if (matching.length < bounds.min || matching.length > bounds.max) {
      problems.push(`${matching.length} matching call${matching.length === 1 ? "" : "s"}`);
    }
    const details: Record<string, unknown> = { matched: matching.length, calls: named.length };
    if (scope) {
      const values = Array.isArray(scope.values) ? scope.values : [scope.values];
      parts.push(`covering ${scope.arg} ∈ ${show(values)}`);
      // Scope is judged over calls matching the other argument matchers.
      const inScopeCandidates = named.filter((c) => matchArgs(args, c, scope.arg));
      const seen = inScopeCandidates.map((c) => getArg(c.input, scope.arg));
      const missing = values.filter((v) => !seen.some((s) => s.present && looseEqual(s.value, v)));
      const outside = inScopeCandidates.filter((c) => {
        const s = getArg(c.input, scope.arg);
        return !s.present || !values.some((v) => looseEqual(s.value, v));
      });
      if (missing.length > 0) problems.push(`missing calls for ${scope.arg} ${show(missing)}`);
      if (outside.length > 0) problems.push(`out-of-scope calls: ${describeCalls(outside)}`);
      details.missing = missing;
      details.outOfScope = outside.map(describeCall);
    }
    const expected = parts.join(", ");
    const actual =
      problems.length === 0
        ? `${matching.length} matching call${matching.length === 1 ? "" : "s"}`
        : `${problems.join("; ")}; ${tool} calls seen: ${describeCalls(named)}`;
    return outcome(problems.length === 0, expected, actual, {
      evidence: matching.map(describeCall).join("; ") || undefined,
      details,
    });
  },
};

/** `tool-not-called`: no call of `tool` (matching `args`, when given). */
export const toolNotCalled: AssertionType = {
  type: "tool-not-called",
  level: "process",
  schema: {
    type: "object",
    required: ["tool"],
    properties: { tool: TOOL_NAME_SCHEMA, args: ARGS_SCHEMA },
    additionalProperties: false,
  },
  async evaluate(a, ctx) {
    const tool = String(a.params.tool);
    const args = a.params.args as Record<string, ArgMatcher> | undefined;
    const isTool = toolNameMatcher(tool);
    const matching = ctx.trial.toolCalls.filter((c) => isTool(c.name) && matchArgs(args, c));
    return outcome(
      matching.length === 0,
      `no call of ${describeMatcher(tool, args)}`,
      matching.length === 0 ? "none" : describeCalls(matching),
    );
  },
};

type Step = string | { tool: string; args?: Record<string, ArgMatcher> };

/**
 * `tool-order`: the steps of `values` happen in this order (by turn, then position): each step is matched by
 * the earliest call after the previous step's call. With `strictTurns: true` each step must come in a later turn
 * than the previous one (calls made together in one turn may run concurrently).
 */
export const toolOrder: AssertionType = {
  type: "tool-order",
  level: "process",
  compare: listComparator(false, "required", true),
  schema: {
    type: "object",
    required: ["values"],
    properties: {
      values: { type: "array", minItems: 2, items: STEP_SCHEMA },
      strictTurns: { type: "boolean" },
    },
    additionalProperties: false,
  },
  async evaluate(a, ctx) {
    const steps = (a.params.values as Step[]).map((s) => (typeof s === "string" ? { tool: s } : s));
    const expected = `calls in order ${steps.map((s) => describeMatcher(s.tool, s.args)).join(" → ")}${a.params.strictTurns === true ? " in strictly later turns" : ""}`;
    const calls = orderedCalls(ctx.trial.toolCalls);
    const strict = a.params.strictTurns === true;
    let pos = 0;
    const matched: ToolCall[] = [];
    for (const step of steps) {
      const isTool = toolNameMatcher(step.tool);
      const prev = matched.at(-1);
      const i = calls.findIndex(
        (c, k) =>
          k >= pos &&
          (!strict || !prev || c.call.turn > prev.turn) &&
          isTool(c.call.name) &&
          matchArgs(step.args, c.call),
      );
      if (i < 0) {
        const anywhere = calls.find((c) => isTool(c.call.name) && matchArgs(step.args, c.call));
        const why = anywhere
          ? `${describeMatcher(step.tool, step.args)} only before ${matched.length ? describeCall(matched.at(-1)!) : "the start"} (${describeCall(anywhere.call)})`
          : `no call of ${describeMatcher(step.tool, step.args)}`;
        const relevant = calls
          .filter((c) => steps.some((s) => toolNameMatcher(s.tool)(c.call.name)))
          .map((c) => c.call);
        return outcome(false, expected, `${why}; sequence seen: ${describeCalls(relevant)}`);
      }
      matched.push(calls[i]!.call);
      pos = i + 1;
    }
    return outcome(true, expected, matched.map(describeCall).join(" → "));
  },
};

/** `allowed-tools`: every call uses a tool of the allowlist `values` (names or globs such as `mcp__db__*`). */
export const allowedTools: AssertionType = {
  type: "allowed-tools",
  level: "process",
  compare: listComparator(false, "accepted"),
  schema: {
    type: "object",
    required: ["values"],
    properties: { values: { type: "array", items: { type: "string", minLength: 1 } } },
    additionalProperties: false,
  },
  async evaluate(a, ctx) {
    const allowed = (a.params.values as string[]).map((p) => picomatch(p));
    const outside = ctx.trial.toolCalls.filter((c) => !allowed.some((m) => m(c.name)));
    const names = [...new Set(outside.map((c) => c.name))];
    return outcome(
      outside.length === 0,
      `only tools ${show(a.params.values)}`,
      outside.length === 0
        ? `${ctx.trial.toolCalls.length} calls, all allowed`
        : `${names.join(", ")}: ${describeCalls(outside)}`,
    );
  },
};
