/**
 * Thresholds judged like every other unit of the verdict: with their uncertainty and against the base. A threshold
 * blocks only when the head is below it with confidence (`unit-rates.ts`: one vote per case or query, Hoeffding's
 * bound) and the base meets it on the same measure, or there is no base to compare with. A head below a threshold
 * the base misses too is pre-existing; below it by a small sample's point figure only, it is reported.
 */
import { discriminatorUnits } from "../grade/discriminator.js";
import { triggerUnits } from "../grade/trigger.js";
import {
  confidentlyBelow,
  type FigureUnits,
  figureInterval,
  figureValue,
  unitNoun,
} from "../grade/unit-rates.js";
import type { DiscriminatorSummary, Thresholds, TriggerSummary } from "../model/index.js";

export type ThresholdKey = keyof Thresholds;

/** One arm's batteries, as the thresholds read them. */
export interface ArmFigures {
  discriminator?: DiscriminatorSummary | undefined;
  trigger?: TriggerSummary | undefined;
}

/**
 * `below`: confidently below, the base meets it (or there is no base): blocks. `pre-existing`: confidently below,
 * and the base misses it too. `not-significant`: below by the point figure only. `unmeasured`: the head's figure
 * could not be computed (`baseUnmeasured`: neither could the base's).
 */
export type ThresholdStatus = "below" | "pre-existing" | "not-significant" | "unmeasured";

export interface ThresholdJudgement {
  key: ThresholdKey;
  min: number;
  status: ThresholdStatus;
  /** The α the head was judged at (the skill's α shared over its thresholds). */
  alpha: number;
  head?: FigureText;
  base?: FigureText;
  /** Whether the comparison had a base arm measuring the same figure. */
  compared: boolean;
}

/** A figure as printed: its value, 95 % interval and the units behind it. */
export interface FigureText {
  value: number;
  low: number;
  high: number;
  units: number;
  unit: string;
}

/** The units of one thresholded figure in one arm; undefined when that battery did not measure it. */
export function unitsFor(key: ThresholdKey, arm: ArmFigures | undefined): FigureUnits | undefined {
  if (key === "discriminatorPassRate" || key === "discriminatorLift")
    return arm?.discriminator ? discriminatorUnits(arm.discriminator, key) : undefined;
  return arm?.trigger ? triggerUnits(arm.trigger.queries, key) : undefined;
}

function describe(f: FigureUnits | undefined): FigureText | undefined {
  const value = f && figureValue(f);
  if (!f || value === undefined) return undefined;
  const { low, high } = figureInterval(f);
  const units =
    f.kind === "mean"
      ? f.units.filter((u) => u.total > 0).length
      : f.kind === "lift"
        ? f.skill.filter((u) => u.total > 0 && f.baseline.some((b) => b.id === u.id && b.total > 0)).length
        : [...f.fire, ...f.nofire].filter((u) => u.total > 0).length;
  return { value, low, high, units, unit: f.kind === "mean" ? f.unit : f.kind === "lift" ? "case" : "query" };
}

/**
 * Judges every threshold set for the skill. `base` is the base arm's figures, undefined when the skill has no base
 * arm (a new skill, a sweep). α is the policy's, shared by the skill's thresholds (Bonferroni).
 */
export function judgeThresholds(
  thresholds: Thresholds,
  head: ArmFigures,
  base: ArmFigures | undefined,
  alpha: number,
): ThresholdJudgement[] {
  const keys = (Object.keys(thresholds) as ThresholdKey[]).filter((k) => thresholds[k] !== undefined);
  const share = alpha / Math.max(1, keys.length);
  return keys.flatMap((key) => {
    const j = judgeOne(key, thresholds[key]!, unitsFor(key, head), base && unitsFor(key, base), share);
    return j ? [j] : [];
  });
}

function judgeOne(
  key: ThresholdKey,
  min: number,
  headUnits: FigureUnits | undefined,
  baseUnits: FigureUnits | undefined,
  alpha: number,
): ThresholdJudgement | undefined {
  const head = describe(headUnits);
  const base = describe(baseUnits);
  const common = {
    key,
    min,
    alpha,
    ...(head ? { head } : {}),
    ...(base ? { base } : {}),
    compared: !!base,
  };
  if (!head) return { ...common, status: "unmeasured" };
  if (head.value >= min) return undefined;
  if (!confidentlyBelow(headUnits!, min, alpha)) return { ...common, status: "not-significant" };
  return { ...common, status: base && base.value < min ? "pre-existing" : "below" };
}

const pct = (x: number) => `${Math.round(x * 1000) / 10} %`;

/** "0.536 [0.21–0.86] over 6 queries". */
export function figureText(f: FigureText, key: ThresholdKey): string {
  const n = (x: number) => (key === "discriminatorLift" && x > 0 ? `+${x.toFixed(3)}` : x.toFixed(3));
  return `${n(f.value)} [${n(f.low)}–${n(f.high)}] over ${f.units} ${unitNoun(f.unit, f.units)}`;
}

/** The confidence a judgement was made at, as printed. */
export const confidenceText = (alpha: number) => pct(1 - alpha);
