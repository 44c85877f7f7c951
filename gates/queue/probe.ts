/**
 * queue, child side: runs one scenario per probe against `createQueue` and records what happened, in order:
 * every handler start and end (with the job it ran and whether the attempt failed), a handler call with
 * something that is no job, how each `drain()` settled and after how many events, and `deadLetters()`. The
 * handler fails or succeeds as the scenario says (the world the queue lives in); every judgement of the
 * trace (in flight, attempts, retries, dead letters) is the parent's (gates/queue/index.ts).
 */
import { describeThrown, encodeValue, type Tagged } from "../../src/sandbox/tagged.js";
import {
  type Drive,
  installVirtualClock,
  loopDeadline,
  real,
  virtualSleep,
  withVirtualClock,
} from "../shared/virtual-clock.js";
import type { GateCollector, GateInput, ProbeRunner } from "../types.js";
import { jobIdOf, type QueueEvent, type QueueObservation, type QueueProbe } from "./trace.js";

/**
 * Turns of the real loop a drain on the virtual clock may take (each fires at most one fake timer): far more than a
 * scenario's attempts and back-offs need, and the same on a loaded machine as on a quiet one.
 */
const DRIVE_TURNS = 10_000;

// The probe's own waiting is in real time, whatever clock the module's timers run on.
const tick = () => new Promise<void>((r) => real.setImmediate(r));
const sleep = (ms: number) => new Promise<void>((r) => real.setTimeout(r, ms));

/**
 * A failed attempt: an Error (instanceof, message, toString) without a captured stack. Thousands are thrown
 * per run; the intrinsics are frozen, so `Error.stackTraceLimit` cannot be lowered for them.
 */
function jobFailure(message: string): Error {
  return Object.create(Error.prototype, {
    message: { value: message, writable: true, configurable: true },
  }) as Error;
}

/** How one phase's `drain()` settled: in real time, or while driving the virtual clock. */
async function awaitDrain(
  drained: Promise<unknown>,
  s: QueueProbe,
  drive: Drive | undefined,
): Promise<"resolved" | "timeout"> {
  if (drive) {
    let settled = false;
    const watched = drained.then(
      () => {
        settled = true;
      },
      () => {
        settled = true;
      },
    );
    const why = await drive(() => settled, { horizonMs: s.virtualHorizonMs ?? 0, turns: DRIVE_TURNS });
    if (why !== "settled") return "timeout";
    await watched;
    await drained; // rejects here when drain() rejected
    return "resolved";
  }
  const deadline = loopDeadline(s.drainTimeoutMs);
  try {
    return await Promise.race([
      drained.then(() => "resolved" as const),
      deadline.done.then(() => "timeout" as const),
    ]);
  } finally {
    deadline.cancel();
  }
}

function runScenario(create: (o: unknown) => unknown, s: QueueProbe): Promise<QueueObservation> {
  return s.clock === "virtual"
    ? withVirtualClock((drive) => runPhases(create, s, drive))
    : runPhases(create, s, undefined);
}

async function runPhases(
  create: (o: unknown) => unknown,
  s: QueueProbe,
  drive: Drive | undefined,
): Promise<QueueObservation> {
  const events: QueueEvent[] = [];
  const attempts = new Array<number>(s.jobs.length).fill(0);
  const index = new Map(s.ids.map((id, i) => [id, i]));
  const handler = async (job: unknown) => {
    const i = index.get(jobIdOf(job) ?? "");
    if (i === undefined) {
      events.push(["stray", encodeValue(job)]);
      throw jobFailure("handler got something that is not a pushed job");
    }
    const n = ++(attempts[i] as number);
    events.push(["start", i]);
    const spec = s.jobs[i] as QueueProbe["jobs"][number];
    if (spec.delayMs) await (drive ? virtualSleep(spec.delayMs) : sleep(spec.delayMs));
    // On the virtual clock a turn is a microtask: virtual time moves only once nothing else can run.
    for (let t = 0; t < spec.ticks; t++) await (drive ? Promise.resolve() : tick());
    const fails = spec.kind === "poison" || (spec.kind === "transient" && n <= spec.failures);
    events.push(["end", i, fails ? "fail" : "ok"]);
    if (fails) throw jobFailure(`job ${s.ids[i]} failed (attempt ${n})`);
  };
  const obs: QueueObservation = { events, drains: [] };
  let q: Record<string, unknown>;
  try {
    q = create({ concurrency: s.concurrency, maxAttempts: s.maxAttempts, handler, ...s.extra }) as Record<
      string,
      unknown
    >;
  } catch (err) {
    obs.failure = `createQueue threw: ${describeThrown(err)}`;
    return obs;
  }
  if (
    q === null ||
    typeof q !== "object" ||
    typeof q.push !== "function" ||
    typeof q.drain !== "function" ||
    typeof q.deadLetters !== "function"
  ) {
    obs.failure = `createQueue returned something without push, drain and deadLetters: ${JSON.stringify(encodeValue(q))}`;
    return obs;
  }
  const api = q as { push(j: unknown): unknown; drain(): unknown; deadLetters(): unknown };
  let next = 0;
  for (const count of s.phases) {
    try {
      for (let k = 0; k < count; k++, next++) {
        const id = s.ids[next] as string;
        api.push({ id, payload: { jobId: id, data: [id.length, `p-${id}`] } });
      }
    } catch (err) {
      obs.failure = `push threw: ${describeThrown(err)}`;
      return obs;
    }
    try {
      const how = await awaitDrain(Promise.resolve(api.drain()), s, drive);
      obs.drains.push({ how, at: events.length });
    } catch (err) {
      obs.drains.push({ how: "rejected", at: events.length, error: describeThrown(err) });
    }
    if (obs.drains[obs.drains.length - 1]?.how !== "resolved") break;
  }
  try {
    obs.dead = { value: encodeValue(await api.deadLetters()) as Tagged };
  } catch (err) {
    obs.dead = { threw: describeThrown(err) };
  }
  return obs;
}

export const collector: GateCollector = {
  id: "queue",
  // Before the realm is pinned: the module's timers become switchable to the virtual clock.
  prepare() {
    installVirtualClock();
  },
  start(input: GateInput): ProbeRunner {
    const create = input.kind === "export" && typeof input.value === "function" ? input.value : undefined;
    return (probe) =>
      create
        ? runScenario(create as (o: unknown) => unknown, probe as QueueProbe)
        : { events: [], drains: [], failure: "the export is not a function" };
  },
};
