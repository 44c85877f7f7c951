import { callsCollector } from "../shared/calls-probe.js";
import { ROW_FIELDS, type RowsObservation } from "./rows.js";

/**
 * leakage, child side: calls `split(rows, opts)` as the judge asks (gates/leakage/index.ts). Of a returned
 * `{train, test}` only each row's `id`, `group` and `ts` are observed (as tuples): the judge needs nothing
 * else, and thousands of whole rows per run cost more to carry than the split itself. Any other value is
 * observed whole.
 */
export const collector = callsCollector("leakage", (value): unknown => {
  if (value === null || typeof value !== "object") return value;
  const v = value as { train?: unknown; test?: unknown };
  const train = v.train;
  const test = v.test;
  if (!Array.isArray(train) || !Array.isArray(test)) return value;
  const tuple = (row: unknown) => {
    if (row === null || typeof row !== "object") return row;
    const r = row as Record<string, unknown>;
    return ROW_FIELDS.map((k) => r[k]);
  };
  return {
    rows: ROW_FIELDS.join(","),
    train: train.map(tuple),
    test: test.map(tuple),
  } satisfies RowsObservation;
});
