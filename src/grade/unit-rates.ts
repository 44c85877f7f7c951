/**
 * Battery figures with one vote per stimulus: every case or trigger query counts once, its rate from its own trials,
 * however many trials the adaptive confirmation gave it (a flaky case's 36 confirmation trials must not weigh 12
 * times a steady case's 3). Their uncertainty is Hoeffding's bound on a weighted sum of independent trials, which
 * holds whatever the number of trials per unit (no normal approximation, no equal sizes).
 *
 * A figure is a statistic S_t whose sign says where it stands against a value t:
 * - a mean of unit rates (pass rate, recall, accuracy): S_t = Σ w_u p̂_u / Σ w_u − t;
 * - a lift (skill minus baseline over the cases measured in both): S_t = Σ (ŝ_c − b̂_c) / C − t;
 * - a precision A / (A + B), A the should-fire queries' fire rates, B the should-not-fire ones' (weighted):
 *   S_t = (1 − t)·A − t·B, below zero exactly when the precision is below t.
 * Each trial of unit u adds coef_u / n_u to S_t, so P(S_t − E S_t ≥ h) ≤ exp(−2h² / Σ_u coef_u² / n_u).
 */

import type { UnitRate } from "../model/report.js";

/** One case's or query's own trials: `passed` of `total` (a query: fired runs), weighted (waza medium: 0.5). */
export interface UnitCount {
  id: string;
  passed: number;
  total: number;
  weight?: number;
}

/** The units behind one figure. `lift` pairs skill and baseline units by id (cases measured in both only). */
export type FigureUnits =
  | { kind: "mean"; unit: UnitRate["unit"]; units: UnitCount[] }
  | { kind: "lift"; skill: UnitCount[]; baseline: UnitCount[] }
  | { kind: "precision"; fire: UnitCount[]; nofire: UnitCount[] };

interface Term {
  coef: number;
  n: number;
}

const measuredUnits = (xs: readonly UnitCount[]) => xs.filter((u) => u.total > 0);
const weightOf = (u: UnitCount) => u.weight ?? 1;
const rateOf = (u: UnitCount) => u.passed / u.total;

/** The cases measured in both modes, as [skill, baseline] pairs. */
function pairs(f: Extract<FigureUnits, { kind: "lift" }>): [UnitCount, UnitCount][] {
  const base = new Map(measuredUnits(f.baseline).map((u) => [u.id, u]));
  return measuredUnits(f.skill).flatMap((s) => {
    const b = base.get(s.id);
    return b ? [[s, b] as [UnitCount, UnitCount]] : [];
  });
}

/** S_t's observed value and its terms; undefined when the figure has no measured unit. */
function statistic(f: FigureUnits, t: number): { value: number; terms: Term[] } | undefined {
  if (f.kind === "mean") {
    const us = measuredUnits(f.units);
    const w = us.reduce((a, u) => a + weightOf(u), 0);
    if (us.length === 0 || w <= 0) return undefined;
    return {
      value: us.reduce((a, u) => a + (weightOf(u) * rateOf(u)) / w, 0) - t,
      terms: us.map((u) => ({ coef: weightOf(u) / w, n: u.total })),
    };
  }
  if (f.kind === "lift") {
    const ps = pairs(f);
    if (ps.length === 0) return undefined;
    const c = ps.length;
    return {
      value: ps.reduce((a, [s, b]) => a + (rateOf(s) - rateOf(b)) / c, 0) - t,
      terms: ps.flatMap(([s, b]) => [
        { coef: 1 / c, n: s.total },
        { coef: 1 / c, n: b.total },
      ]),
    };
  }
  const fire = measuredUnits(f.fire);
  const nofire = measuredUnits(f.nofire);
  if (fire.length + nofire.length === 0) return undefined;
  return {
    value:
      fire.reduce((a, u) => a + (1 - t) * weightOf(u) * rateOf(u), 0) -
      nofire.reduce((a, u) => a + t * weightOf(u) * rateOf(u), 0),
    terms: [
      ...fire.map((u) => ({ coef: (1 - t) * weightOf(u), n: u.total })),
      ...nofire.map((u) => ({ coef: t * weightOf(u), n: u.total })),
    ],
  };
}

/** Hoeffding's one-sided half-width at level α for a sum of the terms' trials. */
export function hoeffdingHalfWidth(terms: readonly Term[], alpha: number): number {
  const spread = terms.reduce((a, { coef, n }) => a + (coef * coef) / n, 0);
  return Math.sqrt((Math.log(1 / alpha) / 2) * spread);
}

/** The figure's point value; undefined when nothing was measured (precision: when nothing ever fired). */
export function figureValue(f: FigureUnits): number | undefined {
  if (f.kind === "precision") {
    const a = measuredUnits(f.fire).reduce((x, u) => x + weightOf(u) * rateOf(u), 0);
    const b = measuredUnits(f.nofire).reduce((x, u) => x + weightOf(u) * rateOf(u), 0);
    return a + b > 0 ? a / (a + b) : undefined;
  }
  const s = statistic(f, 0);
  return s?.value;
}

/** Whether the figure is below `t` with confidence 1 − α (false when nothing was measured). */
export function confidentlyBelow(f: FigureUnits, t: number, alpha: number): boolean {
  const s = statistic(f, t);
  return !!s && s.value + hoeffdingHalfWidth(s.terms, alpha) < 0;
}

/** Whether the figure is above `t` with confidence 1 − α. */
export function confidentlyAbove(f: FigureUnits, t: number, alpha: number): boolean {
  const s = statistic(f, t);
  return !!s && s.value - hoeffdingHalfWidth(s.terms, alpha) > 0;
}

/**
 * The two-sided interval at `level` (each side (1 − level)/2): the values t the figure is not confidently below or
 * above. Found by bisection, as precision's statistic is no mean.
 */
export function figureInterval(f: FigureUnits, level = 0.95): { low: number; high: number } {
  const alpha = (1 - level) / 2;
  const [lo, hi] = f.kind === "lift" ? [-1, 1] : [0, 1];
  if (statistic(f, 0) === undefined) return { low: lo, high: hi };
  // high: the least t the figure is confidently below; low: the greatest t it is confidently above.
  const bisect = (holds: (t: number) => boolean, wantLow: boolean) => {
    let a = lo;
    let b = hi;
    for (let i = 0; i < 40; i++) {
      const m = (a + b) / 2;
      if (holds(m) === wantLow) b = m;
      else a = m;
    }
    return (a + b) / 2;
  };
  return {
    low: confidentlyAbove(f, lo, alpha) ? bisect((t) => !confidentlyAbove(f, t, alpha), true) : lo,
    high: confidentlyBelow(f, hi, alpha) ? bisect((t) => confidentlyBelow(f, t, alpha), true) : hi,
  };
}

/** A printed figure: value, 95 % interval, units and trials behind it. `passing`: units whose own rate is ≥ ½. */
export function unitRate(f: FigureUnits, emptyRate = 0): UnitRate {
  const units =
    f.kind === "mean"
      ? measuredUnits(f.units)
      : f.kind === "lift"
        ? pairs(f).flat()
        : [...measuredUnits(f.fire), ...measuredUnits(f.nofire)];
  const value = figureValue(f);
  const { low, high } = figureInterval(f);
  return {
    rate: value ?? emptyRate,
    low,
    high,
    units: f.kind === "lift" ? units.length / 2 : units.length,
    ...(f.kind === "mean" ? { passing: units.filter((u) => rateOf(u) >= 0.5).length } : {}),
    trials: units.reduce((a, u) => a + u.total, 0),
    unit: f.kind === "mean" ? f.unit : f.kind === "lift" ? "case" : "query",
    measured: value !== undefined,
  };
}

/** "case", "cases", "query", "queries". */
export function unitNoun(unit: string, n: number): string {
  if (unit === "query") return n === 1 ? "query" : "queries";
  return n === 1 ? unit : `${unit}s`;
}
