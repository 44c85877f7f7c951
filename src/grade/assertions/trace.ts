/** Matching recorded tool calls: tool names, argument matchers and call positions (turn, then index). */
import type { ToolCall } from "../../model/trial.js";
import { compileRegex } from "../regex-source.js";
import { looseEqual, show } from "../vars.js";

const MATCHER_KEYS = ["regex", "range", "oneOf", "contains", "equals", "exists"] as const;
const MAX_CALLS_SHOWN = 5;
const MAX_INPUT_SHOWN = 120;

/** An argument matcher: a literal (exact), or one of `{regex}`, `{range: [min, max]}`, `{oneOf}`, `{contains}`, `{equals}`, `{exists}`. */
export type ArgMatcher = unknown;

export const TOOL_NAME_SCHEMA = { type: "string", minLength: 1 };
const ARG_MATCHER_SCHEMA = {
  anyOf: [
    { type: ["string", "number", "boolean", "null", "array"] },
    {
      type: "object",
      minProperties: 1,
      maxProperties: 1,
      properties: {
        regex: { type: "string" },
        range: { type: "array", minItems: 2, maxItems: 2, items: { type: ["number", "null"] } },
        oneOf: { type: "array" },
        contains: { type: "string" },
        equals: {},
        exists: { type: "boolean" },
      },
      additionalProperties: false,
    },
  ],
};
export const ARGS_SCHEMA = { type: "object", additionalProperties: ARG_MATCHER_SCHEMA };
export const STEP_SCHEMA = {
  anyOf: [
    TOOL_NAME_SCHEMA,
    {
      type: "object",
      required: ["tool"],
      properties: { tool: TOOL_NAME_SCHEMA, args: ARGS_SCHEMA },
      additionalProperties: false,
    },
  ],
};

/** `Name` exactly, or `/pattern/flags` as a regular expression over the tool name. */
export function toolNameMatcher(spec: string): (name: string) => boolean {
  const m = /^\/(.*)\/([a-z]*)$/.exec(spec);
  if (m) {
    const re = compileRegex(m[1]!, m[2]);
    return (name) => re.test(name);
  }
  return (name) => name === spec;
}

export function getArg(input: unknown, argPath: string): { present: boolean; value?: unknown } {
  let cur: unknown = input;
  for (const seg of argPath.split(".")) {
    if (cur === null || typeof cur !== "object" || !Object.hasOwn(cur, seg)) return { present: false };
    cur = (cur as Record<string, unknown>)[seg];
  }
  return { present: true, value: cur };
}

function isMatcherObject(m: unknown): m is Record<string, unknown> {
  if (!m || typeof m !== "object" || Array.isArray(m)) return false;
  const keys = Object.keys(m);
  return keys.length === 1 && (MATCHER_KEYS as readonly string[]).includes(keys[0]!);
}

function matchArg(matcher: ArgMatcher, arg: { present: boolean; value?: unknown }): boolean {
  if (isMatcherObject(matcher)) {
    const [key, spec] = Object.entries(matcher)[0]!;
    if (key === "exists") return arg.present === Boolean(spec);
    if (!arg.present) return false;
    const v = arg.value;
    switch (key) {
      case "regex":
        return compileRegex(String(spec)).test(typeof v === "string" ? v : JSON.stringify(v));
      case "range": {
        const [min, max] = spec as [number | null, number | null];
        const n =
          typeof v === "number" ? v : typeof v === "string" && v.trim() !== "" ? Number(v) : Number.NaN;
        return !Number.isNaN(n) && (min === null || n >= min) && (max === null || n <= max);
      }
      case "oneOf":
        return (spec as unknown[]).some((x) => looseEqual(v, x));
      case "contains":
        return (typeof v === "string" ? v : JSON.stringify(v)).includes(String(spec));
      default:
        return looseEqual(v, spec);
    }
  }
  return arg.present && looseEqual(arg.value, matcher);
}

export function matchArgs(
  args: Record<string, ArgMatcher> | undefined,
  call: ToolCall,
  skip?: string,
): boolean {
  if (!args) return true;
  return Object.entries(args).every(([p, m]) => p === skip || matchArg(m, getArg(call.input, p)));
}

export function describeMatcher(tool: string, args?: Record<string, ArgMatcher>): string {
  if (!args || Object.keys(args).length === 0) return tool;
  return `${tool}(${Object.entries(args)
    .map(
      ([k, m]) =>
        `${k}: ${isMatcherObject(m) ? `${Object.keys(m)[0]} ${show(Object.values(m)[0])}` : show(m)}`,
    )
    .join(", ")})`;
}

export function describeCall(c: ToolCall): string {
  return `${c.name}(${show(c.input, MAX_INPUT_SHOWN)}) at turn ${c.turn}`;
}

export function describeCalls(calls: ToolCall[]): string {
  if (calls.length === 0) return "none";
  const shown = calls.slice(0, MAX_CALLS_SHOWN).map(describeCall).join("; ");
  return calls.length > MAX_CALLS_SHOWN ? `${shown}; … (${calls.length} calls)` : shown;
}

/** Calls in the order they were made: by turn, then by position in the record. */
export function orderedCalls(calls: ToolCall[]): { call: ToolCall; index: number }[] {
  return calls
    .map((call, index) => ({ call, index }))
    .sort((a, b) => a.call.turn - b.call.turn || a.index - b.index);
}
