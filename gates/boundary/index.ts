/**
 * boundary (seed domain 01, coding): `fn(...args: number[])` must return a finite number (or an array of
 * finite numbers) for every input inside its domain — bounds included — and refuse everything else: NaN,
 * ±Infinity, values just outside the bounds, fractions where integers are required, non-numbers. Refusing
 * means throwing (`invalid: "throw"`, default) or, with `invalid: "throw-or-null"`, also returning null.
 */
import fc from "fast-check";
import { functionExport } from "../shared/input.js";
import { GateOptionError, type InvalidPolicy, invalidPolicy } from "../shared/options.js";
import { attempt, expect, propertyCheck, propertyParams, show } from "../shared/property.js";
import type { Gate, GateCheck, GateInput } from "../types.js";

type Fn = (...args: unknown[]) => unknown;

export interface Domain {
  min: number;
  max: number;
  integer: boolean;
}

/** Domain of each argument when the options give none. */
export const DEFAULT_DOMAIN: Domain = { min: -1_000_000, max: 1_000_000, integer: false };
/** Most examples listed in one failure message. */
const MAX_LISTED = 5;

export function parseDomains(options: Record<string, unknown>, arity: number): Domain[] {
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

function refused(fn: Fn, args: unknown[], policy: InvalidPolicy): { ok: boolean; seen: string } {
  const r = attempt(() => fn(...args));
  if (r.threw) return { ok: true, seen: "threw" };
  if (policy === "throw-or-null" && r.value === null) return { ok: true, seen: "null" };
  return { ok: false, seen: show(r.value) };
}

function call(args: unknown[]): string {
  return `fn(${args.map(show).join(", ")})`;
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

export const boundary: Gate = {
  id: "boundary",
  defaultExports: [],
  async run(input: GateInput, ctx) {
    const target = functionExport<Fn>(input);
    if ("failed" in target) return target.failed;
    const fn = target.fn;
    const domains = parseDomains(ctx.options, fn.length);
    const policy = invalidPolicy(ctx.options);
    const params = propertyParams(ctx.seed, ctx.options);
    const mids = domains.map(midpoint);
    const withArg = (i: number, v: unknown) => mids.map((m, j) => (j === i ? v : m));
    const checks: GateCheck[] = [];

    // Valid: every bound, alone and all together; each must give a finite result without throwing.
    const boundProbes: unknown[][] = [domains.map((d) => d.min), domains.map((d) => d.max), mids];
    domains.forEach((d, i) => {
      boundProbes.push(withArg(i, d.min), withArg(i, d.max));
    });
    const boundFailures: string[] = [];
    for (const args of boundProbes) {
      const r = attempt(() => fn(...args));
      if (r.threw) boundFailures.push(`${call(args)} threw (${r.error})`);
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
      propertyCheck(
        "valid-random",
        "random valid inputs give finite results",
        fc.property(fc.tuple(...domains.map(validArb)), (args) => {
          const r = attempt(() => fn(...args));
          if (r.threw) throw new Error(`${call(args)} threw on valid input: ${r.error}`);
          expect(finiteResult(r.value), () => `${call(args)} returned ${show(r.value)}, not a finite number`);
        }),
        params,
      ),
    );

    const probeInvalid = (id: string, what: string, values: (d: Domain) => unknown[]) => {
      const failures: string[] = [];
      let total = 0;
      domains.forEach((d, i) => {
        for (const v of values(d)) {
          total++;
          const args = withArg(i, v);
          const r = refused(fn, args, policy);
          if (!r.ok) failures.push(`${call(args)} returned ${r.seen}`);
        }
      });
      if (total > 0) checks.push(listCheck(id, `${what} must be refused (${policy})`, failures, total));
    };
    probeInvalid("invalid-nonfinite", "NaN and ±Infinity", () => [
      Number.NaN,
      Number.POSITIVE_INFINITY,
      Number.NEGATIVE_INFINITY,
    ]);
    probeInvalid("invalid-outside", "values just outside the domain", justOutside);
    probeInvalid("invalid-fraction", "fractions where integers are required", (d) =>
      d.integer && d.min + 0.5 <= d.max ? [d.min + 0.5] : [],
    );
    probeInvalid("invalid-type", "non-numbers", (d) => [
      String(midpoint(d)),
      null,
      undefined,
      true,
      {},
      [midpoint(d)],
    ]);

    const outsideArb = fc.tuple(
      fc.nat({ max: domains.length - 1 }),
      fc.boolean(),
      fc.double({ min: 0, max: 1e12, noNaN: true, noDefaultInfinity: true }),
    );
    checks.push(
      propertyCheck(
        "invalid-random",
        `random out-of-domain inputs must be refused (${policy})`,
        fc.property(outsideArb, ([i, below, gap]) => {
          const d = domains[i] as Domain;
          const edge = justOutside(d)[below ? 0 : 1] as number;
          const v = below ? edge - gap : edge + gap;
          if (!Number.isFinite(v)) return;
          const args = withArg(i, v);
          const r = refused(fn, args, policy);
          expect(r.ok, () => `${call(args)} returned ${r.seen} for an input outside [${d.min}, ${d.max}]`);
        }),
        params,
      ),
    );
    return { checks, metrics: { domains, invalid: policy, runs: params.numRuns } };
  },
};
