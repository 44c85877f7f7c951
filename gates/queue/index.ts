/**
 * queue (seed domain 04, system design): `createQueue({concurrency, maxAttempts, handler}) → {push(job),
 * drain(), deadLetters()}`, jobs `{id, payload}`. Random scenarios mix good, transient (fail k < maxAttempts
 * times) and poison (always fail) jobs, pushed at once, handlers that take a few event-loop turns. Invariants:
 * in-flight never above `concurrency`, yet full parallelism reached; every good or transient job succeeds
 * exactly once; poison jobs are tried exactly `maxAttempts` times and land in the dead-letter list once,
 * unmodified; no job is tried more than `maxAttempts` times; `drain()` resolves, and only when all is settled.
 * Some scenarios push in 2–3 phases, each after the previous `drain()` resolved (to an idle queue); some pass a
 * per-attempt `timeoutMs` with slow jobs that outlast it; others run the module's timers on a virtual clock with
 * attempts that take ~25 days of it, so a timeout the module keeps under an option of its own, of any length,
 * fires (gates/shared/virtual-clock.ts). An attempt cannot be cancelled: a queue may stop
 * waiting for it, but must not start the job again while it runs, and a late success is a success.
 */
import { TAGGED } from "../../src/sandbox/tagged.js";
import { ObservationError } from "../judging.js";
import { Observed, observedInvariantChecks, propertyParams } from "../shared/property.js";
import type { GateCheck, GateJudge, ProbeSession } from "../types.js";
import { drainFailure, INVARIANTS, verify } from "./invariants.js";
import { replayScenario } from "./replay.js";
import { type Scenario, scenarioArb, scenarioProbe } from "./scenario.js";
import type { QueueProbe } from "./trace.js";

const EVENT = {
  anyOf: [
    { type: "array", items: [{ const: "start" }, { type: "integer", minimum: 0 }], minItems: 2, maxItems: 2 },
    {
      type: "array",
      items: [{ const: "end" }, { type: "integer", minimum: 0 }, { enum: ["ok", "fail"] }],
      minItems: 3,
      maxItems: 3,
    },
    { type: "array", items: [{ const: "stray" }, TAGGED], minItems: 2, maxItems: 2 },
  ],
};

const QUEUE_OBSERVATION_SCHEMA = {
  type: "object",
  required: ["events", "drains"],
  additionalProperties: false,
  properties: {
    events: { type: "array", items: EVENT },
    drains: {
      type: "array",
      items: {
        type: "object",
        required: ["how", "at"],
        additionalProperties: false,
        properties: {
          how: { enum: ["resolved", "rejected", "timeout"] },
          at: { type: "integer", minimum: 0 },
          error: { type: "string" },
        },
      },
    },
    dead: {
      oneOf: [
        {
          type: "object",
          required: ["value"],
          additionalProperties: false,
          properties: { value: TAGGED },
        },
        {
          type: "object",
          required: ["threw"],
          additionalProperties: false,
          properties: { threw: { type: "string" } },
        },
      ],
    },
    failure: { type: "string" },
  },
};

/** One fixed scenario first: a drain that never resolves would make every random case wait for the timeout. */
const FIXED: Scenario = {
  concurrency: 3,
  maxAttempts: 2,
  jobs: [
    { kind: "ok", failures: 1, ticks: 1 },
    { kind: "transient", failures: 1, ticks: 2 },
    { kind: "poison", failures: 1, ticks: 1 },
    { kind: "ok", failures: 1, ticks: 1 },
  ],
};
/**
 * Then the same jobs in two pushes, the second to the idle queue after drain() resolved: a queue that never
 * restarts would make every phased random case wait for the timeout too.
 */
const FIXED_CASES: [Scenario, string][] = [
  [FIXED, "4 jobs, concurrency 3"],
  [
    { ...FIXED, phases: 2 },
    "4 jobs, concurrency 3, the last 2 pushed to the idle queue after the first drain() resolved",
  ],
];

/** The checks when a fixed scenario's drain() hangs or fails: `drain` fails, every other one is not checked. */
async function fixedScenariosHang(
  observed: Observed<Scenario, QueueProbe>,
): Promise<GateCheck[] | undefined> {
  let hang: string | undefined;
  for (const [s, what] of FIXED_CASES) {
    try {
      const [, r] = replayScenario(s, await observed.get(s));
      if (r.drained !== "resolved") hang = drainFailure(r);
    } catch (err) {
      if (err instanceof ObservationError) throw err;
      hang = err instanceof Error ? err.message : String(err);
    }
    if (hang) {
      const why = hang;
      return INVARIANTS.map(
        (i): GateCheck => ({
          id: i.id,
          passed: false,
          message: i.id === "drain" ? `${why} (${what})` : `not checked: ${why}`,
        }),
      );
    }
  }
  return undefined;
}

export const queue: GateJudge = {
  id: "queue",
  observationSchema: QUEUE_OBSERVATION_SCHEMA,
  async judge(session: ProbeSession, ctx) {
    const params = propertyParams(ctx.seed, ctx.options);
    const observed = new Observed<Scenario, QueueProbe>(session, scenarioProbe);
    const hung = await fixedScenariosHang(observed);
    if (hung) return { checks: hung };
    const checks = await observedInvariantChecks(
      INVARIANTS,
      scenarioArb,
      observed,
      (on, s, obs) => {
        const [probe, run] = replayScenario(s, obs);
        verify(run, s, probe.ids, on);
      },
      params,
    );
    return { checks, metrics: { runs: params.numRuns } };
  },
};
