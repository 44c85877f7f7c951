/**
 * What the queue gate's child sends and records (shared by gates/queue/probe.ts and index.ts), and the two
 * rules both sides use to read a job: its id (from the job, or the payload a handler was given) and payload.
 */
import type { Tagged } from "../../src/sandbox/tagged.js";

export type Kind = "ok" | "transient" | "poison";
export interface JobSpec {
  kind: Kind;
  /** Attempts that fail before a transient job succeeds. */
  failures: number;
  /** Event-loop turns an attempt takes. */
  ticks: number;
  /** Milliseconds an attempt takes before its turns (slow jobs): virtual ones in a virtual probe. */
  delayMs?: number;
}

export interface QueueProbe {
  concurrency: number;
  maxAttempts: number;
  jobs: JobSpec[];
  ids: string[];
  /** Jobs pushed per phase; the child awaits `drain()` after each (a later phase pushes to an idle queue). */
  phases: number[];
  drainTimeoutMs: number;
  /** More options given to createQueue (hints a queue may use, e.g. a per-attempt timeout). */
  extra?: Record<string, unknown>;
  /**
   * `virtual`: the module's timers run on a fake clock the probe advances timer by timer, so its own timeouts and
   * back-offs of any length fire (gates/shared/virtual-clock.ts); a drain that is not done by `virtualHorizonMs` of
   * virtual time (or a fixed number of turns of the real loop, gates/queue/probe.ts) counts as never resolving.
   */
  clock?: "virtual";
  virtualHorizonMs?: number;
}

export type QueueEvent =
  | ["start", number]
  | ["end", number, "ok" | "fail"]
  /** The handler was called with something that is no pushed job. */
  | ["stray", Tagged];

export interface QueueObservation {
  events: QueueEvent[];
  /** Each phase's `drain()`: how it settled and how many events had happened by then. */
  drains: { how: "resolved" | "rejected" | "timeout"; at: number; error?: string }[];
  dead?: { value: Tagged } | { threw: string };
  /** createQueue or push threw, or the queue lacks its methods: nothing else was observed. */
  failure?: string;
}

/** The id of a job as a handler or dead-letter list holds it (the job, the payload, or a wrapper). */
export function jobIdOf(x: unknown, depth = 0): string | undefined {
  if (x === null || typeof x !== "object" || depth > 4) return undefined;
  const o = x as Record<string, unknown>;
  if (typeof o.id === "string") return o.id;
  if (typeof o.jobId === "string") return o.jobId; // the handler got the payload
  return jobIdOf(o.job, depth + 1) ?? jobIdOf(o.payload, depth + 1);
}

export function payloadOf(entry: unknown, depth = 0): unknown {
  if (entry === null || typeof entry !== "object" || depth > 4) return undefined;
  const o = entry as Record<string, unknown>;
  if ("payload" in o) return o.payload;
  return payloadOf(o.job, depth + 1);
}
