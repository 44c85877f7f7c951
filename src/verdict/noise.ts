/**
 * The repository's own noise floor (#38 item 7), read from the default branch's stored trials before a team makes
 * the check required: each unit the verdict decides on (a case's check, a trigger query) with its stored pass rate,
 * the flaky ones (passing some trials and failing others), and those too flaky to gate at this budget — a drop of
 * the size docs/verdict.md plans for would be found in fewer than 90 % of PRs of this shape (`simulateDrop`).
 */
import type { CheckResult, VerdictPolicy } from "../model/index.js";
import { CASE_DROP, type PowerShape, QUERY_DROP, simulateDrop } from "./power.js";

/** One unit's stored trials. `power`: for a flaky unit, the share of simulated PRs that find its drop. */
export interface UnitNoise {
  checkId: string;
  mode: "skill" | "trigger";
  trials: number;
  passes: number;
  power?: number;
  /** The head rate the simulated drop goes to (its stored rate minus the planned drop, at least 0). */
  droppedTo?: number;
}

export interface SkillNoise {
  units: number;
  /** Units with no graded stored trial (an error in every one, or nothing stored). */
  unmeasured: number;
  /** Units that fail every stored trial: no PR can make them worse, so none is blocked by them. */
  alwaysFail: UnitNoise[];
  flaky: UnitNoise[];
  tooFlaky: UnitNoise[];
}

/** A skill's noise as `plan --noise` reports it: which arm's stored trials, how deep, and the PR shape judged. */
export interface StoredNoise extends SkillNoise {
  arm: "base" | "head";
  /** Stored trials per case: the fewest any case of the skill has (0: nothing stored). */
  storedPerCase: number;
  shape: PowerShape;
}

/** The power goal of docs/verdict.md. */
export const NOISE_POWER_GOAL = 0.9;

/**
 * Pass and fail counts per decided unit: skill-mode checks and trigger queries (baseline trials are not decided on;
 * errors and skipped checks count as neither).
 */
export function unitCounts(checks: readonly CheckResult[]): UnitNoise[] {
  const units = new Map<string, UnitNoise>();
  for (const c of checks) {
    if (c.mode === "baseline") continue;
    const u = units.get(c.checkId) ?? { checkId: c.checkId, mode: c.mode, trials: 0, passes: 0 };
    units.set(c.checkId, u);
    if (c.status !== "pass" && c.status !== "fail") continue;
    u.trials++;
    if (c.status === "pass") u.passes++;
  }
  return [...units.values()].sort((a, b) => (a.checkId < b.checkId ? -1 : a.checkId > b.checkId ? 1 : 0));
}

/** The noise of one skill's stored trials, with the power of each flaky unit's planned drop at `shape`. */
export async function skillNoise(
  checks: readonly CheckResult[],
  shape: PowerShape,
  policy: VerdictPolicy,
  opts: { prs?: number; seed?: number } = {},
): Promise<SkillNoise> {
  const units = unitCounts(checks);
  const flaky = units.filter((u) => u.passes > 0 && u.passes < u.trials);
  for (const u of flaky) {
    const from = u.passes / u.trials;
    const size = u.mode === "skill" ? CASE_DROP.from - CASE_DROP.to : QUERY_DROP.from - QUERY_DROP.to;
    u.droppedTo = Math.max(0, from - size);
    u.power = await simulateDrop(shape, policy, { mode: u.mode, from, to: u.droppedTo }, opts);
  }
  return {
    units: units.length,
    unmeasured: units.filter((u) => u.trials === 0).length,
    alwaysFail: units.filter((u) => u.trials > 0 && u.passes === 0),
    flaky,
    tooFlaky: flaky.filter((u) => (u.power ?? 0) < NOISE_POWER_GOAL),
  };
}
