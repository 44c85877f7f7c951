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

/** A failed invariant, tagged so one property can report several invariants separately. */
export class InvariantError extends Error {
  constructor(
    readonly invariant: string,
    message: string,
  ) {
    super(message);
  }
}

export interface Invariant {
  id: string;
  what: string;
}

/**
 * Checks several invariants with one (expensive, async) property: run with all enabled; when it fails, the
 * invariant that failed gets the shrunk counterexample and is disabled, and the rest are run again — so a
 * good module costs one property run, and each broken invariant is reported on its own.
 */
export async function invariantChecks<Ts extends [unknown, ...unknown[]]>(
  invariants: readonly Invariant[],
  makeProperty: (enabled: ReadonlySet<string>) => fc.IAsyncProperty<Ts> | fc.IProperty<Ts>,
  params: PropertyParams,
): Promise<GateCheck[]> {
  const enabled = new Set(invariants.map((i) => i.id));
  const results = new Map<string, GateCheck>();
  while (enabled.size > 0) {
    const property: fc.IRawProperty<Ts> = makeProperty(enabled);
    const details = await fc.check(property, { seed: params.seed, numRuns: params.numRuns });
    if (!details.failed) break;
    const err = details.errorInstance;
    const id = err instanceof InvariantError && enabled.has(err.invariant) ? err.invariant : undefined;
    const inv = invariants.find((i) => i.id === id);
    if (!inv) {
      // Not one of ours (the module threw somewhere unexpected): fail everything still open with it.
      for (const i of invariants.filter((x) => enabled.has(x.id)))
        results.set(i.id, toCheck(i.id, i.what, details, params));
      break;
    }
    results.set(inv.id, toCheck(inv.id, inv.what, details, params));
    enabled.delete(inv.id);
  }
  return invariants.map(
    (i) =>
      results.get(i.id) ?? {
        id: i.id,
        passed: true,
        message: `${i.what}: held on ${params.numRuns} random scenarios (seed ${params.seed})`,
      },
  );
}

/** In an invariant property: fails invariant `id` (if still enabled) unless `condition` holds. */
export function holds(on: ReadonlySet<string>, id: string, condition: boolean, message: () => string): void {
  if (!condition && on.has(id)) throw new InvariantError(id, message());
}
