import type { RobustnessSummary } from "../../../model/index.js";
import { esc } from "../escape.js";
import type { Section } from "./common.js";

/**
 * The robustness taxonomy's eight dimensions: a score and grade where probes measured it, "unmeasured" otherwise;
 * the composite only when every selected dimension was measured ("partial, N of M" else), then the report
 * template's critical failures and top failure patterns.
 */
export const robustnessSection: Section = {
  id: "robustness",
  title: "Robustness",
  render(ctx) {
    const skills = ctx.report.skills.filter((s) => s.robustness);
    if (!skills.length) return undefined;
    return skills
      .map((s) => skillRobustness(s.cell ? `${s.name} (cell ${s.cell})` : s.name, s.robustness!))
      .join("");
  },
};

function skillRobustness(name: string, r: RobustnessSummary): string {
  const rows = r.dimensions.map((d) =>
    d.measured
      ? `<tr><th scope="row">${esc(d.name)}</th><td class="num">${d.score?.toFixed(0) ?? "–"}</td><td>${esc(d.grade ?? "–")}</td><td>${d.passed ?? "–"}/${d.total ?? "–"}</td><td>${esc([d.basis, d.warning].filter(Boolean).join("; "))}</td></tr>`
      : `<tr class="unmeasured"><th scope="row">${esc(d.name)}</th><td>unmeasured</td><td>–</td><td>–</td><td>${esc(d.basis)}</td></tr>`,
  );
  const measured = r.dimensions.filter((d) => d.measured).length;
  const summary = `${esc(r.label)}; ${measured} of ${r.dimensions.length} dimensions measured, the others unmeasured, not zero`;
  const table = `<table><caption>${esc(name)}: ${summary}</caption><thead><tr><th scope="col">dimension</th><th scope="col">score</th><th scope="col">grade</th><th scope="col">passed</th><th scope="col">what was counted</th></tr></thead><tbody>${rows.join("")}</tbody></table>`;
  const critical = r.criticalFailures.length
    ? `<p>Critical failures (score below 50):</p><ul>${r.criticalFailures
        .map((c) => {
          const ex = c.examples[0];
          return `<li>${esc(c.dimension)}: ${c.score.toFixed(0)}${ex ? ` — e.g. case <code>${esc(ex.caseId)}</code> trial ${ex.trial}: ${esc(ex.failure)}` : ""}</li>`;
        })
        .join("")}</ul>`
    : "";
  const patterns = r.topFailurePatterns.length
    ? `<p>Top failure patterns:</p><ol>${r.topFailurePatterns
        .map(
          (p) =>
            `<li>${esc(p.pattern)} — ${p.count} probe trial(s) — e.g. ${esc(p.example.prompt)} → ${esc(p.example.output || "(no output)")}</li>`,
        )
        .join("")}</ol>`
    : "";
  return table + critical + patterns;
}
