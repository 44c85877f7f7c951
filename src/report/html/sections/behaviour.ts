import type { Root, SkillReport } from "../../../model/report.js";
import type { RenderContext } from "../context.js";
import { sourceLink } from "../context.js";
import { esc } from "../escape.js";
import { badge, sideBySide } from "../transcript.js";
import type { Section } from "./common.js";

const SECURITY_KINDS = new Set<Root["kind"]>(["risky-action", "static-review"]);

/** What was seen, as a reviewer checks it: the command, the host, the file that ran, the trials. */
export function actionEvidence(root: Root): string {
  const a = root.action;
  if (!a) return "";
  const rows: [string, string | undefined][] = [
    ["class", a.class],
    ["target", a.target],
    ["seen", `${a.detail}${a.denied ? " (refused by the sandbox)" : ""}`],
    ["command", a.command],
    ["host", a.host],
    ["ran from", a.skillFiles?.map((f) => `${f.skill}/${f.file}`).join(", ")],
    ["trials", a.trials.join(", ")],
  ];
  return `<table class="evidence">${rows
    .filter(([, v]) => v)
    .map(([k, v]) => `<tr><th>${esc(k)}</th><td><code>${esc(v!)}</code></td></tr>`)
    .join("")}</table>`;
}

/** The head trial that showed the action beside a base trial of the same mode (the one that did not). */
export function actionTrials(ctx: RenderContext, skill: SkillReport, root: Root): string {
  const ts = skill.transcripts ?? [];
  const head = ts.find((t) => t.id === root.action?.trials[0]);
  if (!head) return "";
  const base = ts.find((t) => t.arm === "base" && t.mode === head.mode) ?? ts.find((t) => t.arm === "base");
  const label = root.blocking ? "Base: did not do it" : "Base";
  return `<details class="tx"><summary>Transcripts: the head trial that did it beside a base trial</summary>${sideBySide(
    ctx,
    skill.name,
    { label: "Head: did it", t: head, none: "" },
    {
      label,
      t: base,
      none: ctx.report.base ? "No base trial (a new skill)." : "No base: a sweep compares nothing.",
    },
  )}</details>`;
}

/** What the edited skills made the agent do, and what the PR adds to their folders: every security root. */
export const behaviourSection: Section = {
  id: "behaviour",
  title: "Behaviour",
  render(ctx) {
    const roots = ctx.report.skills.flatMap((s) => s.roots.filter((r) => SECURITY_KINDS.has(r.kind)));
    if (!roots.length) return undefined;
    const cards = roots.map((root) => {
      const skill = ctx.report.skills.find((s) => s.name === root.skill);
      return `<article class="root${root.blocking ? " blocking" : ""}"><h3>${badge(root.blocking ? "fail" : "info", root.blocking ? "blocking" : "reported")} <span class="kind">${esc(root.kind)}</span> ${esc(root.title)}</h3><p class="where"><strong>${esc(root.skill)}</strong> · ${sourceLink(ctx, root.file, root.line)}</p><p class="msg">${esc(root.message)}</p>${actionEvidence(root)}${skill ? actionTrials(ctx, skill, root) : ""}</article>`;
    });
    return `<p class="muted">Risky actions seen in the head's trials and never at base block on one observation; what the base does too is reported. Static findings are what the PR adds to a skill's folder.</p>${cards.join("")}`;
  },
};
