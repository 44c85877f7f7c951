/**
 * queue (seed domain 04, system design): `createQueue({concurrency, maxAttempts, handler}) → {push(job),
 * drain(), deadLetters()}`, jobs `{id, payload}`. Random scenarios mix good, transient (fail k < maxAttempts
 * times) and poison (always fail) jobs, pushed at once, handlers that take a few event-loop turns. Invariants:
 * in-flight never above `concurrency`, yet full parallelism reached; every good or transient job succeeds
 * exactly once; poison jobs are tried exactly `maxAttempts` times and land in the dead-letter list once,
 * unmodified; no job is tried more than `maxAttempts` times; `drain()` resolves, and only when all is settled.
 */
import fc from "fast-check";
import { functionExport } from "../shared/input.js";
import { InvariantError, invariantChecks, propertyParams, show } from "../shared/property.js";
import { describe } from "../shared/runtime.js";
import type { Gate, GateCheck, GateInput } from "../types.js";

type CreateQueue = (opts: {
  concurrency: number;
  maxAttempts: number;
  handler: (job: unknown) => Promise<unknown>;
}) => unknown;
interface QueueApi {
  push(job: unknown): unknown;
  drain(): unknown;
  deadLetters(): unknown;
}
type Kind = "ok" | "transient" | "poison";
interface JobSpec {
  kind: Kind;
  failures: number;
  ticks: number;
}

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

const tick = () => new Promise<void>((r) => setImmediate(r));

/**
 * The simulated failure of a job attempt, without a stack trace: thousands are thrown per run, and capturing
 * the (async) stack of each cost more than the rest of the scenario. The message is what a queue may record.
 */
function jobFailure(message: string): Error {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return new Error(message);
  } finally {
    Error.stackTraceLimit = limit;
  }
}

function jobIdOf(x: unknown): string | undefined {
  if (x === null || typeof x !== "object") return undefined;
  const o = x as Record<string, unknown>;
  if (typeof o.id === "string") return o.id;
  if (typeof o.jobId === "string") return o.jobId; // the handler got the payload
  return jobIdOf(o.job) ?? jobIdOf(o.payload);
}

function payloadOf(entry: unknown): unknown {
  if (entry === null || typeof entry !== "object") return undefined;
  const o = entry as Record<string, unknown>;
  if ("payload" in o) return o.payload;
  return payloadOf(o.job);
}

interface Run {
  peak: number;
  attempts: Map<string, number>;
  successes: Map<string, number>;
  attemptAfterSuccess: string[];
  drained: "resolved" | "rejected" | "timeout";
  drainError?: string;
  inFlightAtDrain: number;
  dead: unknown[] | string;
}

async function runScenario(
  create: CreateQueue,
  s: { concurrency: number; maxAttempts: number; jobs: JobSpec[] },
  ids: string[],
): Promise<Run> {
  const run: Run = {
    peak: 0,
    attempts: new Map(),
    successes: new Map(),
    attemptAfterSuccess: [],
    drained: "timeout",
    inFlightAtDrain: 0,
    dead: [],
  };
  const spec = new Map(ids.map((id, i) => [id, s.jobs[i] as JobSpec]));
  let active = 0;
  const handler = async (job: unknown) => {
    const id = jobIdOf(job);
    if (!id || !spec.has(id)) throw new Error(`handler got ${show(job)}, not a job`);
    const n = (run.attempts.get(id) ?? 0) + 1;
    run.attempts.set(id, n);
    if ((run.successes.get(id) ?? 0) > 0) run.attemptAfterSuccess.push(id);
    active++;
    run.peak = Math.max(run.peak, active);
    try {
      const j = spec.get(id) as JobSpec;
      for (let t = 0; t < j.ticks; t++) await tick();
      if (j.kind === "poison" || (j.kind === "transient" && n <= j.failures))
        throw jobFailure(`job ${id} failed (attempt ${n})`);
      run.successes.set(id, (run.successes.get(id) ?? 0) + 1);
    } finally {
      active--;
    }
  };
  const q = create({ concurrency: s.concurrency, maxAttempts: s.maxAttempts, handler }) as QueueApi;
  if (
    !q ||
    typeof q.push !== "function" ||
    typeof q.drain !== "function" ||
    typeof q.deadLetters !== "function"
  )
    throw new InvariantError("drain", `createQueue returned ${show(q)}, not {push, drain, deadLetters}`);
  for (const id of ids) q.push({ id, payload: { jobId: id, data: [id.length, `p-${id}`] } });
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<"timeout">((r) => {
    timer = setTimeout(() => r("timeout"), DRAIN_TIMEOUT_MS);
  });
  try {
    run.drained = await Promise.race([Promise.resolve(q.drain()).then(() => "resolved" as const), timeout]);
  } catch (err) {
    run.drained = "rejected";
    run.drainError = describe(err);
  } finally {
    clearTimeout(timer);
  }
  run.inFlightAtDrain = active;
  try {
    const d = await q.deadLetters();
    run.dead = Array.isArray(d) ? [...d] : `deadLetters() returned ${show(d)}, not an array`;
  } catch (err) {
    run.dead = `deadLetters() threw ${describe(err)}`;
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

export const queue: Gate = {
  id: "queue",
  defaultExports: ["createQueue"],
  async run(input: GateInput, ctx) {
    const target = functionExport<CreateQueue>(input);
    if ("failed" in target) return target.failed;
    const create = target.fn;
    const params = propertyParams(ctx.seed, ctx.options);
    // One fixed scenario first: a drain that never resolves would make every random case wait for the timeout.
    const fixed = {
      concurrency: 3,
      maxAttempts: 2,
      jobs: [
        { kind: "ok", failures: 1, ticks: 1 },
        { kind: "transient", failures: 1, ticks: 2 },
        { kind: "poison", failures: 1, ticks: 1 },
        { kind: "ok", failures: 1, ticks: 1 },
      ] as JobSpec[],
    };
    let hang: string | undefined;
    try {
      const r = await runScenario(create, fixed, ["warm-0", "warm-1", "warm-2", "warm-3"]);
      if (r.drained !== "resolved")
        hang =
          r.drained === "timeout"
            ? `drain() did not resolve within ${DRAIN_TIMEOUT_MS} ms`
            : `drain() rejected: ${r.drainError}`;
    } catch (err) {
      hang = describe(err);
    }
    if (hang) {
      return {
        checks: INVARIANTS.map(
          (i): GateCheck => ({
            id: i.id,
            passed: false,
            message: i.id === "drain" ? `${hang} (3 jobs, concurrency 3)` : `not checked: ${hang}`,
          }),
        ),
      };
    }
    let scenario = 0;
    const checks = await invariantChecks(
      INVARIANTS,
      (on) =>
        fc.asyncProperty(scenarioArb, async (s) => {
          const ids = s.jobs.map((_, i) => `job-${++scenario}-${i}`);
          const run = await runScenario(create, s, ids);
          verify(run, s, ids, on);
        }),
      params,
    );
    return { checks, metrics: { runs: params.numRuns } };
  },
};
