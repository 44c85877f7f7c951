/**
 * queue (seed domain 04, system design): `createQueue({concurrency, maxAttempts, handler}) → {push(job),
 * drain(), deadLetters()}`, jobs `{id, payload}`. Random scenarios mix good, transient (fail k < maxAttempts
 * times) and poison (always fail) jobs, pushed at once, handlers that take a few event-loop turns. Invariants:
 * in-flight never above `concurrency`, yet full parallelism reached; every good or transient job succeeds
 * exactly once; poison jobs are tried exactly `maxAttempts` times and land in the dead-letter list once,
 * unmodified; no job is tried more than `maxAttempts` times; `drain()` resolves, and only when all is settled.
 */
import fc from "fast-check";
import { decodeValue, TAGGED } from "../../src/sandbox/tagged.js";
import { ObservationError } from "../judging.js";
import {
  InvariantError,
  Observed,
  observedInvariantChecks,
  propertyParams,
  show,
} from "../shared/property.js";
import type { GateCheck, GateJudge, ProbeSession } from "../types.js";
import {
  type JobSpec,
  jobIdOf,
  type Kind,
  payloadOf,
  type QueueObservation,
  type QueueProbe,
} from "./trace.js";

/** Longest a drain may take before it counts as never resolving (handlers take microseconds). */
export const DRAIN_TIMEOUT_MS = 500;
const MAX_JOBS = 10;

export const INVARIANTS = [
  { id: "concurrency-limit", what: "never more handlers in flight than `concurrency`" },
  { id: "parallelism", what: "min(concurrency, jobs) handlers run in parallel" },
  { id: "exactly-once", what: "every good and transient job succeeds exactly once" },
  {
    id: "retries",
    what: "transient jobs are retried until they succeed; poison jobs get exactly maxAttempts tries",
  },
  { id: "retry-storm", what: "no job is tried more than maxAttempts times, none after succeeding" },
  { id: "dead-letters", what: "exactly the poison jobs are dead-lettered, once each, unmodified" },
  { id: "drain", what: "drain() resolves, and only after every job has settled" },
] as const;

const scenarioArb = fc
  .record({ concurrency: fc.integer({ min: 1, max: 8 }), maxAttempts: fc.integer({ min: 1, max: 4 }) })
  .chain(({ concurrency, maxAttempts }) =>
    fc.record({
      concurrency: fc.constant(concurrency),
      maxAttempts: fc.constant(maxAttempts),
      jobs: fc.array(
        fc.record({
          // A transient job fails fewer times than maxAttempts; with one attempt there are none.
          kind:
            maxAttempts > 1
              ? fc.constantFrom<Kind>("ok", "ok", "transient", "poison")
              : fc.constantFrom<Kind>("ok", "ok", "poison"),
          failures: fc.integer({ min: 1, max: Math.max(1, maxAttempts - 1) }),
          ticks: fc.integer({ min: 1, max: 2 }),
        }),
        { minLength: 1, maxLength: MAX_JOBS },
      ),
    }),
  );

interface Run {
  peak: number;
  attempts: Map<string, number>;
  successes: Map<string, number>;
  attemptAfterSuccess: string[];
  /** Jobs started again while an attempt of theirs was still running. */
  overlapping: string[];
  stray: string[];
  drained: "resolved" | "rejected" | "timeout";
  drainError?: string;
  inFlightAtDrain: number;
  dead: unknown[] | string;
}

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

export const QUEUE_OBSERVATION_SCHEMA = {
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

/** Reads the trace of one scenario into what the invariants talk about; rejects impossible traces. */
export function replay(s: QueueProbe, obs: QueueObservation): Run {
  if (obs.failure !== undefined) throw new InvariantError("drain", obs.failure);
  const run: Run = {
    peak: 0,
    attempts: new Map(),
    successes: new Map(),
    attemptAfterSuccess: [],
    overlapping: [],
    stray: [],
    drained: "timeout",
    inFlightAtDrain: 0,
    dead: [],
  };
  const running = new Map<string, number>();
  let active = 0;
  const activeAt: number[] = [0];
  for (const ev of obs.events) {
    if (ev[0] === "stray") run.stray.push(show(decodeValue(ev[1])));
    else {
      const id = s.ids[ev[1]];
      if (id === undefined) throw new ObservationError(`the trace names job ${ev[1]} of ${s.ids.length}`);
      if (ev[0] === "start") {
        run.attempts.set(id, (run.attempts.get(id) ?? 0) + 1);
        if ((run.successes.get(id) ?? 0) > 0) run.attemptAfterSuccess.push(id);
        if ((running.get(id) ?? 0) > 0) run.overlapping.push(id);
        running.set(id, (running.get(id) ?? 0) + 1);
        active++;
        run.peak = Math.max(run.peak, active);
      } else {
        if ((running.get(id) ?? 0) < 1) throw new ObservationError(`job ${id} ended without starting`);
        running.set(id, (running.get(id) ?? 0) - 1);
        active--;
        if (ev[2] === "ok") run.successes.set(id, (run.successes.get(id) ?? 0) + 1);
      }
    }
    activeAt.push(active);
  }
  const phases = s.phases.length;
  const drains = obs.drains;
  if (drains.length === 0 || drains.length > phases)
    throw new ObservationError(`${drains.length} drains observed for ${phases} phase(s)`);
  const failedDrain = drains.find((d) => d.how !== "resolved");
  const last = failedDrain ?? (drains[drains.length - 1] as QueueObservation["drains"][number]);
  if (!failedDrain && drains.length !== phases)
    throw new ObservationError(`${drains.length} drains observed for ${phases} phase(s)`);
  run.drained = last.how;
  run.drainError = last.error;
  for (const d of drains) {
    const inFlight = activeAt[d.at];
    if (inFlight === undefined)
      throw new ObservationError(`a drain settled after event ${d.at} of ${obs.events.length}`);
    if (d.how === "resolved") run.inFlightAtDrain = Math.max(run.inFlightAtDrain, inFlight);
  }
  const dead = obs.dead;
  if (dead === undefined) run.dead = "deadLetters() was never read";
  else if ("threw" in dead) run.dead = `deadLetters() threw ${dead.threw}`;
  else {
    const d = decodeValue(dead.value);
    run.dead = Array.isArray(d) ? d : `deadLetters() returned ${show(d)}, not an array`;
  }
  return run;
}

function verify(
  run: Run,
  s: { concurrency: number; maxAttempts: number; jobs: JobSpec[] },
  ids: string[],
  on: ReadonlySet<string>,
): void {
  const fail = (id: string, msg: string) => {
    if (on.has(id)) throw new InvariantError(id, msg);
  };
  if (run.drained !== "resolved")
    fail(
      "drain",
      run.drained === "timeout"
        ? `drain() did not resolve within ${DRAIN_TIMEOUT_MS} ms`
        : `drain() rejected: ${run.drainError}`,
    );
  if (run.inFlightAtDrain > 0)
    fail("drain", `drain() resolved with ${run.inFlightAtDrain} handler(s) still running`);
  if (run.peak > s.concurrency)
    fail("concurrency-limit", `${run.peak} handlers in flight with concurrency ${s.concurrency}`);
  const want = Math.min(s.concurrency, ids.length);
  if (run.peak < want)
    fail(
      "parallelism",
      `at most ${run.peak} handler(s) in flight; ${want} expected (concurrency ${s.concurrency}, ${ids.length} jobs)`,
    );
  ids.forEach((id, i) => {
    const j = s.jobs[i] as JobSpec;
    const tries = run.attempts.get(id) ?? 0;
    const ok = run.successes.get(id) ?? 0;
    if (tries > s.maxAttempts)
      fail("retry-storm", `${j.kind} job ${id} tried ${tries} times, maxAttempts ${s.maxAttempts}`);
    if (j.kind !== "poison" && ok !== 1) {
      const retriesCut = j.kind === "transient" && tries <= j.failures;
      if (retriesCut)
        fail(
          "retries",
          `transient job ${id} (fails ${j.failures}×) tried only ${tries} time(s), maxAttempts ${s.maxAttempts}`,
        );
      fail("exactly-once", `${j.kind} job ${id} succeeded ${ok} times`);
    }
    if (j.kind === "poison" && tries < s.maxAttempts)
      fail("retries", `poison job ${id} tried ${tries} time(s), maxAttempts ${s.maxAttempts}`);
  });
  if (run.stray.length)
    fail(
      "exactly-once",
      `the handler was called with things that are no job: ${run.stray.slice(0, 2).join("; ")}`,
    );
  if (run.overlapping.length)
    fail(
      "exactly-once",
      `jobs run twice at once (retried while an attempt was still running): ${show([...new Set(run.overlapping)].slice(0, 3))}`,
    );
  if (run.attemptAfterSuccess.length)
    fail("retry-storm", `jobs run again after succeeding: ${show(run.attemptAfterSuccess.slice(0, 3))}`);
  if (typeof run.dead === "string") {
    fail("dead-letters", run.dead);
    return;
  }
  const poison = new Set(ids.filter((_, i) => (s.jobs[i] as JobSpec).kind === "poison"));
  const seen = new Map<string, number>();
  for (const entry of run.dead) {
    const id = jobIdOf(entry);
    if (!id || !poison.has(id)) fail("dead-letters", `dead letter ${show(entry)} is not a poison job`);
    else {
      seen.set(id, (seen.get(id) ?? 0) + 1);
      const payload = payloadOf(entry);
      const original = { jobId: id, data: [id.length, `p-${id}`] };
      if (JSON.stringify(payload) !== JSON.stringify(original))
        fail(
          "dead-letters",
          `dead letter of ${id} carries payload ${show(payload)}, pushed ${show(original)}`,
        );
    }
  }
  for (const id of poison)
    if ((seen.get(id) ?? 0) !== 1)
      fail("dead-letters", `poison job ${id} appears ${seen.get(id) ?? 0} times in deadLetters()`);
}

/** A name for each job of a scenario, the same for the same scenario (the probe is its cache key too). */
function jobIds(s: { concurrency: number; maxAttempts: number; jobs: JobSpec[] }): string[] {
  let h = 2166136261;
  for (const ch of JSON.stringify(s)) h = Math.imul(h ^ ch.charCodeAt(0), 16777619);
  const tag = (h >>> 0).toString(36);
  return s.jobs.map((_, i) => `job-${tag}-${i}`);
}

type Scenario = { concurrency: number; maxAttempts: number; jobs: JobSpec[] };

function scenarioProbe(s: Scenario): QueueProbe {
  return { ...s, ids: jobIds(s), phases: [s.jobs.length], drainTimeoutMs: DRAIN_TIMEOUT_MS };
}

function replayScenario(s: Scenario, obs: unknown): [QueueProbe, Run] {
  const probe = scenarioProbe(s);
  return [probe, replay(probe, obs as QueueObservation)];
}

export const queue: GateJudge = {
  id: "queue",
  observationSchema: QUEUE_OBSERVATION_SCHEMA,
  async judge(session: ProbeSession, ctx) {
    const params = propertyParams(ctx.seed, ctx.options);
    const observed = new Observed<Scenario, QueueProbe>(session, scenarioProbe);
    // One fixed scenario first: a drain that never resolves would make every random case wait for the timeout.
    const fixed: Scenario = {
      concurrency: 3,
      maxAttempts: 2,
      jobs: [
        { kind: "ok", failures: 1, ticks: 1 },
        { kind: "transient", failures: 1, ticks: 2 },
        { kind: "poison", failures: 1, ticks: 1 },
        { kind: "ok", failures: 1, ticks: 1 },
      ],
    };
    let hang: string | undefined;
    try {
      const [, r] = replayScenario(fixed, await observed.get(fixed));
      if (r.drained !== "resolved")
        hang =
          r.drained === "timeout"
            ? `drain() did not resolve within ${DRAIN_TIMEOUT_MS} ms`
            : `drain() rejected: ${r.drainError}`;
    } catch (err) {
      if (err instanceof ObservationError) throw err;
      hang = err instanceof Error ? err.message : String(err);
    }
    if (hang) {
      return {
        checks: INVARIANTS.map(
          (i): GateCheck => ({
            id: i.id,
            passed: false,
            message: i.id === "drain" ? `${hang} (4 jobs, concurrency 3)` : `not checked: ${hang}`,
          }),
        ),
      };
    }
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
