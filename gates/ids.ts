/** The eight gate ids (one folder each under `gates/`). Kept apart from the implementations so the parent
 * process (CLI, pipeline) can validate ids without loading fast-check, sql.js or the parser. */
export const GATE_IDS = [
  "boundary",
  "conservation",
  "contrast",
  "queue",
  "tenant-isolation",
  "complexity",
  "analytics",
  "leakage",
] as const;

export type GateId = (typeof GATE_IDS)[number];

export function isGateId(s: string): s is GateId {
  return (GATE_IDS as readonly string[]).includes(s);
}
