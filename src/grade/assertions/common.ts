import type { AssertionOutcome } from "../../model/check.js";
import type { Assertion } from "../../model/suite.js";
import { type Extracted, extract } from "../extract.js";
import { show } from "../vars.js";
import type { AssertionContext } from "./registry.js";

/** The params of one value or a list: `value` or `values`. */
export function valueList(a: Assertion): unknown[] {
  if (Array.isArray(a.params.values)) return a.params.values;
  if ("value" in a.params) return [a.params.value];
  return [];
}

export const VALUE_OR_VALUES = {
  oneOf: [{ required: ["value"] }, { required: ["values"] }],
};

/** The value an output assertion tests, taken from the output with the assertion's extractor. */
export function extractFor(a: Assertion, ctx: AssertionContext, defaultExtract?: string): Extracted {
  return extract(a.extract ?? defaultExtract, ctx.trial.output);
}

/** An outcome for "there was nothing to test": fails, and stays failed under `not-`. */
export function missingValue(reason: string, expected: string): AssertionOutcome {
  return {
    pass: false,
    missingValue: true,
    expected,
    actual: reason,
    message: `expected ${expected}; but ${reason}`,
  };
}

export function outcome(pass: boolean, expected: string, actual: string, extra?: Partial<AssertionOutcome>) {
  return {
    pass,
    expected,
    actual,
    message: `expected ${expected}; saw ${actual}`,
    ...extra,
  } satisfies AssertionOutcome;
}

export function errorOutcome(message: string, extra?: Partial<AssertionOutcome>): AssertionOutcome {
  return { pass: false, error: true, message, ...extra };
}

/** A short view of a long output for messages. */
export function excerpt(s: string, max = 160): string {
  const one = s.replace(/\s+/g, " ").trim();
  return show(one.length > max ? `${one.slice(0, max)}…` : one, max + 10);
}

export function showValue(v: unknown): string {
  return typeof v === "string" ? excerpt(v) : show(v);
}
