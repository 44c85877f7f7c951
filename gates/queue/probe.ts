/**
 * queue, child side: runs one scenario per probe against `createQueue` and records what happened, in order:
 * every handler start and end (with the job it ran and whether the attempt failed), a handler call with
 * something that is no job, how each `drain()` settled and after how many events, and `deadLetters()`. The
 * handler fails or succeeds as the scenario says (the world the queue lives in); every judgement of the
 * trace (in flight, attempts, retries, dead letters) is the parent's (gates/queue/index.ts).
 */
import { clearTimeout, setImmediate, setTimeout } from "node:timers";
import { describeThrown, encodeValue, type Tagged } from "../../src/sandbox/tagged.js";
import type { GateCollector, GateInput, ProbeRunner } from "../types.js";
import { jobIdOf, type QueueEvent, type QueueObservation, type QueueProbe } from "./trace.js";

const tick = () => new Promise<void>((r) => setImmediate(r));
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * A failed attempt: an Error (instanceof, message, toString) without a captured stack. Thousands are thrown
 * per run; the intrinsics are frozen, so `Error.stackTraceLimit` cannot be lowered for them.
 */
function jobFailure(message: string): Error {
  return Object.create(Error.prototype, {
    message: { value: message, writable: true, configurable: true },
  }) as Error;
}

async function runScenario(create: (o: unknown) => unknown, s: QueueProbe): Promise<QueueObservation> {
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
    if (spec.delayMs) await sleep(spec.delayMs);
    for (let t = 0; t < spec.ticks; t++) await tick();
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
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<"timeout">((r) => {
      timer = setTimeout(() => r("timeout"), s.drainTimeoutMs);
    });
    try {
      const how = await Promise.race([Promise.resolve(api.drain()).then(() => "resolved" as const), timeout]);
      obs.drains.push({ how, at: events.length });
    } catch (err) {
      obs.drains.push({ how: "rejected", at: events.length, error: describeThrown(err) });
    } finally {
      clearTimeout(timer);
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
  start(input: GateInput): ProbeRunner {
    const create = input.kind === "export" && typeof input.value === "function" ? input.value : undefined;
    return (probe) =>
      create
        ? runScenario(create as (o: unknown) => unknown, probe as QueueProbe)
        : { events: [], drains: [], failure: "the export is not a function" };
  },
};
