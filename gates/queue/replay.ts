/** The trace of one scenario read into what the queue gate's invariants talk about (impossible traces rejected). */
import { decodeValue } from "../../src/sandbox/tagged.js";
import { ObservationError } from "../judging.js";
import { InvariantError, show } from "../shared/property.js";
import { type Scenario, scenarioProbe } from "./scenario.js";
import type { QueueObservation, QueueProbe } from "./trace.js";

export interface Run {
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

/** The probe of a scenario and its observed run. */
export function replayScenario(s: Scenario, obs: unknown): [QueueProbe, Run] {
  const probe = scenarioProbe(s);
  return [probe, replay(probe, obs as QueueObservation)];
}
