import { esc } from "../escape.js";
import { duration, usd } from "../format.js";
import type { Section } from "./common.js";

/** What the run spent and how long it took: totals, per skill and mode, and the forecast made before it ran. */
export const costSection: Section = {
  id: "cost",
  title: "Cost and time",
  render(ctx) {
    const r = ctx.report;
    const rows = r.skills.map((s) => {
      const ts = s.transcripts ?? [];
      const trialMs = ts.reduce((n, t) => n + t.durationMs, 0);
      const modes = Object.entries(s.cost.byMode)
        .map(([m, v]) => `${m} ${v!.trials} (${usd(v!.usd)})`)
        .join(", ");
      return `<tr><th scope="row">${esc(s.name)}</th><td>${s.cost.agentCalls}</td><td>${s.cost.cacheHits}</td><td>${usd(s.cost.usd)}</td><td>${esc(modes || "–")}</td><td>${ts.length ? esc(`${duration(trialMs)} over ${ts.length} trials`) : "–"}</td></tr>`;
    });
    const f = r.forecast;
    const forecast = f
      ? `<p>Forecast before the run (${esc(f.costBasis)}): ${f.total.trials} trials, ${f.total.cacheHits} expected cache hits, ${f.total.agentCalls} agent calls${f.total.usd !== undefined ? `, ${usd(f.total.usd)}` : ""}; budget (${esc(f.budget.source)}): ${f.budget.maxAgentCalls ?? "unlimited"} calls, ${f.budget.maxUsd === undefined ? "unlimited USD" : usd(f.budget.maxUsd)}.${f.overBudget ? ` <strong>Over budget:</strong> ${esc(f.overBudget)}` : ""}</p>`
      : "";
    return [
      `<p>${esc(duration(r.durationMs))} in all; ${r.cost.agentCalls} agent calls, ${r.cost.cacheHits} cache hits, ${r.cost.inputTokens} input and ${r.cost.outputTokens} output tokens, ${usd(r.cost.usd)}.</p>`,
      forecast,
      rows.length
        ? `<table><thead><tr><th scope="col">skill</th><th scope="col">agent calls</th><th scope="col">cache hits</th><th scope="col">USD</th><th scope="col">trials by mode</th><th scope="col">agent time (head)</th></tr></thead><tbody>${rows.join("")}</tbody></table>`
        : "",
    ].join("");
  },
};
