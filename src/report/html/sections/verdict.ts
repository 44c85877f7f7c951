import { headline, trialsFact } from "../../facts.js";
import type { RenderContext } from "../context.js";
import { esc } from "../escape.js";
import { duration, usd } from "../format.js";
import { badge } from "../transcript.js";
import type { Section } from "./common.js";

/** The verdict and why, first: headline, the skills' reasons, run errors, and the facts of the run. */
export const verdictSection: Section = {
  id: "verdict",
  title: "Verdict",
  render(ctx: RenderContext) {
    const r = ctx.report;
    const reasons = r.skills
      .filter((s) => s.verdict !== "pass" || r.skills.length <= 3)
      .map(
        (s) =>
          `<li>${badge(s.verdict)} <strong>${esc(s.name)}</strong>: ${esc(s.reasons.slice(0, 4).join("; ") || "no reason given")}</li>`,
      );
    const errors = r.errors.map((e) => `<p class="alert">${esc(e)}</p>`);
    const base = r.base
      ? (r.base.sha?.slice(0, 12) ?? r.base.ref ?? r.base.dir ?? "?")
      : "none (sweep: no base compared)";
    const facts: [string, string][] = [
      ["head", r.head.sha?.slice(0, 12) ?? r.head.ref ?? "working tree"],
      ["base", base],
      ["agent", r.agent.identity || r.agent.adapter],
      ["trials", trialsFact(r)],
      ["seed", String(r.seed)],
      ["policy", r.policy.origin],
      ["isolation", r.isolation?.level ?? "not reported"],
      ["time", `${duration(r.durationMs)}, started ${r.startedAt}`],
      ["cost", `${usd(r.cost.usd)}, ${r.cost.agentCalls} agent calls, ${r.cost.cacheHits} cached`],
    ];
    if (r.shard) facts.push(["shard", `${r.shard.index}/${r.shard.total}`]);
    return [
      `<p class="headline v-${r.verdict}">${badge(r.verdict, r.verdict.toUpperCase())} ${esc(headline(r).replace(/^(pass|fail|error): /, ""))}</p>`,
      r.scope ? `<p>${esc(r.scope.message)}</p>` : "",
      ...errors,
      reasons.length ? `<ul class="reasons">${reasons.join("")}</ul>` : "",
      `<dl class="facts">${facts.map(([k, v]) => `<div><dt>${esc(k)}</dt><dd>${esc(v)}</dd></div>`).join("")}</dl>`,
    ].join("");
  },
};
