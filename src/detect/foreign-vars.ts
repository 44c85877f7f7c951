/**
 * Placeholders in cases of another tool's format (skill-creator, waza, AXIS, plugin evals). Those tools have no
 * `$placeholders`: `$type` in a dotnet check or `$PATH` in a skill-creator prompt is text, and stays text. But a
 * suite of such cases may keep skillgate's meta.json, with `vars`: a case ported from skillgate's format keeps
 * `$total`, and sent as written the agent would receive it unresolved while the comparison with the base saw the
 * same case. So in those formats exactly the names meta.json `vars` defines are placeholders; every other `$` is
 * text. `promptTemplate` is a case's prompt in skillgate's syntax (`$$` for a text `$`): what is resolved before
 * the agent receives it, and what the base and the head are compared by.
 */
import type { Assertion, Case, SuiteMeta } from "../model/index.js";

/** Marks a check mapped from another tool's format (its params hold every `$` as `$$`): see `foreignChecks`. */
export const FOREIGN_CHECK = Symbol("foreign-check");

/** Text of another tool's format in skillgate's syntax: a meta.json var stays a placeholder, any other `$` is text. */
export function foreignTemplate(text: string, vars: ReadonlySet<string>): string {
  return text.replace(/\$([A-Za-z_][A-Za-z0-9_]*)?/g, (m, name: string | undefined) =>
    name !== undefined && vars.has(name) ? m : `$$${name ?? ""}`,
  );
}

function varNames(meta: SuiteMeta | undefined): ReadonlySet<string> {
  return new Set(Object.keys(meta?.vars ?? {}));
}

/** The case's prompt in skillgate's syntax: resolved with the case's variables, it is what the agent receives. */
export function promptTemplate(c: Case, meta: SuiteMeta | undefined): string {
  return c.literal ? foreignTemplate(c.prompt, varNames(meta)) : c.prompt;
}

function retemplate(v: unknown, vars: ReadonlySet<string>): unknown {
  if (typeof v === "string") return foreignTemplate(v.replaceAll("$$", "$"), vars);
  if (Array.isArray(v)) return v.map((x) => retemplate(x, vars));
  if (v && typeof v === "object")
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, retemplate(x, vars)]));
  return v;
}

/**
 * Once a suite's meta.json is known: the mapped checks of its cases read meta.json's vars as placeholders too,
 * as their prompts do (`promptTemplate`), so a case is graded on what it was sent.
 */
export function foreignChecks(cases: Case[], meta: SuiteMeta | undefined): void {
  const vars = varNames(meta);
  if (vars.size === 0) return;
  for (const c of cases)
    c.assertions = c.assertions.map((a) =>
      (a as Assertion & { [FOREIGN_CHECK]?: true })[FOREIGN_CHECK]
        ? { ...a, params: retemplate(a.params, vars) as Assertion["params"] }
        : a,
    );
}
