import type { GateSummary } from "../../../model/report.js";
import { el, esc } from "../escape.js";
import { badge } from "../transcript.js";
import { filterAttrs, type Section } from "./common.js";

/** The deterministic gates run on what the agent wrote: one row per distinct outcome, with its count of trials. */
export const gatesSection: Section = {
  id: "gates",
  title: "Gates",
  render(ctx) {
    const rows: string[] = [];
    for (const s of ctx.report.skills) {
      const groups = new Map<string, { g: GateSummary; n: number }>();
      for (const g of s.gates) {
        const k = JSON.stringify([
          g.gate,
          g.caseId,
          g.assertionId,
          g.module,
          g.passed,
          g.checks.filter((c) => !c.passed).map((c) => c.message),
        ]);
        const seen = groups.get(k);
        if (seen) seen.n++;
        else groups.set(k, { g, n: 1 });
      }
      for (const { g, n } of groups.values()) {
        const failed = g.checks.filter((c) => !c.passed);
        rows.push(
          el(
            "tr",
            {
              class: "fi",
              ...filterAttrs({
                skill: s.name,
                status: [g.passed ? "passing" : "failing"],
                battery: "discriminator",
              }),
            },
            `<td>${badge(g.passed ? "pass" : "fail")}</td><td>${esc(s.name)}</td><td><code>${esc(g.gate)}</code></td><td><code>${esc(`${g.caseId}/${g.assertionId}`)}</code></td><td><code>${esc(g.module)}</code></td><td>${n}</td><td>${failed.length ? `<ul>${failed.map((c) => `<li><code>${esc(c.id)}</code> ${esc(c.message)}</li>`).join("")}</ul>` : `${g.checks.length} checks passed`}${g.seed !== undefined ? ` <span class="muted">(seed ${g.seed})</span>` : ""}</td>`,
          ),
        );
      }
    }
    if (!rows.length) return undefined;
    return `<table><thead><tr><th scope="col">result</th><th scope="col">skill</th><th scope="col">gate</th><th scope="col">check</th><th scope="col">module</th><th scope="col">trials</th><th scope="col">failed probes</th></tr></thead><tbody>${rows.join("")}</tbody></table>`;
  },
};
