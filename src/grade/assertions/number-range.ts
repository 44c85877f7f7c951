import type { Assertion } from "../../model/suite.js";
import { parseNumber } from "../extract.js";
import { errorOutcome, extractFor, missingValue, outcome, showValue } from "./common.js";
import type { AssertionComparator } from "./compare.js";
import type { AssertionType } from "./registry.js";

/** The extracted value is a number within `range: [min, max]` (inclusive; `null` leaves a side open). */
export const numberRange: AssertionType = {
  type: "number-range",
  level: "outcome",
  compare: rangeComparator(),
  schema: {
    type: "object",
    required: ["range"],
    properties: {
      range: { type: "array", minItems: 2, maxItems: 2, items: { type: ["number", "null"] } },
    },
    additionalProperties: false,
  },
  async evaluate(a, ctx) {
    const [min, max] = a.params.range as [number | null, number | null];
    if ((min !== null && typeof min !== "number") || (max !== null && typeof max !== "number")) {
      return errorOutcome(`range must be [min, max] numbers, got ${JSON.stringify(a.params.range)}`);
    }
    const expected = `${a.extract ?? "first-number"} within [${min ?? "-∞"}, ${max ?? "∞"}]`;
    const got = extractFor(a, ctx, "first-number");
    if (!got.ok) return missingValue(got.reason, expected);
    const n = typeof got.value === "number" ? got.value : parseNumber(String(got.value).trim());
    if (Number.isNaN(n))
      return missingValue(`${got.description} ${showValue(got.value)} is not a number`, expected);
    const pass = (min === null || n >= min) && (max === null || n <= max);
    return outcome(pass, expected, `${got.description}: ${n}`);
  },
};

type Bounds = { min?: number; max?: number };

const finite = (x: unknown): number | undefined =>
  typeof x === "number" && Number.isFinite(x) ? x : undefined;

/** `range: [min, max]`, `range: {min, max}` or `min`/`max` params. */
function boundsOf(a: Assertion): Bounds {
  const r = a.params.range;
  let min: number | undefined;
  let max: number | undefined;
  if (Array.isArray(r)) [min, max] = [finite(r[0]), finite(r[1])];
  else if (r && typeof r === "object") {
    const o = r as Record<string, unknown>;
    [min, max] = [finite(o.min), finite(o.max)];
  } else [min, max] = [finite(a.params.min), finite(a.params.max)];
  return { ...(min !== undefined ? { min } : {}), ...(max !== undefined ? { max } : {}) };
}

const fmtBounds = (b: Bounds): string => `[${b.min ?? "-∞"}, ${b.max ?? "+∞"}]`;

/** Does `outer` accept every number `inner` accepts, and more? */
function strictlyWider(outer: Bounds, inner: Bounds): boolean {
  const lowWider = inner.min !== undefined && (outer.min === undefined || outer.min < inner.min);
  const highWider = inner.max !== undefined && (outer.max === undefined || outer.max > inner.max);
  return lowWider || highWider;
}

/** A wider range accepts more; a negated range forbids its inside, so narrowing it loosens the check. */
function rangeComparator(): AssertionComparator {
  return {
    ranks: () => ["range", "min", "max"],
    changes(ba, ha, name) {
      const [b, h] = [boundsOf(ba), boundsOf(ha)];
      const loosened = ha.negate ? strictlyWider(b, h) : strictlyWider(h, b);
      const tightened = ha.negate ? strictlyWider(h, b) : strictlyWider(b, h);
      const verb = ha.negate ? "forbidden range" : "range";
      const from = `from ${fmtBounds(b)} to ${fmtBounds(h)}`;
      // A range moved both ways (wider on one side, narrower on the other) is not comparable: a loosening.
      if (loosened)
        return [
          {
            kind: "range-widened",
            rank: tightened ? "changed" : "loosened",
            message: `${name}: ${verb} ${ha.negate ? "narrowed" : "widened"} ${from}`,
          },
        ];
      if (tightened)
        return [
          {
            kind: "range-narrowed",
            rank: "tightened",
            message: `${name}: ${verb} ${ha.negate ? "widened" : "narrowed"} ${from}`,
          },
        ];
      return [];
    },
  };
}
