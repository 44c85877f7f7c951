import { callsCollector } from "../shared/calls-probe.js";

/** conservation, child side: calls `allocate(total, parts)` as the judge asks (gates/conservation/index.ts). */
export const collector = callsCollector("conservation");
