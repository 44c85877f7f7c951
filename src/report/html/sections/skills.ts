import { rate } from "../../../grade/stats.js";
import type { EvidenceCheck, SkillReport } from "../../../model/report.js";
import { skillFigures } from "../../figures.js";
import { type RenderContext, skillAnchor, sourceLink } from "../context.js";
import { el, esc } from "../escape.js";
import { pct, rateCell, signedPts } from "../format.js";
import { badge, lazyList } from "../transcript.js";
import { batteryOfMode, filterAttrs, type Section } from "./common.js";

/** Per skill: the verdict, the figures head vs base with intervals, and every check's pass rate in both arms. */
export const skillsSection: Section = {
  id: "skills",
  title: "Skills and checks",
  render(ctx) {
    if (!ctx.report.skills.length) return undefined;
    return ctx.report.skills.map((s) => skillBlock(ctx, s)).join("");
  },
};

function skillBlock(ctx: RenderContext, s: SkillReport): string {
  const figures = skillFigures(s);
  const fmt = (kind: string, x: number | undefined) => (kind === "rate" ? pct(x) : signedPts(x));
  const table = figures.length
    ? `<table><caption>Figures, base vs head</caption><thead><tr><th scope="col">figure</th><th scope="col">base</th><th scope="col">head</th></tr></thead><tbody>${figures
        .map(
          (f) =>
            `<tr><th scope="row">${esc(f.label)}</th><td>${fmt(f.kind, f.base)}</td><td>${fmt(f.kind, f.head)}</td></tr>`,
        )
        .join("")}</tbody></table>`
    : "";
  const d = s.discriminator;
  const rates = d
    ? `<p>With the skill: ${rateCell(d.skill.discriminatorPassRate)}<br>Baseline: ${rateCell(d.baseline.discriminatorPassRate)} <span class="muted">(discriminator pass rates)</span></p>`
    : "";
  return el(
    "div",
    {
      class: "skill fi",
      id: skillAnchor(s),
      ...filterAttrs({
        skill: s.name,
        status: [s.verdict === "pass" ? "passing" : "failing"],
        battery: "other",
      }),
    },
    [
      `<h3>${badge(s.verdict)} ${esc(s.name)} <span class="muted">${esc(s.change)}${s.version ? `, version ${esc(s.version)}` : ""}</span></h3>`,
      `<p>${sourceLink(ctx, s.path)}</p>`,
      s.reasons.length ? `<ul>${s.reasons.map((r) => `<li>${esc(r)}</li>`).join("")}</ul>` : "",
      d?.warnings?.length ? `<p class="alert">${esc(d.warnings.join("; "))}</p>` : "",
      rates,
      table,
      checksTable(ctx, s),
    ].join(""),
  );
}

interface CheckRow {
  checkId: string;
  mode: string;
  loc: EvidenceCheck["loc"];
  head: [number, number];
  base: [number, number];
}

/** Per check and mode, the head and base pass rates over every trial, confirmation trials included. */
function checksTable(ctx: RenderContext, s: SkillReport): string {
  const rows = new Map<string, CheckRow>();
  const add = (c: EvidenceCheck, arm: "head" | "base") => {
    if (c.status === "skipped") return;
    const key = `${c.mode}\0${c.checkId}`;
    let row = rows.get(key);
    if (!row) {
      row = { checkId: c.checkId, mode: c.mode, loc: c.loc, head: [0, 0], base: [0, 0] };
      rows.set(key, row);
    }
    row[arm][1]++;
    if (c.status === "pass") row[arm][0]++;
  };
  for (const c of s.evidence?.head ?? []) add(c, "head");
  for (const c of s.evidence?.base ?? []) add(c, "base");
  if (!rows.size) return "";
  const body = [...rows.values()].map((r) => {
    const failing = r.head[0] < r.head[1];
    return el(
      "tr",
      {
        class: "fi",
        ...filterAttrs({
          skill: s.name,
          status: [failing ? "failing" : "passing"],
          battery: batteryOfMode(r.mode),
        }),
      },
      `<th scope="row"><code>${esc(r.checkId)}</code><br>${sourceLink(ctx, r.loc.file, r.loc.line)}</th><td>${esc(r.mode)}</td><td>${rateCell(rate(...r.head))}</td><td>${r.base[1] ? rateCell(rate(...r.base)) : `<span class="muted">not run</span>`}</td>`,
    );
  });
  const failing = [...rows.values()].filter((r) => r.head[0] < r.head[1]).length;
  const table = `<table class="checks-table"><caption>Pass rate per check, head vs base (Wilson 95 % intervals)</caption><thead><tr><th scope="col">check</th><th scope="col">mode</th><th scope="col">head</th><th scope="col">base</th></tr></thead><tbody>${body.join("")}</tbody></table>`;
  return lazyList(ctx, "checks", `Checks: ${rows.size} (${failing} failing at head)`, rows.size, table);
}
