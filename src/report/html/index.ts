/**
 * The review report: one self-contained HTML file (no network, no external font, script or image; it opens from
 * disk) that shows why a check failed, failures first, with the trials' transcripts side by side. Pure: Report →
 * string. One renderer per section (`SECTIONS`); every string from the report passes `esc`.
 */
import { createHash } from "node:crypto";
import type { Report } from "../../model/report.js";
import { headline } from "../facts.js";
import { CLIENT_SCRIPT } from "./client.js";
import { type HtmlOptions, makeContext, type RenderContext } from "./context.js";
import { esc } from "./escape.js";
import { behaviourSection } from "./sections/behaviour.js";
import { changesSection } from "./sections/changes.js";
import type { Section } from "./sections/common.js";
import { costSection } from "./sections/cost.js";
import { diagnosticsSection } from "./sections/diagnostics.js";
import { gatesSection } from "./sections/gates.js";
import { isolationSection } from "./sections/isolation.js";
import { robustnessSection } from "./sections/robustness.js";
import { rootsSection } from "./sections/roots.js";
import { skillsSection } from "./sections/skills.js";
import { trialsSection } from "./sections/trials.js";
import { triggerSection } from "./sections/trigger.js";
import { verdictSection } from "./sections/verdict.js";
import { STYLE } from "./style.js";

export type { HtmlOptions } from "./context.js";

/** The page's sections, in reading order: the verdict and its roots first. */
export const SECTIONS: readonly Section[] = [
  verdictSection,
  rootsSection,
  behaviourSection,
  changesSection,
  skillsSection,
  triggerSection,
  gatesSection,
  robustnessSection,
  trialsSection,
  costSection,
  isolationSection,
  diagnosticsSection,
];

const sha256 = (s: string) => `'sha256-${createHash("sha256").update(s, "utf8").digest("base64")}'`;

/** Only the page's own style and script; no connection, no frame, no form target, no base. */
function contentSecurityPolicy(): string {
  return [
    "default-src 'none'",
    `style-src ${sha256(STYLE)}`,
    `script-src ${sha256(CLIENT_SCRIPT)}`,
    "img-src data:",
    "base-uri 'none'",
    "form-action 'none'",
  ].join("; ");
}

function filters(ctx: RenderContext): string {
  const options = (xs: [string, string][]) =>
    xs.map(([v, l]) => `<option value="${esc(v)}">${esc(l)}</option>`).join("");
  const skills = ctx.report.skills.map((s) => [s.name, s.name] as [string, string]);
  return `<form class="filters" id="filters" role="search" aria-label="Filter the report">
<label>Skill <select id="f-skill">${options([["", "all skills"], ...skills])}</select></label>
<label>Status <select id="f-status">${options([
    ["", "any status"],
    ["failing", "failing"],
    ["passing", "passing"],
    ["new", "new roots"],
    ["blocking", "blocking roots"],
    ["error", "errors"],
  ])}</select></label>
<label>Battery <select id="f-battery">${options([
    ["", "all batteries"],
    ["discriminator", "discriminator"],
    ["trigger", "trigger"],
    ["other", "other"],
  ])}</select></label>
<label>Search <input type="search" id="f-search" placeholder="check, prompt, output…"></label>
<button type="button" id="f-reset">Reset</button>
<span id="f-count" class="muted" aria-live="polite"></span>
</form>`;
}

export function renderHtml(report: Report, options: HtmlOptions = {}): string {
  const ctx = makeContext(report, options);
  const rendered = SECTIONS.map((s) => ({ s, html: s.render(ctx) })).filter(
    (x): x is { s: Section; html: string } => x.html !== undefined,
  );
  const title = `${options.title ?? "skillgate"}: ${headline(report)}`;
  const nav = rendered.map(({ s }) => `<li><a href="#${s.id}">${esc(s.title)}</a></li>`).join("");
  const body = rendered
    .map(
      ({ s, html }) =>
        `<section id="${s.id}" aria-labelledby="h-${s.id}"><h2 id="h-${s.id}">${esc(s.title)}</h2>${html}</section>`,
    )
    .join("\n");
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${esc(contentSecurityPolicy())}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="skillgate ${esc(report.tool.version)}">
<title>${esc(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<a class="skip" href="#roots">Skip to the roots</a>
<header class="top"><h1>${esc(options.title ?? "skillgate")} review report</h1><nav aria-label="Sections"><ul>${nav}</ul></nav></header>
${filters(ctx)}
<main>
${body}
</main>
<noscript><p>Transcripts open with JavaScript, which this page runs only from its own inline script.</p></noscript>
${ctx.store.html(options.redact ?? ((x) => x))}
<script>${CLIENT_SCRIPT}</script>
</body>
</html>
`;
}
