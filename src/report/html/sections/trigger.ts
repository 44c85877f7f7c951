import type { SkillReport, TriggerConfusion, TriggerSummary } from "../../../model/report.js";
import { type RenderContext, sourceLink } from "../context.js";
import { el, esc } from "../escape.js";
import { pct, rateCell } from "../format.js";
import { badge } from "../transcript.js";
import { filterAttrs, type Section } from "./common.js";

/** The trigger battery: which skill fired on whose prompts (runs), and per skill precision and recall. */
export const triggerSection: Section = {
  id: "trigger",
  title: "Trigger battery",
  render(ctx) {
    const withTrigger = ctx.report.skills.filter((s) => s.trigger);
    if (!withTrigger.length && !ctx.report.triggerConfusion) return undefined;
    return [
      ctx.report.triggerConfusion ? confusion(ctx.report.triggerConfusion) : "",
      ...withTrigger.map((s) => skillTrigger(ctx, s, s.trigger!)),
    ].join("");
  },
};

function confusion(c: TriggerConfusion): string {
  const head = c.labels.map((l) => `<th scope="col">${esc(l)}</th>`).join("");
  const rows = c.labels
    .filter((expected) => c.counts[expected])
    .map((expected) => {
      // A prompt no skill owns is routed wrongly only to the skill it must not fire; another skill may take it.
      const forbidden = c.notFor?.[expected];
      const cells = c.labels.map((fired) => {
        const n = c.counts[expected]?.[fired] ?? 0;
        const right = forbidden ? !forbidden.includes(fired) : expected === fired;
        return `<td class="${n === 0 ? "zero" : right ? "hit" : "miss"}">${n}</td>`;
      });
      return `<tr><th scope="row">${esc(expected)}</th>${cells.join("")}</tr>`;
    });
  return `<table class="confusion"><caption>Confusion, head (runs): rows are whose prompt it was (<code>(none)</code>: a skill's should-not-fire prompt${c.notFor?.["(none)"] ? `, wrong only where it fired ${esc(c.notFor["(none)"].join(", "))}` : ""}), columns the skill that fired</caption><thead><tr><th scope="col">prompt of ↓ / fired →</th>${head}</tr></thead><tbody>${rows.join("")}</tbody></table>`;
}

function skillTrigger(ctx: RenderContext, s: SkillReport, t: TriggerSummary): string {
  const b = s.base?.trigger;
  const rates = `<table><caption>${esc(s.name)}: router ${esc(t.router)}${t.proxy ? " (a proxy, not the real agent)" : ""}</caption><thead><tr><th scope="col">figure</th><th scope="col">head</th><th scope="col">base</th></tr></thead><tbody><tr><th scope="row">precision</th><td>${rateCell(t.precision)}</td><td>${rateCell(b?.precision)}</td></tr><tr><th scope="row">recall</th><td>${rateCell(t.recall)}</td><td>${rateCell(b?.recall)}</td></tr><tr><th scope="row">F1</th><td>${pct(t.f1)}</td><td>${pct(b?.f1)}</td></tr></tbody></table>`;
  const queries = t.queries.map((q) => {
    const others = Object.entries(q.firedOthers)
      .map(([k, n]) => `${k} ${n}×`)
      .join(", ");
    return el(
      "tr",
      {
        class: "fi",
        ...filterAttrs({ skill: s.name, status: [q.passed ? "passing" : "failing"], battery: "trigger" }),
      },
      `<td>${badge(q.passed ? "pass" : "fail")}</td><td>${esc(q.shouldFire ? "should fire" : "should not fire")}</td><th scope="row">${esc(q.prompt)}<br>${sourceLink(ctx, q.file, q.line)}</th><td>${q.fired}/${q.runs}</td><td>${esc(others || "–")}</td>`,
    );
  });
  return `${rates}${t.warnings.length ? `<p class="alert">${esc(t.warnings.join("; "))}</p>` : ""}<table><caption>${esc(s.name)}: queries, head</caption><thead><tr><th scope="col">result</th><th scope="col">expected</th><th scope="col">prompt</th><th scope="col">fired</th><th scope="col">other skills fired</th></tr></thead><tbody>${queries.join("")}</tbody></table>`;
}
