/**
 * fast-check runs as gate checks, in the parent: a recorded seed, ≥ 500 runs by default, a shrunk
 * counterexample on failure. The values a property is called with are observed in the sandbox child:
 * `Observed` asks for all the generated cases in one request, and for each shrink candidate as fast-check
 * tries it.
 */
import fc from "fast-check";
import {
  CONSTRUCTOR,
  CutValue,
  ErrorValue,
  FunctionValue,
  inputJson,
  SymbolValue,
} from "../../src/sandbox/tagged.js";
import type { GateCheck, ProbeSession } from "../types.js";
import { describe } from "./runtime.js";

/** Runs per property unless `options.runs` says otherwise (the issue asks for ≥ 500). */
const DEFAULT_RUNS = 500;
/** Longest counterexample text kept in a message. */
const MAX_EXAMPLE_CHARS = 600;

export interface PropertyParams {
  seed: number;
  numRuns: number;
  /** Report the first failing case as generated, without shrinking it (large cases: each shrink step is a probe). */
  endOnFailure?: boolean;
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

async function asyncPropertyCheck<Ts extends [unknown, ...unknown[]]>(
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

/** Short printable form of a value for messages: generated inputs, or what the module returned (decoded). */
export function show(v: unknown): string {
  try {
    return clip(printValue(v, 0));
  } catch {
    return "<unprintable>";
  }
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;
/** Items and keys printed per array or object. */
const MAX_PRINTED = 40;

function printValue(v: unknown, depth: number): string {
  if (v === undefined) return "undefined";
  if (v === null) return "null";
  if (typeof v === "number") return Object.is(v, -0) ? "-0" : String(v);
  if (typeof v === "string") return JSON.stringify(v);
  if (typeof v === "bigint") return `${v}n`;
  if (typeof v !== "object") return String(v);
  if (v instanceof FunctionValue) return `[function ${v.name || "anonymous"}]`;
  if (v instanceof ErrorValue) return `${v.name}: ${v.message}`;
  if (v instanceof CutValue) return `[not read: ${v.why}${v.detail ? ` (${v.detail})` : ""}]`;
  if (v instanceof SymbolValue) return `Symbol(${v.description})`;
  if (depth > 6) return "…";
  if (Array.isArray(v)) {
    const items = v.slice(0, MAX_PRINTED).map((x) => printValue(x, depth + 1));
    return `[${items.join(",")}${v.length > MAX_PRINTED ? `,… (${v.length} items)` : ""}]`;
  }
  const o = v as Record<string | symbol, unknown>;
  const keys = Object.keys(o);
  const entries = keys
    .slice(0, MAX_PRINTED)
    .map((k) => `${IDENTIFIER.test(k) ? k : JSON.stringify(k)}:${printValue(o[k], depth + 1)}`);
  const ctor = typeof o[CONSTRUCTOR] === "string" ? `${o[CONSTRUCTOR] as string} ` : "";
  return `${ctor}{${entries.join(",")}${keys.length > MAX_PRINTED ? ",…" : ""}}`;
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

interface Invariant {
  id: string;
  what: string;
}

/**
 * Checks several invariants with one (expensive, async) property: run with all enabled; when it fails, the
 * invariant that failed gets the shrunk counterexample and is disabled, and the rest are run again — so a
 * good module costs one property run, and each broken invariant is reported on its own.
 */
async function invariantChecks<Ts extends [unknown, ...unknown[]]>(
  invariants: readonly Invariant[],
  makeProperty: (enabled: ReadonlySet<string>) => fc.IAsyncProperty<Ts> | fc.IProperty<Ts>,
  params: PropertyParams,
): Promise<GateCheck[]> {
  const enabled = new Set(invariants.map((i) => i.id));
  const results = new Map<string, GateCheck>();
  while (enabled.size > 0) {
    const property: fc.IRawProperty<Ts> = makeProperty(enabled);
    const details = await fc.check(property, {
      seed: params.seed,
      numRuns: params.numRuns,
      endOnFailure: params.endOnFailure ?? false,
    });
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

/** The values fast-check generates for `arb` with these parameters, in order (no property runs). */
function generatedValues<T>(arb: fc.Arbitrary<T>, params: PropertyParams): T[] {
  const values: T[] = [];
  fc.check(
    fc.property(arb, (v) => {
      values.push(v);
    }),
    { seed: params.seed, numRuns: params.numRuns },
  );
  return values;
}

/** Structural equality of generated values (plain data: numbers with NaN and −0, strings, arrays, objects). */
function sameValue(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameValue(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  for (const k of ka)
    if (
      !Object.hasOwn(b, k) ||
      !sameValue((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k])
    )
      return false;
  return true;
}

/**
 * The observations behind a fast-check property. `prefetch` asks the child about every value fast-check will
 * generate (one request); `predicate` wraps a judging function so that, in each `fc.check`, the n-th call
 * reads the n-th prefetched observation (checked to be for an equal value) until the first failure, and
 * asks the child for each shrink candidate after it (one small request each, cached by probe).
 */
export class Observed<V, P> {
  private values: readonly V[] = [];
  private observations: readonly unknown[] = [];
  private readonly byProbe = new Map<string, unknown>();
  constructor(
    private readonly session: ProbeSession,
    private readonly toProbe: (v: V) => P,
  ) {}

  async prefetch(values: readonly V[]): Promise<void> {
    this.observations = await this.session.observe(values.map((v) => this.toProbe(v)));
    this.values = values;
  }

  /** Asks about fixed values in one request, for `get` to answer from. */
  async prime(values: readonly V[]): Promise<void> {
    const missing = new Map<string, P>();
    for (const v of values) {
      const probe = this.toProbe(v);
      const key = inputJson(probe);
      if (!this.byProbe.has(key)) missing.set(key, probe);
    }
    if (missing.size === 0) return;
    const obs = await this.session.observe([...missing.values()]);
    [...missing.keys()].forEach((key, i) => {
      this.byProbe.set(key, obs[i]);
    });
  }

  /** The observation of one value, asked of the child unless seen (a shrink candidate, a fixed probe). */
  async get(v: V): Promise<unknown> {
    const probe = this.toProbe(v);
    const key = inputJson(probe);
    if (!this.byProbe.has(key)) {
      const [obs] = await this.session.observe([probe]);
      this.byProbe.set(key, obs);
    }
    return this.byProbe.get(key);
  }

  /**
   * Whether `judge` holds on every prefetched value: what `fc.check` over the same seed would conclude when
   * nothing fails, without generating the values a second time. Only a failure needs fast-check again
   * (for its shrinking and its replay path).
   */
  holdsForAll(judge: (v: V, obs: unknown) => void): boolean {
    try {
      for (const [i, v] of this.values.entries()) judge(v, this.observations[i]);
      return true;
    } catch {
      return false;
    }
  }

  /** A fresh predicate per `fc.check` (each run generates the same values again, from the start). */
  predicate(judge: (v: V, obs: unknown) => void): (v: V) => Promise<void> {
    let calls = 0;
    let shrinking = false;
    return async (v) => {
      const n = calls++;
      const aligned = !shrinking && n < this.values.length && sameValue(this.values[n], v);
      const obs = aligned ? this.observations[n] : await this.get(v);
      try {
        judge(v, obs);
      } catch (err) {
        shrinking = true;
        throw err;
      }
    };
  }
}

/**
 * A property check over observed values: the prefetched cases are judged directly; only when one fails does
 * fast-check run (same seed, same cases) to shrink it and report the counterexample.
 */
export async function observedPropertyCheck<V, P>(
  id: string,
  what: string,
  arb: fc.Arbitrary<V>,
  observed: Observed<V, P>,
  judge: (v: V, obs: unknown) => void,
  params: PropertyParams,
): Promise<GateCheck> {
  await observed.prefetch(generatedValues(arb, params));
  if (observed.holdsForAll(judge))
    return {
      id,
      passed: true,
      message: `${what}: held on ${params.numRuns} random cases (seed ${params.seed})`,
    };
  return asyncPropertyCheck(id, what, fc.asyncProperty(arb, observed.predicate(judge)), params);
}

/** `invariantChecks` over observed values, with the same direct judging of the prefetched cases first. */
export async function observedInvariantChecks<V, P>(
  invariants: readonly Invariant[],
  arb: fc.Arbitrary<V>,
  observed: Observed<V, P>,
  judge: (on: ReadonlySet<string>, v: V, obs: unknown) => void,
  params: PropertyParams,
): Promise<GateCheck[]> {
  await observed.prefetch(generatedValues(arb, params));
  const all = new Set(invariants.map((i) => i.id));
  if (observed.holdsForAll((v, obs) => judge(all, v, obs)))
    return invariants.map((i) => ({
      id: i.id,
      passed: true,
      message: `${i.what}: held on ${params.numRuns} random scenarios (seed ${params.seed})`,
    }));
  return invariantChecks(
    invariants,
    (on) =>
      fc.asyncProperty(
        arb,
        observed.predicate((v, obs) => judge(on, v, obs)),
      ),
    params,
  );
}

/**
 * Checks of one invariant set run twice, on the usual cases and on a few large ones: a check fails when
 * either run failed it (the large run's message then), and a passing one says both held.
 */
export function mergeChecks(
  usual: readonly GateCheck[],
  large: readonly GateCheck[],
  what: string,
): GateCheck[] {
  return usual.map((c) => {
    const l = large.find((x) => x.id === c.id);
    if (!c.passed || !l) return c;
    if (!l.passed) return { ...l, message: `${what}: ${l.message}` };
    return { ...c, message: `${c.message}; and on ${what}` };
  });
}

/**
 * The large cases of an invariant set, for the invariants the usual cases did not already fail (a module
 * failing those is reported on its small counterexample; its large cases would only cost time), without
 * shrinking (one shrink step of a thousand-event case is one more probe of that size).
 */
export async function largeInvariantChecks<V, P>(
  usual: readonly GateCheck[],
  invariants: readonly Invariant[],
  arb: fc.Arbitrary<V>,
  observed: Observed<V, P>,
  judge: (on: ReadonlySet<string>, v: V, obs: unknown) => void,
  params: PropertyParams,
): Promise<GateCheck[]> {
  const open = invariants.filter((i) => usual.find((c) => c.id === i.id)?.passed);
  if (open.length === 0) return [];
  return observedInvariantChecks(open, arb, observed, judge, { ...params, endOnFailure: true });
}
