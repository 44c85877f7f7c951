import type { Report } from "../model/report.js";
import { humanDuration } from "../run/progress.js";

/** The report's one-line facts shared by the Markdown, terminal and HTML renderers: headline, trials, skills, time. */

/** "3 trials per case", or what `--trials` or each suite's meta.json set. */
export function trialsFact(report: Report): string {
  const per = new Set(report.skills.map((s) => s.trials?.perCase).filter((n) => n !== undefined));
  if (report.trialsOverride !== undefined) return `${report.trialsOverride} trial(s) per case (--trials)`;
  if (per.size > 1) return `${[...per].sort((a, b) => a - b).join("/")} trials per case (per suite)`;
  const n = [...per][0] ?? report.trials;
  return `${n} trial${n === 1 ? "" : "s"} per case`;
}

/** Headline used as the check run title and the summary's first line. */
export function headline(report: Report): string {
  if (report.onDemand) return report.onDemand.message.slice(0, 200);
  const skills = new Set(report.skills.map((s) => s.name)).size;
  const what = `${skills} skill${skills === 1 ? "" : "s"}`;
  if (report.verdict === "error")
    return `error: ${report.errors[0] ?? report.blockingRoots[0]?.title ?? "the evaluation did not complete"}`.slice(
      0,
      200,
    );
  if (report.verdict === "pass")
    return skills === 0
      ? `pass: ${report.scope?.message ?? "no skill to evaluate"}`
      : `pass: ${what} evaluated, no blocking root`;
  const blocking = report.blockingRoots.length;
  const fresh = report.newRoots.filter((r) => r.blocking).length;
  return `fail: ${blocking} blocking root${blocking === 1 ? "" : "s"} (${fresh} new) in ${what}`;
}

/**
 * "1 skill(s)", or "1 skill(s) in 2 cell(s)" with an agent matrix, whose report holds a skill once per cell.
 */
export function skillsFact(report: Pick<Report, "skills">): string {
  const names = new Set(report.skills.map((s) => s.name)).size;
  const cells = new Set(report.skills.flatMap((s) => (s.cell ? [s.cell] : []))).size;
  return `${names} skill(s)${cells > 1 ? ` in ${cells} cell(s)` : ""}`;
}

/**
 * The rounds of agent calls a PR waited for: the first batch, and each confirmation look once (the units' batches
 * of one look run side by side; a report from before per-unit looks has one batch per round).
 */
export function roundsWaited(report: Pick<Report, "rounds">): { first: number; confirmations: number } {
  const batches = report.rounds ?? [];
  const first = batches.some((r) => r.label === "first batch") ? 1 : 0;
  const looks = batches.filter((r) => r.label !== "first batch").map((r, i) => r.look ?? `#${i}`);
  return { first, confirmations: new Set(looks).size };
}

/** "took 3 min over 3 rounds of agent calls (first batch, 2 confirmation rounds)": how long the PR waited. */
export function timeFact(
  report: Pick<Report, "durationMs" | "rounds"> & { cost?: Pick<Report["cost"], "agentCalls"> },
): string {
  const { first, confirmations } = roundsWaited(report);
  const rounds = first + confirmations;
  const calls = report.cost?.agentCalls ?? 0;
  const how =
    rounds === 0
      ? calls > 0
        ? `${calls} agent call(s)`
        : "no agent calls"
      : `${rounds} round(s) of agent calls (${first ? "first batch" : ""}${confirmations ? `${first ? ", " : ""}${confirmations} confirmation round(s)` : ""})`;
  return `took ${humanDuration(report.durationMs)} over ${how}`;
}
