import type { BenchContext } from "./types.js";

/**
 * The bench's time allotment. `npm run bench` must finish within 10 minutes on this 2-core machine even when it is
 * busy (#19), so it shares `DEFAULT_SECONDS` among the sections it runs by `SECTION_SHARES`, in run order: each
 * section's deadline is its share of the time still left, so one that finishes early leaves its time to the ones
 * after it. Sections whose figures are repeated samples (rounds, runs, inputs, PRs) take as many as fit, never
 * fewer than their minimum, and report how many they took; the rest are fixed and sized to fit their share on an
 * idle machine. A longer measurement gives `--seconds N` (0: no allotment) or a section's own sample flag.
 */
export const DEFAULT_SECONDS = 540;

/** Each section's share of the allotment: about its seconds on an idle machine at its minimum samples, doubled where it samples. */
export const SECTION_SHARES: Readonly<Record<string, number>> = {
  orchestration: 50,
  cache: 1,
  cost: 45,
  gates: 70,
  grade: 2,
  verdict: 10,
  "verdict-e2e": 100,
  latency: 120,
  discovery: 40,
  scale: 120,
  startup: 4,
  isolation: 60,
  "trigger-stop": 60,
  fuzz: 60,
  "review-report": 30,
};

/** The deadline of `section`, given the sections still to run (itself included) and the time left. */
export function sectionDeadline(
  section: string,
  left: readonly string[],
  msLeft: number,
  now = Date.now(),
): number {
  if (!Number.isFinite(msLeft)) return Number.POSITIVE_INFINITY;
  const share = (s: string) => SECTION_SHARES[s] ?? 10;
  const total = left.reduce((a, s) => a + share(s), 0);
  return now + Math.max(0, msLeft) * (share(section) / total);
}

/** The deadline of a part of a section: `share` of what is left of the section's time (Infinity stays Infinity). */
export function partDeadline(ctx: Pick<BenchContext, "deadline">, share: number, now = Date.now()): number {
  return now + (ctx.deadline - now) * share;
}

/**
 * Whether a sampling loop should take another sample: always below `min`, never at `max`, otherwise when one more
 * sample (at the mean time of those taken since `startedAt`) still ends before the deadline.
 */
export function keepSampling(
  ctx: Pick<BenchContext, "deadline">,
  taken: number,
  min: number,
  max: number,
  startedAt: number,
): boolean {
  if (taken < min) return true;
  if (taken >= max) return false;
  const now = Date.now();
  const perSample = taken > 0 ? (now - startedAt) / taken : 0;
  return now + perSample <= ctx.deadline;
}

/** A sample-count flag (`--fuzz-runs 10000`): a positive integer, or undefined when absent. */
export function countFlag(ctx: Pick<BenchContext, "flags">, name: string): number | undefined {
  const v = ctx.flags[name];
  if (v === undefined) return undefined;
  const n = Number(v);
  if (typeof v !== "string" || !Number.isInteger(n) || n < 1)
    throw new Error(
      `bench: --${name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)} must be a positive integer`,
    );
  return n;
}
