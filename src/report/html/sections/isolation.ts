import { esc } from "../escape.js";
import type { Section } from "./common.js";

/** How untrusted code (the agent, gate modules, predicates) was confined, and whether that was what the run needs. */
export const isolationSection: Section = {
  id: "isolation",
  title: "Isolation",
  render(ctx) {
    const iso = ctx.report.isolation;
    if (!iso)
      return `<p>This report does not say how untrusted code was confined (made before skillgate reported it).</p>`;
    const weaker = iso.level !== iso.required;
    return [
      `<p${weaker ? ' class="alert"' : ""}>Level <strong>${esc(iso.level)}</strong>${weaker ? `, weaker than the required ${esc(iso.required)}${iso.weakerAccepted ? ` (accepted by ${iso.weakerAccepted === "config" ? "the base config's isolation.allowWeaker" : "a local run"})` : ""}` : " (as required)"}: ${esc(iso.reason)}</p>`,
      iso.resources
        ? `<p>Memory and process limits: <strong>${esc(iso.resources.level)}</strong>: ${esc(iso.resources.reason)}</p>`
        : "",
    ].join("");
  },
};
