/**
 * The agent matrix in the Markdown summary and the terminal: cells (verdict, roots, cost), the cell × skill table
 * with the PR's effect per cell, and the interactions between cells. Pure; untrusted text passes `escapeText`.
 */
import type { CellEffect, MatrixSummary, Verdict } from "../model/report.js";

const ICON: Record<Verdict, string> = { pass: "✅", fail: "❌", error: "⚠️" };

const pct = (x: number | undefined) => (x === undefined ? "–" : `${(x * 100).toFixed(1)} %`);
const pts = (x: number) => `${x >= 0 ? "+" : "−"}${Math.abs(x * 100).toFixed(1)} pts`;

/** "−40.0 pts [−66.7, −13.3] (head 50.0 % of 9, base 90.0 % of 9)" */
function effectText(e: CellEffect | undefined): string {
  if (!e) return "–";
  return `${pts(e.effect)} [${pts(e.low)}, ${pts(e.high)}] (head ${pct(e.head.mean)} of ${e.head.trials}, base ${pct(e.base.mean)} of ${e.base.trials})`;
}

const pair = (x: { head: number; base?: number } | undefined) =>
  x ? `${pct(x.head)}${x.base !== undefined ? ` (base ${pct(x.base)})` : ""}` : "–";

/** Markdown blocks, most important first; `esc` is the summary's escaper for untrusted text. */
export function matrixMarkdown(m: MatrixSummary, esc: (s: unknown, max?: number) => string): string[] {
  const out: string[] = ["\n### Agent matrix\n"];
  out.push("| cell | agent | required | verdict | roots (new) | cost |\n|---|---|---|---|---|---|");
  for (const c of m.cells)
    out.push(
      `| ${esc(c.name, 64)} | ${esc(c.identity, 120)} | ${c.required ? "yes" : "no (advisory)"} | ${c.verdict ? `${ICON[c.verdict]} ${c.verdict}` : "–"}${c.selected ? "" : ` ${esc(c.reason ?? "not evaluated", 200)}`} | ${c.blockingRoots} (${c.newRoots}) | $${c.cost.usd.toFixed(2)} (${c.cost.agentCalls} calls) |`,
    );
  if (m.entries.length) {
    out.push(
      "\n| skill | cell | verdict | discriminator pass rate | trigger F1 | new roots | effect of the change (95 % CI) |\n|---|---|---|---|---|---|---|",
    );
    for (const e of m.entries)
      out.push(
        `| ${esc(e.skill, 80)} | ${esc(e.cell, 64)} | ${ICON[e.verdict]} ${e.verdict} | ${pair(e.discriminatorPassRate)} | ${pair(e.triggerF1)} | ${e.newRoots} | ${effectText(e.effect)} |`,
      );
  }
  if (m.interactions.length) {
    out.push(
      `\nInteractions (difference in differences of the effect, ${m.bootstrap.level * 100} % bootstrap interval, ${m.bootstrap.resamples.toLocaleString("en-US")} resamples, seed ${m.bootstrap.seed}):\n`,
    );
    for (const i of m.interactions)
      out.push(
        `- ${i.flagged ? "⚠️ **" : ""}${esc(i.skill, 80)}, ${esc(i.a, 64)} vs ${esc(i.b, 64)}: ${esc(i.message, 400)}${i.flagged ? "**" : ""}`,
      );
  }
  return out;
}

/** Terminal lines (no colour codes: the caller tints). */
export function matrixTerminal(m: MatrixSummary): string[] {
  const out = ["agent matrix"];
  for (const c of m.cells)
    out.push(
      `  ${(c.verdict ?? "none").toUpperCase().padEnd(6)} cell ${c.name} (${c.identity})${c.required ? "" : " advisory"}${c.selected ? "" : `: ${c.reason ?? "not evaluated"}`}  roots ${c.blockingRoots} blocking, ${c.newRoots} new; ${c.cost.agentCalls} agent calls, $${c.cost.usd.toFixed(4)}`,
    );
  for (const e of m.entries)
    out.push(
      `    ${e.skill} @ ${e.cell}: ${e.verdict}; discriminator ${pair(e.discriminatorPassRate)}; effect ${effectText(e.effect)}`,
    );
  for (const i of m.interactions)
    out.push(`  ${i.flagged ? "FLAGGED " : ""}interaction ${i.skill}, ${i.a} vs ${i.b}: ${i.message}`);
  return out;
}
