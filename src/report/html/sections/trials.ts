import type { SkillReport, TrialTranscript } from "../../../model/report.js";
import type { RenderContext } from "../context.js";
import { el, esc } from "../escape.js";
import { duration } from "../format.js";
import { badge, lazyList, slot, trialLabel, trialStatus } from "../transcript.js";
import { batteryOfMode, filterAttrs, type Section } from "./common.js";

const STATUS_RANK = { error: 0, fail: 1, pass: 2 } as const;

/** Every kept trial of both arms, failures first, each a collapsed transcript the reader opens. */
export const trialsSection: Section = {
  id: "trials",
  title: "Trials",
  render(ctx) {
    const skills = ctx.report.skills.filter((s) => s.transcripts?.length);
    if (!skills.length) return undefined;
    const total = skills.reduce((n, s) => n + s.transcripts!.length, 0);
    return `<p class="muted">${total} trial(s) of both arms; open one to read its transcript.</p>${skills.map((s) => skillTrials(ctx, s)).join("")}`;
  },
};

function skillTrials(ctx: RenderContext, s: SkillReport): string {
  const ts = s
    .transcripts!.map((t, i) => ({ t, i, status: trialStatus(t) }))
    .sort((a, b) => STATUS_RANK[a.status] - STATUS_RANK[b.status] || a.i - b.i);
  const rows = ts.map(({ t, status }) => trialRow(ctx, s.name, t, status));
  const failing = ts.filter((x) => x.status !== "pass").length;
  return `<h3>${esc(s.name)}</h3>${lazyList(ctx, "trial-list", `Trials: ${rows.length} (${failing} failing or in error)`, rows.length, `<div class="trials">${rows.join("")}</div>`)}`;
}

function trialRow(
  ctx: RenderContext,
  skill: string,
  t: TrialTranscript,
  status: ReturnType<typeof trialStatus>,
): string {
  const firstFailed = t.checks.find((c) => c.status === "fail" || c.status === "error");
  const summary = [
    badge(status),
    `<span class="arm arm-${t.arm}">${esc(t.arm)}</span>`,
    esc(trialLabel(t).replace(/^\w+ · /, "")),
    `<span class="muted">activated: ${esc(t.skillsActivated.join(", ") || "none")} · ${esc(duration(t.durationMs))}</span>`,
    firstFailed ? `<span class="failed-check">${esc(firstFailed.checkId)}</span>` : "",
  ].join(" ");
  return el(
    "details",
    {
      class: "trial fi",
      ...filterAttrs({
        skill,
        status: [status === "pass" ? "passing" : "failing", ...(status === "error" ? ["error"] : [])],
        battery: batteryOfMode(t.mode),
      }),
    },
    `<summary>${summary}</summary>${slot(ctx, skill, t)}`,
  );
}
