/** fast-check runs as gate checks: a recorded seed, ≥ 500 runs by default, a shrunk counterexample on failure. */
import fc from "fast-check";
import type { GateCheck } from "../types.js";
import { describe } from "./runtime.js";

/** Runs per property unless `options.runs` says otherwise (the issue asks for ≥ 500). */
export const DEFAULT_RUNS = 500;
/** Longest counterexample text kept in a message. */
const MAX_EXAMPLE_CHARS = 600;

export interface PropertyParams {
  seed: number;
  numRuns: number;
}

export function propertyParams(seed: number, options: Record<string, unknown>): PropertyParams {
  const runs = options.runs;
  return {
    seed,
    numRuns: typeof runs === "number" && Number.isInteger(runs) && runs > 0 ? runs : DEFAULT_RUNS,
  };
}

function clip(s: string): string {
  return s.length > MAX_EXAMPLE_CHARS ? `${s.slice(0, MAX_EXAMPLE_CHARS)}…` : s;
}

function toCheck<Ts>(
  id: string,
  what: string,
  details: fc.RunDetails<Ts>,
  params: PropertyParams,
): GateCheck {
  if (!details.failed) {
    return {
      id,
      passed: true,
      message: `${what}: held on ${details.numRuns} random cases (seed ${params.seed})`,
    };
  }
  if (details.counterexample === null) {
    return {
      id,
      passed: false,
      message: `${what}: ${describe(details.errorInstance)} (seed ${params.seed})`,
    };
  }
  const example = clip(fc.stringify(details.counterexample));
  const reason = details.errorInstance === null ? "property returned false" : describe(details.errorInstance);
  return {
    id,
    passed: false,
    message:
      `${what}: failed on ${example} (shrunk ${details.numShrinks}×, after ${details.numRuns} runs): ${reason}` +
      ` — replay with --seed ${params.seed} (fast-check path ${details.counterexamplePath})`,
  };
}

export function propertyCheck<Ts extends [unknown, ...unknown[]]>(
  id: string,
  what: string,
  property: fc.IProperty<Ts>,
  params: PropertyParams,
): GateCheck {
  return toCheck(id, what, fc.check(property, { seed: params.seed, numRuns: params.numRuns }), params);
}

export async function asyncPropertyCheck<Ts extends [unknown, ...unknown[]]>(
  id: string,
  what: string,
  property: fc.IAsyncProperty<Ts>,
  params: PropertyParams,
): Promise<GateCheck> {
  const details = await fc.check(property, { seed: params.seed, numRuns: params.numRuns });
  return toCheck(id, what, details, params);
}

/** Fails with `message` (fast-check reports the thrown error with the shrunk counterexample). */
export function expect(condition: boolean, message: () => string): void {
  if (!condition) throw new Error(message());
}

/** Calls untrusted code; returns what it returned or threw, never propagates. */
export function attempt<T>(f: () => T): { threw: false; value: T } | { threw: true; error: string } {
  try {
    return { threw: false, value: f() };
  } catch (err) {
    return { threw: true, error: describe(err) };
  }
}

/** Short printable form of an untrusted value for messages. */
export function show(v: unknown): string {
  try {
    return clip(fc.stringify(v));
  } catch {
    return "<unprintable>";
  }
}
