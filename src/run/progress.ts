import type { Logger } from "../model/index.js";

type Progress = Parameters<Logger["progress"]>[0];

/** "12 s", "3 min", "1 h 5 min": how long is left, rounded as a person reads it. */
export function humanDuration(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 90) return `${s} s`;
  const min = Math.round(s / 60);
  if (min < 90) return `${min} min`;
  return `${Math.floor(min / 60)} h ${min % 60} min`;
}

/**
 * One progress line, the same in the terminal and the Actions log:
 * `confirmation round 1 of ≤3: 2 suspects — trials 12/40, 30 stored, 0 errors, $0.00, about 2 min left`.
 */
export function progressLine(p: Progress): string {
  const eta =
    p.etaMs === undefined ? "" : p.done >= p.total ? ", done" : `, about ${humanDuration(p.etaMs)} left`;
  return `${p.label ? `${p.label} — ` : ""}trials ${p.done}/${p.total}, ${p.cacheHits} stored, ${p.errors} errors, $${p.costUsd.toFixed(2)}${eta}`;
}
