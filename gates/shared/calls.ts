/**
 * Parent side of the gates that probe a function by calling it: the probe and observation shapes (shared
 * with the child's `calls-probe.ts`), their schema, and the judge's view of an outcome (decoded values).
 */
import { decodeValue, TAGGED, type Tagged } from "../../src/sandbox/tagged.js";
import { ObservationError } from "../judging.js";
import type { GateOutput, ProbeSession } from "../types.js";

/**
 * `calls`: argument lists, sent as tagged JSON (NaN, −0, undefined survive; see `inputJson`). `repeat`: each
 * list is called that many times in a row, on fresh copies (determinism checks).
 */
export type CallsProbe = { kind: "calls"; calls: unknown[][]; repeat?: number } | { kind: "shape" };
export type Outcome = { threw: string } | { value: Tagged };
export interface CallsObservation {
  outcomes: Outcome[];
}
export interface ShapeObservation {
  /** `fn.length`: parameters before the first one with a default value. */
  length: number;
  /** `Function.prototype.toString` of the export, when readable and not huge. */
  source: string | null;
}
/** The export is not a function (or the input is not code): nothing was called. */
interface NotFunction {
  notFunction: string;
}

/** One call's outcome as the child reports it: what it threw, or the value it returned (tagged). */
export const OUTCOME_SCHEMA = {
  oneOf: [
    {
      type: "object",
      required: ["threw"],
      additionalProperties: false,
      properties: { threw: { type: "string" } },
    },
    {
      type: "object",
      required: ["value"],
      additionalProperties: false,
      properties: { value: TAGGED },
    },
  ],
};

export const CALLS_OBSERVATION_SCHEMA = {
  oneOf: [
    {
      type: "object",
      required: ["outcomes"],
      additionalProperties: false,
      properties: { outcomes: { type: "array", items: OUTCOME_SCHEMA } },
    },
    {
      type: "object",
      required: ["length", "source"],
      additionalProperties: false,
      properties: { length: { type: "integer", minimum: 0 }, source: { type: ["string", "null"] } },
    },
    {
      type: "object",
      required: ["notFunction"],
      additionalProperties: false,
      properties: { notFunction: { type: "string" } },
    },
  ],
};

/** What a call did, decoded for judging. */
export type Result = { threw: string } | { threw?: undefined; value: unknown };

function decodeOutcome(o: Outcome): Result {
  return "threw" in o ? { threw: o.threw } : { value: decodeValue(o.value) };
}

/**
 * A probe calling the function once per argument list, or `repeat` times each (arguments encoded: NaN, −0,
 * undefined survive). Its outcomes come in order: every repetition of the first list, then of the next.
 */
export function callsProbe(calls: readonly unknown[][], repeat = 1): CallsProbe {
  const probe: CallsProbe = { kind: "calls", calls: [...calls] };
  return repeat === 1 ? probe : { ...probe, repeat };
}

/** Thrown by `observeCalls` when the export is not a function: the judge answers with `exportCheck`. */
export class NotAFunction extends Error {}

/** The outcomes of a calls probe's observation, checked to answer every call. */
export function outcomesOf(obs: unknown, calls: number): Result[] {
  const o = obs as Partial<CallsObservation & NotFunction>;
  if (typeof o.notFunction === "string") throw new NotAFunction(`${o.notFunction}, not a function`);
  if (!Array.isArray(o.outcomes)) throw new ObservationError("a calls probe was answered without outcomes");
  if (o.outcomes.length !== calls)
    throw new ObservationError(`${o.outcomes.length} outcomes for ${calls} calls`);
  return o.outcomes.map(decodeOutcome);
}

/** Asks the child for the outcomes of many call lists in one request. */
export async function observeCalls(
  session: ProbeSession,
  lists: readonly unknown[][][],
): Promise<Result[][]> {
  const obs = await session.observe(lists.map((calls) => callsProbe(calls)));
  return obs.map((o, i) => outcomesOf(o, (lists[i] as unknown[][]).length));
}

/** The failed output when the export is not a function. */
export function exportCheck(err: NotAFunction): GateOutput {
  return { checks: [{ id: "export", passed: false, message: err.message }] };
}

/** Whether the export is a function: one cheap probe before the real ones. */
export async function functionShape(session: ProbeSession): Promise<ShapeObservation | NotAFunction> {
  const [obs] = await session.observe([{ kind: "shape" } satisfies CallsProbe]);
  const o = obs as Partial<ShapeObservation & NotFunction>;
  if (typeof o.notFunction === "string") return new NotAFunction(`${o.notFunction}, not a function`);
  return o as ShapeObservation;
}
