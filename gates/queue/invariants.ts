/**
 * The queue gate's invariants on one replayed scenario: one method per invariant (`RunChecks`), run in order by
 * `verify`. A broken invariant among those being checked throws `InvariantError`.
 */
import { InvariantError, show } from "../shared/property.js";
import type { Run } from "./replay.js";
import { DRAIN_TIMEOUT_MS, phaseSizes, type Scenario, where } from "./scenario.js";
import { type JobSpec, jobIdOf, payloadOf } from "./trace.js";

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

/** Why a run's last drain() did not resolve. */
export function drainFailure(run: Pick<Run, "drained" | "drainError">): string {
  return run.drained === "timeout"
    ? `drain() did not resolve within ${DRAIN_TIMEOUT_MS} ms`
    : `drain() rejected: ${run.drainError}`;
}

class RunChecks {
  constructor(
    private readonly run: Run,
    private readonly s: Scenario,
    private readonly ids: string[],
    private readonly on: ReadonlySet<string>,
  ) {}

  private fail(id: string, msg: string): void {
    if (this.on.has(id)) throw new InvariantError(id, msg);
  }

  /** drain() resolved, with no handler still running. */
  drain(): void {
    const run = this.run;
    if (run.drained !== "resolved") this.fail("drain", drainFailure(run));
    if (run.inFlightAtDrain > 0)
      this.fail("drain", `drain() resolved with ${run.inFlightAtDrain} handler(s) still running`);
  }

  concurrencyLimit(): void {
    const { run, s } = this;
    if (run.peak > s.concurrency)
      this.fail("concurrency-limit", `${run.peak} handlers in flight with concurrency ${s.concurrency}`);
  }

  parallelism(): void {
    const { run, s } = this;
    const largest = Math.max(...phaseSizes(this.ids.length, s.phases));
    const want = Math.min(s.concurrency, largest);
    if (run.peak < want)
      this.fail(
        "parallelism",
        `at most ${run.peak} handler(s) in flight; ${want} expected (concurrency ${s.concurrency}, ${largest} jobs pushed at once)`,
      );
  }

  /** Per job: tries within maxAttempts, good and transient ones succeeding once, poison ones tried to the end. */
  jobAttempts(): void {
    const { run, s } = this;
    this.ids.forEach((id, i) => {
      const j = s.jobs[i] as JobSpec;
      const tries = run.attempts.get(id) ?? 0;
      const ok = run.successes.get(id) ?? 0;
      if (tries > s.maxAttempts)
        this.fail("retry-storm", `${j.kind} job ${id} tried ${tries} times, maxAttempts ${s.maxAttempts}`);
      if (j.kind !== "poison" && ok !== 1) {
        const retriesCut = j.kind === "transient" && tries <= j.failures;
        if (retriesCut)
          this.fail(
            "retries",
            `transient job ${id} (fails ${j.failures}×) tried only ${tries} time(s), maxAttempts ${s.maxAttempts}`,
          );
        this.fail("exactly-once", `${j.kind} job ${id}${where(s, i)} succeeded ${ok} times`);
      }
      if (j.kind === "poison" && tries < s.maxAttempts)
        this.fail("retries", `poison job ${id} tried ${tries} time(s), maxAttempts ${s.maxAttempts}`);
    });
  }

  /** Handler calls that are no job, a job run twice at once, a job run again after succeeding. */
  strayAttempts(): void {
    const run = this.run;
    if (run.stray.length)
      this.fail(
        "exactly-once",
        `the handler was called with things that are no job: ${run.stray.slice(0, 2).join("; ")}`,
      );
    if (run.overlapping.length)
      this.fail(
        "exactly-once",
        `jobs run twice at once (retried while an attempt was still running): ${show([...new Set(run.overlapping)].slice(0, 3))}`,
      );
    if (run.attemptAfterSuccess.length)
      this.fail(
        "retry-storm",
        `jobs run again after succeeding: ${show(run.attemptAfterSuccess.slice(0, 3))}`,
      );
  }

  /** deadLetters(): exactly the poison jobs, once each, with the payload they were pushed with. */
  deadLetters(): void {
    const { run, s, ids } = this;
    if (typeof run.dead === "string") {
      this.fail("dead-letters", run.dead);
      return;
    }
    const poison = new Set(ids.filter((_, i) => (s.jobs[i] as JobSpec).kind === "poison"));
    const seen = new Map<string, number>();
    for (const entry of run.dead) {
      const id = jobIdOf(entry);
      if (!id || !poison.has(id)) this.fail("dead-letters", `dead letter ${show(entry)} is not a poison job`);
      else {
        seen.set(id, (seen.get(id) ?? 0) + 1);
        const payload = payloadOf(entry);
        const original = { jobId: id, data: [id.length, `p-${id}`] };
        if (JSON.stringify(payload) !== JSON.stringify(original))
          this.fail(
            "dead-letters",
            `dead letter of ${id} carries payload ${show(payload)}, pushed ${show(original)}`,
          );
      }
    }
    for (const id of poison)
      if ((seen.get(id) ?? 0) !== 1)
        this.fail("dead-letters", `poison job ${id} appears ${seen.get(id) ?? 0} times in deadLetters()`);
  }
}

/** Checks the invariants in `on` on one run of scenario `s` (its jobs named `ids`), in a fixed order. */
export function verify(run: Run, s: Scenario, ids: string[], on: ReadonlySet<string>): void {
  const checks = new RunChecks(run, s, ids, on);
  checks.drain();
  checks.concurrencyLimit();
  checks.parallelism();
  checks.jobAttempts();
  checks.strayAttempts();
  checks.deadLetters();
}
