import { sourceLink } from "../context.js";
import { el, esc } from "../escape.js";
import { badge } from "../transcript.js";
import type { Section } from "./common.js";

/** Problems found in the repository's files, each at its file:line. */
export const diagnosticsSection: Section = {
  id: "diagnostics",
  title: "Validation",
  render(ctx) {
    const ds = ctx.report.diagnostics;
    if (!ds.length) return undefined;
    const items = ds.map((d) =>
      el(
        "li",
        {
          class: "fi",
          "data-skill": "",
          "data-status": d.severity === "error" ? "failing error" : "passing",
          "data-battery": "other",
        },
        `${badge(d.severity === "error" ? "error" : "info", d.severity)} ${sourceLink(ctx, d.file, d.line)} <code>${esc(d.code)}</code> ${esc(d.message)}`,
      ),
    );
    return `<ul class="diagnostics">${items.join("")}</ul>`;
  },
};
