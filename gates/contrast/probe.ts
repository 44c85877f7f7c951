/**
 * contrast, child side: reads the `pairs` export (calling it when it is a function, awaiting a promise) and
 * returns it as tagged data. The colours are parsed and judged in the parent (gates/contrast/index.ts).
 */
import { describeThrown, encodeValue } from "../../src/sandbox/tagged.js";
import type { GateCollector, GateInput, ProbeRunner } from "../types.js";

export const collector: GateCollector = {
  id: "contrast",
  start(input: GateInput): ProbeRunner {
    return async () => {
      if (input.kind !== "export") return { threw: "the input is not code" };
      try {
        const v = typeof input.value === "function" ? await (input.value as () => unknown)() : input.value;
        return { value: encodeValue(v) };
      } catch (err) {
        return { threw: `calling the export threw: ${describeThrown(err)}` };
      }
    };
  },
};
