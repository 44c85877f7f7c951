/**
 * What stands behind a printed rate, in every output: `12/13` trials for a check's own rate, `5/6 queries` (units
 * whose own rate is at least one half) for a battery figure, which counts each case or query once.
 */
import { unitNoun } from "../grade/unit-rates.js";
import type { RateWithInterval, UnitRate } from "../model/report.js";

export type PrintedRate = RateWithInterval | UnitRate;

const isUnitRate = (r: PrintedRate): r is UnitRate => "units" in r;

/** Whether the rate measured anything (a precision of a skill that never fired did not). */
export function rateMeasured(r: PrintedRate | undefined): r is PrintedRate {
  if (!r) return false;
  return isUnitRate(r) ? r.measured : r.total > 0;
}

/** `15/28`, `5/6 queries`, or `10 queries` for a figure with no per-unit pass (precision). */
export function rateCounts(r: PrintedRate): string {
  if (!isUnitRate(r)) return `${r.passed}/${r.total}`;
  const noun = unitNoun(r.unit, r.units);
  return r.passing !== undefined ? `${r.passing}/${r.units} ${noun}` : `${r.units} ${noun}`;
}
