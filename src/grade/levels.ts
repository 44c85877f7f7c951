/**
 * The outcome / final-state / process decomposition of seeds/002 (§5.4, §7): of the runs that pass every outcome
 * check, how many still fail a final-state or a process check; of the runs that pass every outcome and final-state
 * check, how many still fail a process check. Per mode of the discriminator battery, with Wilson intervals.
 */
import { type CheckResult, CONDITION_FALSE } from "../model/check.js";
import type { LevelDecomposition } from "../model/report.js";
import { CHECK_LEVELS, type CheckLevel } from "../model/suite.js";
import { TRIAL_OK } from "./grade-trial.js";
import { rate } from "./stats.js";

type Mode = LevelDecomposition["mode"];

/** One run's checks that carry a level, and whether the run gave an answer at all. */
interface Run {
  errored: boolean;
  checks: CheckResult[];
}

function runsOf(checks: readonly CheckResult[], mode: Mode): Map<string, Run> {
  const runs = new Map<string, Run>();
  for (const c of checks) {
    if (c.mode !== mode) continue;
    const key = `${c.skill}\u0000${c.caseId}\u0000${c.trial}`;
    let run = runs.get(key);
    if (!run) {
      run = { errored: false, checks: [] };
      runs.set(key, run);
    }
    if (c.assertionId === TRIAL_OK) run.errored ||= c.status !== "pass";
    else if (c.level) run.checks.push(c);
  }
  return runs;
}

/**
 * Check ids of a run that did not pass: failed, errored (never a pass), or skipped as a cascade of a failure (a
 * dependency failed, or was itself skipped as a cascade). A check whose condition was false did not apply.
 */
function failedIn(run: Run): Set<string> {
  const byAssertion = new Map(run.checks.map((c) => [c.assertionId, c]));
  const memo = new Map<string, boolean>();
  const failed = (c: CheckResult, depth = 0): boolean => {
    const known = memo.get(c.checkId);
    if (known !== undefined) return known;
    let out = c.status === "fail" || c.status === "error";
    if (c.status === "skipped" && c.skipReason !== CONDITION_FALSE && depth < 64) {
      const dep = /^dependency skipped: (.+)$/.exec(c.skipReason ?? "")?.[1];
      const parent = dep === undefined ? undefined : byAssertion.get(dep);
      out = dep === undefined ? true : parent !== undefined && failed(parent, depth + 1);
    }
    memo.set(c.checkId, out);
    return out;
  };
  return new Set(run.checks.filter((c) => failed(c)).map((c) => c.checkId));
}

/** The decomposition of one mode's runs; undefined when the mode has no run with a leveled check. */
export function decomposeLevels(checks: readonly CheckResult[], mode: Mode): LevelDecomposition | undefined {
  const all = [...runsOf(checks, mode).values()];
  const runs = all.filter((r) => !r.errored && r.checks.length > 0);
  if (runs.length === 0) return undefined;
  const checkIds: Record<CheckLevel, Set<string>> = {
    outcome: new Set(),
    "final-state": new Set(),
    process: new Set(),
  };
  const failsAt = runs.map((run) => {
    const failed = failedIn(run);
    const at = new Set<CheckLevel>();
    for (const c of run.checks) {
      checkIds[c.level!].add(c.checkId);
      if (failed.has(c.checkId)) at.add(c.level!);
    }
    return at;
  });
  const outcomeOk = failsAt.filter((at) => !at.has("outcome"));
  const finalOk = outcomeOk.filter((at) => !at.has("final-state"));
  const count = (xs: Set<CheckLevel>[], level: CheckLevel) => xs.filter((at) => at.has(level)).length;
  return {
    mode,
    runs: runs.length,
    erroredRuns: all.filter((r) => r.errored).length,
    checks: Object.fromEntries(CHECK_LEVELS.map((l) => [l, checkIds[l].size])) as Record<CheckLevel, number>,
    failedRuns: Object.fromEntries(CHECK_LEVELS.map((l) => [l, count(failsAt, l)])) as Record<
      CheckLevel,
      number
    >,
    outcomePass: rate(outcomeOk.length, runs.length),
    outcomePassFinalStateFail: rate(count(outcomeOk, "final-state"), outcomeOk.length),
    outcomePassProcessFail: rate(count(outcomeOk, "process"), outcomeOk.length),
    outcomePassAnyDeviation: rate(outcomeOk.filter((at) => at.size > 0).length, outcomeOk.length),
    finalStatePass: rate(finalOk.length, runs.length),
    finalStatePassProcessFail: rate(count(finalOk, "process"), finalOk.length),
  };
}

/** Both modes of a discriminator battery's checks (baseline only when it ran). */
export function levelsOf(checks: readonly CheckResult[]): LevelDecomposition[] {
  return (["skill", "baseline"] as const)
    .map((m) => decomposeLevels(checks, m))
    .filter((d): d is LevelDecomposition => !!d);
}

/**
 * Several decompositions of one mode as one (shards of a run, skills of a PR): counts add up, rates are taken
 * again. Distinct check counts add up too, which is exact when the parts hold different skills (shards do).
 */
export function sumLevels(parts: readonly LevelDecomposition[]): LevelDecomposition[] {
  const out: LevelDecomposition[] = [];
  for (const mode of ["skill", "baseline"] as const) {
    const xs = parts.filter((p) => p.mode === mode);
    if (xs.length === 0) continue;
    const add = (f: (d: LevelDecomposition) => number) => xs.reduce((s, d) => s + f(d), 0);
    const perLevel = (f: (d: LevelDecomposition) => Record<CheckLevel, number>) =>
      Object.fromEntries(CHECK_LEVELS.map((l) => [l, add((d) => f(d)[l])])) as Record<CheckLevel, number>;
    const again = (k: RateKey) =>
      rate(
        add((d) => d[k].passed),
        add((d) => d[k].total),
      );
    out.push({
      mode,
      runs: add((d) => d.runs),
      erroredRuns: add((d) => d.erroredRuns),
      checks: perLevel((d) => d.checks),
      failedRuns: perLevel((d) => d.failedRuns),
      outcomePass: again("outcomePass"),
      outcomePassFinalStateFail: again("outcomePassFinalStateFail"),
      outcomePassProcessFail: again("outcomePassProcessFail"),
      outcomePassAnyDeviation: again("outcomePassAnyDeviation"),
      finalStatePass: again("finalStatePass"),
      finalStatePassProcessFail: again("finalStatePassProcessFail"),
    });
  }
  return out;
}

type RateKey =
  | "outcomePass"
  | "outcomePassFinalStateFail"
  | "outcomePassProcessFail"
  | "outcomePassAnyDeviation"
  | "finalStatePass"
  | "finalStatePassProcessFail";
