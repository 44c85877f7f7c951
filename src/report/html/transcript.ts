import type { TrialTranscript } from "../../model/report.js";
import { type RenderContext, transcriptKey } from "./context.js";
import { esc } from "./escape.js";
import { duration, usd } from "./format.js";

/** A trial's outcome: `error` when it or a check could not run, `fail` when a check failed, else `pass`. */
export function trialStatus(t: TrialTranscript): "pass" | "fail" | "error" {
  if (t.error || t.checks.some((c) => c.status === "error")) return "error";
  return t.checks.some((c) => c.status === "fail") ? "fail" : "pass";
}

/** The trial's badge says it is about the whole trial: "trial passed", "trial: 2 of 5 checks failed". */
function trialVerdict(t: TrialTranscript): string {
  const status = trialStatus(t);
  const graded = t.checks.filter((c) => c.status !== "skipped").length;
  const failing = t.checks.filter((c) => c.status === "fail" || c.status === "error").length;
  if (status === "pass") return "trial passed";
  if (t.error && failing === 0) return "trial: error";
  return `trial: ${failing} of ${graded} check(s) ${status === "error" ? "failed or errored" : "failed"}`;
}

export function badge(status: string, text = status): string {
  return `<span class="badge b-${esc(status.replace(/[^a-z-]/g, ""))}">${esc(text)}</span>`;
}

/** One line naming a trial: arm, mode, case, trial. */
export function trialLabel(t: TrialTranscript): string {
  return `${t.arm} · ${t.mode} · ${t.caseId} · trial ${t.trial}`;
}

function pre(text: string, cls = ""): string {
  return `<pre${cls ? ` class="${cls}"` : ""}>${esc(text)}</pre>`;
}

function toolCalls(t: TrialTranscript): string {
  if (!t.toolCalls.length) return `<p class="muted">No tool calls.</p>`;
  const items = t.toolCalls.map((c) => {
    const io = t.detail
      ? `${c.input ? pre(c.input, "in") : ""}${c.output !== undefined ? pre(c.output, c.isError ? "out err" : "out") : ""}`
      : "";
    return `<li><code>${esc(c.name)}</code> <span class="muted">turn ${c.turn}${c.isError ? ", error" : ""}</span>${io}</li>`;
  });
  return `<ol class="calls">${items.join("")}</ol>`;
}

function files(t: TrialTranscript): string {
  if (!t.files.length) return `<p class="muted">No files written.</p>`;
  return t.files
    .map((f) => `<p class="file"><code>${esc(f.path)}</code></p>${t.detail ? pre(f.content, "code") : ""}`)
    .join("");
}

function checks(t: TrialTranscript): string {
  if (!t.checks.length) return `<p class="muted">No checks graded on this trial.</p>`;
  const items = t.checks.map(
    (c) =>
      `<li>${badge(c.status)} <code>${esc(c.checkId)}</code> ${esc(c.message)}${c.replay ? `<br><span class="muted">replay on this trial's file:</span> <code class="replay">${esc(c.replay)}</code>` : ""}</li>`,
  );
  return `<ul class="checks">${items.join("")}</ul>`;
}

/** The whole transcript of one trial (filled into the page when a reader opens it). */
function renderTranscript(t: TrialTranscript): string {
  const facts = [
    duration(t.durationMs),
    t.costUsd ? usd(t.costUsd) : undefined,
    t.cached ? "cached" : undefined,
    t.error ? `error ${t.error.kind}: ${t.error.message}` : undefined,
  ].filter(Boolean);
  const activated = t.skillsActivated.length ? t.skillsActivated.join(", ") : "none";
  return [
    `<div class="transcript">`,
    `<p class="thead">${badge(trialStatus(t), trialVerdict(t))} <strong>${esc(trialLabel(t))}</strong> <span class="muted">${esc(facts.join(" · "))}</span></p>`,
    `<h5>Prompt</h5>${pre(t.prompt)}`,
    `<p><strong>Skills activated:</strong> ${esc(activated)}${t.skillsRegistered ? ` <span class="muted">(registered: ${esc(t.skillsRegistered.join(", ") || "none")})</span>` : ""}</p>`,
    `<h5>Tool calls (${t.toolCalls.length})</h5>${toolCalls(t)}`,
    `<h5>Final output</h5>${pre(t.output)}`,
    `<h5>Files written (${t.files.length})</h5>${files(t)}`,
    `<h5>Checks</h5>${checks(t)}`,
    t.notes?.length ? `<p class="muted">Notes: ${esc(t.notes.join("; "))}</p>` : "",
    t.detail
      ? ""
      : `<p class="muted">Summary only: this report's transcript budget went to more telling trials (tool inputs and outputs, file contents and most of the output were not kept).</p>`,
    t.cut?.length ? `<p class="muted">Cut to the report's limits: ${esc(t.cut.join("; "))}</p>` : "",
    `</div>`,
  ].join("");
}

/**
 * Characters of transcript bodies one page holds. Slots are made in reading order (the roots' trials first, then
 * every trial failures first), so the cap leaves out the least telling; what it leaves out stays in the JSON report.
 * It keeps a report of 10,000 trials a page a browser opens in about 2 s (`npm run bench -- --only review-report`).
 */
const MAX_PAGE_TRANSCRIPT_CHARS = 6 * 1024 * 1024;

/** A placeholder the page fills with the transcript when its `<details>` opens; the body is rendered once. */
export function slot(ctx: RenderContext, skill: string, t: TrialTranscript): string {
  const key = transcriptKey(skill, t.id);
  let id = ctx.slotIds.get(key);
  if (!id) {
    const body = renderTranscript(t);
    if (ctx.transcriptChars + body.length > MAX_PAGE_TRANSCRIPT_CHARS)
      return `<div class="slot" data-filled="1"><p class="muted">This transcript is not in the page (its size limit went to the roots' and the failing trials'); the JSON report holds it as ${esc(t.id)}.</p></div>`;
    id = ctx.store.add(body);
    ctx.slotIds.set(key, id);
    ctx.transcriptChars += body.length;
  }
  return `<div class="slot" data-slot="${id}"></div>`;
}

/** Rows a list shows in the page as it loads; a longer one waits in the page's store until a reader opens it. */
const INLINE_ROWS_UP_TO = 150;

/**
 * A long list (trials, checks) as a `<details>` whose body waits in the store until it is opened, so a report of
 * thousands of trials builds only what a reader looks at; a short one is in the page, open.
 */
export function lazyList(
  ctx: RenderContext,
  cls: string,
  summary: string,
  rows: number,
  body: string,
): string {
  if (rows <= INLINE_ROWS_UP_TO)
    return `<details class="${cls}" open><summary>${summary}</summary>${body}</details>`;
  const id = ctx.store.add(body);
  return `<details class="${cls} lazy-list"><summary>${summary}</summary><div class="slot" data-slot="${id}"></div></details>`;
}

/** Trials side by side (two or three), each under its label; a missing side says why. */
export function sideBySide(
  ctx: RenderContext,
  skill: string,
  ...sides: { label: string; t?: TrialTranscript; none: string }[]
): string {
  const side = (s: (typeof sides)[number]) =>
    `<div class="side"><h4>${esc(s.label)}</h4>${s.t ? slot(ctx, skill, s.t) : `<p class="muted">${esc(s.none)}</p>`}</div>`;
  return `<div class="pair${sides.length > 2 ? " three" : ""}">${sides.map(side).join("")}</div>`;
}
