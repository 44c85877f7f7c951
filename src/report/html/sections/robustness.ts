import { esc } from "../escape.js";
import type { Section } from "./common.js";

/** The robustness taxonomy's eight dimensions: a score where something measured it, "unmeasured" otherwise. */
export const robustnessSection: Section = {
  id: "robustness",
  title: "Robustness",
  render(ctx) {
    const skills = ctx.report.skills.filter((s) => s.robustness);
    if (!skills.length) return undefined;
    return skills
      .map((s) => {
        const r = s.robustness!;
        const rows = r.dimensions.map((d) =>
          d.measured
            ? `<tr><th scope="row">${esc(d.name)}</th><td class="num">${d.score?.toFixed(0) ?? "–"}</td><td>${d.passed ?? "–"}/${d.total ?? "–"}</td><td>${esc(d.basis)}</td></tr>`
            : `<tr class="unmeasured"><th scope="row">${esc(d.name)}</th><td>unmeasured</td><td>–</td><td>${esc(d.basis)}</td></tr>`,
        );
        const measured = r.dimensions.filter((d) => d.measured).length;
        const summary =
          r.composite !== undefined
            ? `composite ${r.composite.toFixed(0)} (${esc(r.tier ?? "")}) over ${measured} of ${r.dimensions.length} dimensions; the other ${r.dimensions.length - measured} are unmeasured, not zero`
            : `no dimension measured`;
        return `<table><caption>${esc(s.name)}: ${summary}</caption><thead><tr><th scope="col">dimension</th><th scope="col">score</th><th scope="col">passed</th><th scope="col">what was counted</th></tr></thead><tbody>${rows.join("")}</tbody></table>`;
      })
      .join("");
  },
};
