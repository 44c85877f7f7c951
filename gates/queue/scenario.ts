/**
 * The queue gate's scenarios: random ones (fast-check) and the probe each becomes, with the names of its jobs
 * and where each job stands in it (for messages).
 */
import fc from "fast-check";
import type { JobSpec, Kind, QueueProbe } from "./trace.js";

/** Longest a drain may take before it counts as never resolving (handlers take microseconds). */
export const DRAIN_TIMEOUT_MS = 500;
const MAX_JOBS = 10;
/** The `timeoutMs` given to createQueue in timed scenarios, and how long their slow attempts take. */
const TIMEOUT_MS = 1;
const SLOW_MS = 2;
/**
 * How long a slow attempt takes in a virtual-clock scenario: the longest delay a timer can have (2^31 − 1 ms,
 * ~24.8 days), so a module's own per-attempt timeout of any length fires while the attempt still runs.
 */
export const VIRTUAL_SLOW_MS = 2 ** 31 - 1;

export interface Scenario {
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

export const scenarioArb: fc.Arbitrary<Scenario> = fc
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

/** Where a job stands in its scenario, for messages: its phase, and whether it is slow. */
export function where(s: Scenario, i: number): string {
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

export function scenarioProbe(s: Scenario): QueueProbe {
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
