/**
 * boundary (seed domain 01, coding): `fn(...args: number[])` must return a finite number (or an array of
 * finite numbers) for every input inside its domain — bounds included — and refuse everything else: NaN,
 * ±Infinity, values just outside the bounds, fractions where integers are required, non-numbers. Refusing
 * means throwing (`invalid: "throw"`, default) or, with `invalid: "throw-or-null"`, also returning null.
 */
import fc from "fast-check";
import {
  CALLS_OBSERVATION_SCHEMA,
  type CallsProbe,
  callsProbe,
  exportCheck,
  functionShape,
  NotAFunction,
  outcomesOf,
  type Result,
} from "../shared/calls.js";
import { GateOptionError, type InvalidPolicy, invalidPolicy } from "../shared/options.js";
import { declaredParams } from "../shared/params.js";
import { expect, Observed, observedPropertyCheck, propertyParams, show } from "../shared/property.js";
import type { GateCheck, GateJudge } from "../types.js";

interface Domain {
  min: number;
  max: number;
  integer: boolean;
}

/** Domain of each argument when the options give none. */
const DEFAULT_DOMAIN: Domain = { min: -1_000_000, max: 1_000_000, integer: false };
/** Most examples listed in one failure message. */
const MAX_LISTED = 5;

function parseDomains(options: Record<string, unknown>, arity: number): Domain[] {
  const raw = options.domain;
  if (raw === undefined) return Array.from({ length: Math.max(1, arity) }, () => ({ ...DEFAULT_DOMAIN }));
  if (!Array.isArray(raw) || raw.length === 0)
    throw new GateOptionError("option 'domain' must be a non-empty array of {min, max, integer}");
  return raw.map((d, i) => {
    const o = (d ?? {}) as Record<string, unknown>;
    const min = o.min ?? DEFAULT_DOMAIN.min;
    const max = o.max ?? DEFAULT_DOMAIN.max;
    const integer = o.integer ?? false;
    if (
      typeof min !== "number" ||
      typeof max !== "number" ||
      !Number.isFinite(min) ||
      !Number.isFinite(max) ||
      min > max
    )
      throw new GateOptionError(
        `option 'domain[${i}]' needs finite numbers min ≤ max (got ${JSON.stringify(d)})`,
      );
    if (typeof integer !== "boolean")
      throw new GateOptionError(`option 'domain[${i}].integer' must be a boolean`);
    if (integer && (!Number.isSafeInteger(min) || !Number.isSafeInteger(max)))
      throw new GateOptionError(`option 'domain[${i}]': an integer domain needs safe-integer bounds`);
    return { min, max, integer };
  });
}

const f64 = new Float64Array(1);
const i64 = new BigInt64Array(f64.buffer);
/** The next representable double above (dir = 1) or below (dir = -1) x: the value "just outside" a bound. */
export function nextDouble(x: number, dir: 1 | -1): number {
  if (x === 0) return dir * Number.MIN_VALUE;
  f64[0] = x;
  i64[0] = (i64[0] as bigint) + (x > 0 === dir > 0 ? 1n : -1n);
  return f64[0] as number;
}

function justOutside(d: Domain): number[] {
  return d.integer ? [d.min - 1, d.max + 1] : [nextDouble(d.min, -1), nextDouble(d.max, 1)];
}

function midpoint(d: Domain): number {
  const m = d.min + (d.max - d.min) / 2;
  return d.integer ? Math.floor(m) : m;
}

function validArb(d: Domain): fc.Arbitrary<number> {
  return d.integer
    ? fc.integer({ min: d.min, max: d.max })
    : fc.double({ min: d.min, max: d.max, noNaN: true });
}

function finiteResult(v: unknown): boolean {
  if (typeof v === "number") return Number.isFinite(v);
  return Array.isArray(v) && v.every((x) => typeof x === "number" && Number.isFinite(x));
}

function refused(r: Result, policy: InvalidPolicy): { ok: boolean; seen: string } {
  if (r.threw !== undefined) return { ok: true, seen: "threw" };
  if (policy === "throw-or-null" && r.value === null) return { ok: true, seen: "null" };
  return { ok: false, seen: show(r.value) };
}

function listCheck(id: string, what: string, failures: string[], total: number): GateCheck {
  return {
    id,
    passed: failures.length === 0,
    message: failures.length
      ? `${what}: ${failures.slice(0, MAX_LISTED).join("; ")}${failures.length > MAX_LISTED ? ` … (${failures.length} of ${total})` : ""}`
      : `${what}: all ${total} probes as required`,
  };
}

/** One call per probe (a shrink candidate is one small request). */
const oneCall = (args: unknown[]): CallsProbe => callsProbe([args]);

export const boundary: GateJudge = {
  id: "boundary",
  observationSchema: CALLS_OBSERVATION_SCHEMA,
  async judge(session, ctx) {
    const shape = await functionShape(session);
    if (shape instanceof NotAFunction) return exportCheck(shape);
    const call = (args: unknown[]) => `${ctx.callee}(${args.map(show).join(", ")})`;
    // Arity from the source: `fn.length` stops before the first parameter with a default value.
    const declared = declaredParams(shape.source);
    const arity = Math.max(shape.length, declared?.count ?? 0);
    const domains = parseDomains(ctx.options, arity);
    // A parameter with a default may be left out or passed undefined: that is a valid call, not a non-number.
    const defaulted = domains.map((_, i) => declared?.defaults[i] === true);
    const required = defaulted.indexOf(true) === -1 ? domains.length : defaulted.indexOf(true);
    const policy = invalidPolicy(ctx.options);
    const params = propertyParams(ctx.seed, ctx.options);
    const mids = domains.map(midpoint);
    const withArg = (i: number, v: unknown) => mids.map((m, j) => (j === i ? v : m));
    const checks: GateCheck[] = [];
    const observed = new Observed<unknown[], CallsProbe>(session, oneCall);
    const outcome = async (args: unknown[]) => outcomesOf(await observed.get(args), 1)[0] as Result;
    const only = (obs: unknown) => outcomesOf(obs, 1)[0] as Result;

    // Valid: every bound, alone and all together; each must give a finite result without throwing.
    const boundProbes: unknown[][] = [domains.map((d) => d.min), domains.map((d) => d.max), mids];
    domains.forEach((d, i) => {
      boundProbes.push(withArg(i, d.min), withArg(i, d.max));
    });
    // The defaulted parameters left out, the others at each bound and in the middle.
    if (required === 0) boundProbes.push([]);
    else if (required < domains.length)
      for (const pick of [(d: Domain) => d.min, (d: Domain) => d.max, midpoint])
        boundProbes.push(domains.slice(0, required).map(pick));
    const invalidSets: { id: string; what: string; values: (d: Domain) => unknown[] }[] = [
      {
        id: "invalid-nonfinite",
        what: "NaN and ±Infinity",
        values: () => [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY],
      },
      { id: "invalid-outside", what: "values just outside the domain", values: justOutside },
      {
        id: "invalid-fraction",
        what: "fractions where integers are required",
        values: (d) => (d.integer && d.min + 0.5 <= d.max ? [d.min + 0.5] : []),
      },
      {
        id: "invalid-type",
        what: "non-numbers",
        values: (d) => [String(midpoint(d)), null, undefined, true, {}, [midpoint(d)]],
      },
    ];
    const invalidArgs = invalidSets.map((set) =>
      domains.flatMap((d, i) =>
        set
          .values(d)
          .filter((v) => !(defaulted[i] && v === undefined))
          .map((v) => withArg(i, v)),
      ),
    );
    const validArbs = fc.tuple(...domains.map(validArb));
    const outsideArb = fc.tuple(
      fc.nat({ max: domains.length - 1 }),
      fc.boolean(),
      fc.double({ min: 0, max: 1e12, noNaN: true, noDefaultInfinity: true }),
    );
    const outsideArgs = ([i, below, gap]: [number, boolean, number]): unknown[] | undefined => {
      const d = domains[i] as Domain;
      const edge = justOutside(d)[below ? 0 : 1] as number;
      const v = below ? edge - gap : edge + gap;
      return Number.isFinite(v) ? withArg(i, v) : undefined;
    };
    // The bounds and the invalid sets in one request, each property's cases in one more.
    await observed.prime([...boundProbes, ...invalidArgs.flat()]);
    const validObserved = new Observed<unknown[], CallsProbe>(session, oneCall);
    const outsideObserved = new Observed<[number, boolean, number], CallsProbe>(session, (pick) =>
      callsProbe(outsideArgs(pick) ? [outsideArgs(pick) as unknown[]] : []),
    );

    const boundFailures: string[] = [];
    for (const args of boundProbes) {
      const r = await outcome(args);
      if (r.threw !== undefined) boundFailures.push(`${call(args)} threw (${r.threw})`);
      else if (!finiteResult(r.value)) boundFailures.push(`${call(args)} returned ${show(r.value)}`);
    }
    checks.push(
      listCheck(
        "valid-bounds",
        "valid inputs at the domain bounds give finite results",
        boundFailures,
        boundProbes.length,
      ),
    );

    checks.push(
      await observedPropertyCheck(
        "valid-random",
        "random valid inputs give finite results",
        validArbs,
        validObserved,
        (args, obs) => {
          const r = only(obs);
          if (r.threw !== undefined) throw new Error(`${call(args)} threw on valid input: ${r.threw}`);
          expect(finiteResult(r.value), () => `${call(args)} returned ${show(r.value)}, not a finite number`);
        },
        params,
      ),
    );

    for (const [k, set] of invalidSets.entries()) {
      const list = invalidArgs[k] as unknown[][];
      if (list.length === 0) continue;
      const failures: string[] = [];
      for (const args of list) {
        const r = refused(await outcome(args), policy);
        if (!r.ok) failures.push(`${call(args)} returned ${r.seen}`);
      }
      checks.push(listCheck(set.id, `${set.what} must be refused (${policy})`, failures, list.length));
    }

    checks.push(
      await observedPropertyCheck(
        "invalid-random",
        `random out-of-domain inputs must be refused (${policy})`,
        outsideArb,
        outsideObserved,
        (pick, obs) => {
          const args = outsideArgs(pick);
          if (!args) return;
          const d = domains[pick[0]] as Domain;
          const r = refused(only(obs), policy);
          expect(r.ok, () => `${call(args)} returned ${r.seen} for an input outside [${d.min}, ${d.max}]`);
        },
        params,
      ),
    );
    return {
      checks,
      metrics: { domains, arity, defaulted, invalid: policy, runs: params.numRuns },
    };
  },
};
