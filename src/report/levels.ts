/**
 * The outcome / final-state / process decomposition (`LevelDecomposition`) as text: one line per mode for the
 * terminal, one table for Markdown. Pure; every value is a number or one of our own labels.
 */
import type { LevelDecomposition, RateWithInterval } from "../model/report.js";

const pct = (x: number) => `${Math.round(x * 100)}%`;

/** `3/14 21% [8%–48%]`: a count of runs, its share and the share's Wilson 95 % interval. */
function share(r: RateWithInterval): string {
  return r.total === 0 ? `0/0` : `${r.passed}/${r.total} ${pct(r.rate)} [${pct(r.low)}–${pct(r.high)}]`;
}

function checksSaid(d: LevelDecomposition): string {
  return `${d.checks.outcome} outcome, ${d.checks["final-state"]} final-state, ${d.checks.process} process check(s)`;
}

/** One line per mode: "skill runs: every outcome check passed in 14/18 …; of those …". */
export function levelLines(levels: readonly LevelDecomposition[]): string[] {
  return levels.map(
    (d) =>
      `${d.mode} runs (${checksSaid(d)}${d.erroredRuns ? `; ${d.erroredRuns} errored run(s) left out` : ""}): ` +
      `outcome passed ${share(d.outcomePass)}, of those final-state failed ${share(d.outcomePassFinalStateFail)}, ` +
      `process failed ${share(d.outcomePassProcessFail)}, any other check ${share(d.outcomePassAnyDeviation)}; ` +
      `outcome and final-state passed ${share(d.finalStatePass)}, of those process failed ${share(d.finalStatePassProcessFail)}`,
  );
}

/** The seeds/002 table for the runs of each mode. */
export function levelTable(levels: readonly LevelDecomposition[]): string {
  const cell = (r: RateWithInterval) =>
    r.total === 0
      ? "0/0"
      : `${r.passed}/${r.total} (${(r.rate * 100).toFixed(1)} %, 95 % CI ${(r.low * 100).toFixed(1)}–${(r.high * 100).toFixed(1)} %)`;
  return [
    "| runs | checks (outcome / final-state / process) | every outcome check passes | of those, a final-state check fails | of those, a process check fails | of those, any other check fails | outcome and final-state pass | of those, a process check fails |",
    "|---|---|---|---|---|---|---|---|",
    ...levels.map(
      (d) =>
        `| ${d.mode} (${d.runs}${d.erroredRuns ? `, ${d.erroredRuns} errored left out` : ""}) | ${d.checks.outcome} / ${d.checks["final-state"]} / ${d.checks.process} | ${cell(d.outcomePass)} | ${cell(d.outcomePassFinalStateFail)} | ${cell(d.outcomePassProcessFail)} | ${cell(d.outcomePassAnyDeviation)} | ${cell(d.finalStatePass)} | ${cell(d.finalStatePassProcessFail)} |`,
    ),
  ].join("\n");
}
