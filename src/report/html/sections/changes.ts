import type { DiffLine, FileChange } from "../../../model/report.js";
import type { RenderContext } from "../context.js";
import { sourceLink } from "../context.js";
import { esc } from "../escape.js";
import type { Section } from "./common.js";
import { diffLineId, orderedRoots } from "./roots.js";

/**
 * The PR's diff of the evaluated skills' SKILL.md and suite files, each added line linked to the roots it
 * explains (a root located at that line), and each such root linking back (`roots.ts`).
 */
export const changesSection: Section = {
  id: "changes",
  title: "Changes in this PR",
  render(ctx) {
    const changes = ctx.report.changes ?? [];
    if (!changes.length) return undefined;
    return [
      `<p class="muted">What this change did to the skills it evaluates: each file's hunks, two lines of context; an added line a root points at links to it.</p>`,
      ...changes.map((c, i) => file(ctx, c, i)),
    ].join("");
  },
};

function file(ctx: RenderContext, c: FileChange, index: number): string {
  const roots = orderedRoots(ctx.report)
    .map((r, i) => ({ r, i }))
    .filter(({ r }) => r.file === c.file);
  const line = (l: DiffLine) => {
    const here = l.kind === "+" ? roots.filter(({ r }) => r.line === l.line) : [];
    const links = here
      .map(({ r, i }) => ` <a class="explains" href="#root-${i}">root ${esc(r.id)}</a>`)
      .join("");
    const cls = l.kind === "+" ? "dl add" : l.kind === "-" ? "dl del" : "dl";
    const id = l.kind === "+" ? ` id="${diffLineId(index, l.line)}"` : "";
    return `<div class="${cls}"${id}><span class="ln">${l.kind === "-" ? "" : l.line}</span><code>${esc(`${l.kind}${l.text}`)}</code>${links}</div>`;
  };
  const hunks = c.hunks
    .map(
      (h) =>
        `<div class="hunk"><div class="hh muted">@@ base line ${h.baseStart}, head line ${h.headStart} @@</div>${h.lines.map(line).join("")}</div>`,
    )
    .join("");
  const omitted = c.omittedLines
    ? `<p class="muted">${c.omittedLines} more changed line(s) not kept in the report.</p>`
    : "";
  return `<h3>${sourceLink(ctx, c.file, 1)} <span class="muted">${esc(c.skill)}, ${esc(c.status)}</span></h3><div class="diff">${hunks}</div>${omitted}`;
}
