/**
 * The robustness report of seeds/001's template, per skill: the composite and its label (or "partial, N of M"),
 * the dimension table (score, grade, key finding), the critical failures (< 50) and the top three failure
 * patterns with an example probe and output. Markdown and terminal; untrusted text passes the caller's escaper.
 */
import { CRITICAL_SCORE } from "../grade/robustness.js";
import type { RobustnessSummary } from "../model/report.js";

const fmt = (x: number | undefined) => (x === undefined ? "–" : Math.round(x).toString());

/** "Composite Robustness Score: 51/100 (Fragile)", or "partial, 3 of 8 …" when there is none. */
function compositeLine(r: RobustnessSummary): string {
  return r.composite !== undefined
    ? `Composite Robustness Score: ${fmt(r.composite)}/100 (${r.label})`
    : `${r.label} selected dimensions measured (no composite score)`;
}

export function robustnessMarkdown(
  skill: string,
  r: RobustnessSummary,
  esc: (s: unknown, max?: number) => string,
): string[] {
  const out = [`\n#### Robustness of ${esc(skill, 80)}: ${compositeLine(r)}\n`];
  out.push("| dimension | score | grade | key finding |\n|---|---|---|---|");
  for (const d of r.dimensions) {
    if (!d.selected && !d.measured) continue;
    const finding = [d.basis, d.warning].filter(Boolean).join("; ");
    out.push(`| ${d.name} | ${fmt(d.score)} | ${d.grade ?? "–"} | ${esc(finding, 400)} |`);
  }
  if (r.criticalFailures.length) {
    out.push("\nCritical failures (score below 50):\n");
    for (const c of r.criticalFailures) {
      const ex = c.examples[0];
      out.push(
        `- ${c.dimension}: ${fmt(c.score)}${ex ? ` — e.g. case \`${esc(ex.caseId, 80)}\` trial ${ex.trial}: ${esc(ex.failure, 300)}` : ""}`,
      );
    }
  }
  if (r.topFailurePatterns.length) {
    out.push("\nTop failure patterns:\n");
    for (const [i, p] of r.topFailurePatterns.entries())
      out.push(
        `${i + 1}. ${esc(p.pattern, 160)} — ${p.count} probe trial(s) — e.g. ${esc(p.example.prompt, 160)} → ${esc(p.example.output || "(no output)", 160)}`,
      );
  }
  return out;
}

export function robustnessTerminal(r: RobustnessSummary): string[] {
  const measured = r.dimensions.filter((d) => d.measured).length;
  const out = [
    r.composite !== undefined
      ? `      robustness ${fmt(r.composite)}/100 ${r.label} (${measured} of 8 dimensions measured)`
      : `      robustness: ${r.label} (no composite)`,
  ];
  for (const d of r.dimensions.filter((x) => x.measured))
    out.push(
      `        ${d.name.padEnd(40)} ${fmt(d.score).padStart(3)} ${d.grade}${d.warning ? `  (${d.warning})` : ""}`,
    );
  for (const c of r.criticalFailures)
    out.push(
      `        CRITICAL ${c.dimension} ${fmt(c.score)} (below ${CRITICAL_SCORE})${c.examples[0] ? `: ${c.examples[0].failure}` : ""}`,
    );
  for (const [i, p] of r.topFailurePatterns.entries())
    out.push(
      `        ${i + 1}. ${p.pattern} (${p.count}×), e.g. case ${p.example.caseId}: ${p.example.output.slice(0, 80)}`,
    );
  return out;
}
