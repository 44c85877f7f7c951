import { callsCollector } from "../shared/calls-probe.js";

/** boundary, child side: calls the export as the judge asks (gates/boundary/index.ts). */
export const collector = callsCollector("boundary");
