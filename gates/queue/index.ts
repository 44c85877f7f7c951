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
const DRAIN_TIMEOUT_MS = 500;
const MAX_JOBS = 10;
/** The `timeoutMs` given to createQueue in timed scenarios, and how long their slow attempts take. */
const TIMEOUT_MS = 1;
const SLOW_MS = 2;
/**
 * How long a slow attempt takes in a virtual-clock scenario: the longest delay a timer can have (2^31 − 1 ms,
 * ~24.8 days), so a module's own per-attempt timeout of any length fires while the attempt still runs.
 */
const VIRTUAL_SLOW_MS = 2 ** 31 - 1;

const INVARIANTS = [
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

const scenarioArb: fc.Arbitrary<Scenario> = fc
  .record({
    concurrency: fc.integer({ min: 1, max: 8 }),
    maxAttempts: fc.integer({ min: 1, max: 4 }),
    // Pushes in 1–3 phases, each after the previous drain() resolved; a tenth of the scenarios are timed in real
    // time with a `timeoutMs` hint, another tenth run the module's timers on a virtual clock.
    phases: fc.constantFrom(1, 1, 2, 3),
    clock: fc.integer({ min: 0, max: 9 }).map((n) => (n === 0 ? "real" : n === 1 ? "virtual" : "none")),
  })
  .chain(({ concurrency, maxAttempts, phases, clock }) => {
    const timed = clock === "real";
    const slowMs = clock === "virtual" ? VIRTUAL_SLOW_MS : SLOW_MS;
    const base = {
      // A transient job fails fewer times than maxAttempts; with one attempt there are none.
      kind:
        maxAttempts > 1
          ? fc.constantFrom<Kind>("ok", "ok", "transient", "poison")
          : fc.constantFrom<Kind>("ok", "ok", "poison"),
      failures: fc.integer({ min: 1, max: Math.max(1, maxAttempts - 1) }),
      ticks: fc.integer({ min: 1, max: 2 }),
    };
    // In timed scenarios a quarter of the jobs are slow: each attempt outlasts the timeout.
    const job: fc.Arbitrary<JobSpec> =
      clock !== "none"
        ? fc
            .record({ ...base, delayMs: fc.constantFrom(0, 0, 0, slowMs) })
            .map(({ delayMs, ...j }) => (delayMs ? { ...j, delayMs } : j))
        : fc.record(base);
    return fc.record({
      concurrency: fc.constant(concurrency),
      maxAttempts: fc.constant(maxAttempts),
      jobs: fc.array(job, { minLength: 1, maxLength: MAX_JOBS }),
      ...(phases > 1 ? { phases: fc.constant(phases) } : {}),
      ...(timed ? { timeoutMs: fc.constant(TIMEOUT_MS) } : {}),
      ...(clock === "virtual" ? { virtual: fc.constant(true) } : {}),
    });
  });

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

interface Scenario {
  concurrency: number;
  maxAttempts: number;
  jobs: JobSpec[];
  /** Pushes, each after the previous drain() resolved (default 1). */
  phases?: number;
  /** Per-attempt timeout given to createQueue. */
  timeoutMs?: number;
  /** The module's timers run on a virtual clock (its own timeouts and back-offs fire, however long). */
  virtual?: boolean;
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

/** Reads the trace of one scenario into what the invariants talk about; rejects impossible traces. */
function replay(s: QueueProbe, obs: QueueObservation): Run {
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

function verify(run: Run, s: Scenario, ids: string[], on: ReadonlySet<string>): void {
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
  const largest = Math.max(...phaseSizes(ids.length, s.phases));
  const want = Math.min(s.concurrency, largest);
  if (run.peak < want)
    fail(
      "parallelism",
      `at most ${run.peak} handler(s) in flight; ${want} expected (concurrency ${s.concurrency}, ${largest} jobs pushed at once)`,
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
      fail("exactly-once", `${j.kind} job ${id}${where(s, i)} succeeded ${ok} times`);
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

/** Where a job stands in its scenario, for messages: its phase, and whether it is slow. */
function where(s: Scenario, i: number): string {
  const sizes = phaseSizes(s.jobs.length, s.phases);
  let phase = 0;
  for (let seen = sizes[0] as number; i >= seen; seen += sizes[phase] as number) phase++;
  const parts = [];
  if (sizes.length > 1) parts.push(`pushed in phase ${phase + 1} of ${sizes.length}, after drain() resolved`);
  if (s.jobs[i]?.delayMs)
    parts.push(
      s.virtual
        ? `slow: each attempt takes ${s.jobs[i]?.delayMs} ms of virtual time, so the module's own timers of any length fire while it runs`
        : `slow: ${s.jobs[i]?.delayMs} ms per attempt, timeoutMs ${s.timeoutMs}`,
    );
  return parts.length ? ` (${parts.join("; ")})` : "";
}

/** Jobs per phase: `n` jobs in `phases` (default 1) nearly equal pushes, never an empty one. */
export function phaseSizes(n: number, phases = 1): number[] {
  const p = Math.max(1, Math.min(phases, n));
  return Array.from({ length: p }, (_, i) => Math.floor(n / p) + (i < n % p ? 1 : 0));
}

/** A name for each job of a scenario, the same for the same scenario (the probe is its cache key too). */
function jobIds(s: Scenario): string[] {
  let h = 2166136261;
  for (const ch of JSON.stringify(s)) h = Math.imul(h ^ ch.charCodeAt(0), 16777619);
  const tag = (h >>> 0).toString(36);
  return s.jobs.map((_, i) => `job-${tag}-${i}`);
}

function scenarioProbe(s: Scenario): QueueProbe {
  return {
    concurrency: s.concurrency,
    maxAttempts: s.maxAttempts,
    jobs: s.jobs,
    ids: jobIds(s),
    phases: phaseSizes(s.jobs.length, s.phases),
    drainTimeoutMs: DRAIN_TIMEOUT_MS,
    ...(s.timeoutMs !== undefined ? { extra: { timeoutMs: s.timeoutMs } } : {}),
    // Long enough for every attempt of every job one after the other, with as long again for back-offs.
    ...(s.virtual
      ? {
          clock: "virtual" as const,
          virtualHorizonMs: 2 * (s.jobs.length * s.maxAttempts + 1) * VIRTUAL_SLOW_MS,
        }
      : {}),
  };
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
    // Then the same jobs in two pushes, the second to the idle queue after drain() resolved: a queue that
    // never restarts would make every phased random case wait for the timeout too.
    const fixedCases: [Scenario, string][] = [
      [fixed, "4 jobs, concurrency 3"],
      [
        { ...fixed, phases: 2 },
        "4 jobs, concurrency 3, the last 2 pushed to the idle queue after the first drain() resolved",
      ],
    ];
    let hang: string | undefined;
    for (const [s, what] of fixedCases) {
      try {
        const [, r] = replayScenario(s, await observed.get(s));
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
        const why = hang;
        return {
          checks: INVARIANTS.map(
            (i): GateCheck => ({
              id: i.id,
              passed: false,
              message: i.id === "drain" ? `${why} (${what})` : `not checked: ${why}`,
            }),
          ),
        };
      }
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
