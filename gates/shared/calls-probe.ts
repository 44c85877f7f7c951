/**
 * Child side of the gates that probe a function by calling it (boundary, conservation, analytics, leakage):
 * each probe is a list of calls with the arguments the judge chose; the observation is what each call returned
 * or threw, as tagged data. Nothing here decides anything.
 */
import { decodeInput, describeThrown, encodeValue, type Tagged } from "../../src/sandbox/tagged.js";
import type { GateId } from "../ids.js";
import type { GateCollector, GateInput, ProbeRunner } from "../types.js";
import type { CallsObservation, CallsProbe, Outcome, ShapeObservation } from "./calls.js";

/** What of a returned value is observed (default: all of it). Runs in the child, on the module's value. */
type Projection = (value: unknown) => unknown;

function call(fn: (...args: unknown[]) => unknown, args: unknown[], project: Projection): Outcome {
  const decoded = args.map((a) => decodeInput(a as Tagged));
  try {
    return { value: encodeValue(project(fn(...decoded))) };
  } catch (err) {
    return { threw: describeThrown(err) };
  }
}

/** The probed function's arity as declared and its source text (for parameters with default values). */
function shape(fn: (...args: unknown[]) => unknown): ShapeObservation {
  let source: string | null = null;
  try {
    const s = Function.prototype.toString.call(fn);
    source = s.length <= 20_000 ? s : null;
  } catch {
    source = null;
  }
  let length = 0;
  try {
    length = typeof fn.length === "number" && Number.isInteger(fn.length) && fn.length >= 0 ? fn.length : 0;
  } catch {
    length = 0;
  }
  return { length, source };
}

export function callsCollector(id: GateId, project: Projection = (v) => v): GateCollector {
  return {
    id,
    start(input: GateInput): ProbeRunner {
      const fn = input.kind === "export" && typeof input.value === "function" ? input.value : undefined;
      const what = input.kind === "export" ? `export '${input.name}' is ${typeof input.value}` : "not code";
      return (raw) => {
        const probe = raw as CallsProbe;
        if (!fn) return { notFunction: what };
        if (probe.kind === "shape") return shape(fn as (...a: unknown[]) => unknown);
        const repeat = probe.repeat ?? 1;
        const outcomes: Outcome[] = [];
        for (const args of probe.calls)
          for (let k = 0; k < repeat; k++)
            outcomes.push(call(fn as (...a: unknown[]) => unknown, args, project));
        return { outcomes } satisfies CallsObservation;
      };
    },
  };
}
