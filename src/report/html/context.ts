import type { Report, SkillReport, TrialTranscript } from "../../model/report.js";
import { esc } from "./escape.js";
import { Store } from "./store.js";

export interface HtmlOptions {
  /**
   * Where repository files are shown: a GitHub blob URL prefix of the head commit (`https://github.com/o/r/blob/<sha>`);
   * without it, a `file:` URL into the report's repository folder when that is an absolute path.
   */
  blobBase?: string;
  /** Page title (the check's name). */
  title?: string;
  /**
   * Applied to the compressed store's text before compression (which no later text redaction could see into):
   * the writer's `redactOutput`. The report itself should already be redacted.
   */
  redact?: (text: string) => string;
}

/** What every section renderer reads: the report, the options, and the transcripts by id. */
export interface RenderContext {
  report: Report;
  options: HtmlOptions;
  /** Every kept transcript, by `<skill>\0<id>`. */
  transcripts: Map<string, { skill: string; t: TrialTranscript }>;
  /** Bodies the page fills in when a reader opens them (transcripts, long lists). */
  store: Store;
  /** Slot id of each transcript rendered so far, by `transcriptKey`. */
  slotIds: Map<string, string>;
  /** Characters of transcript bodies in the store so far. */
  transcriptChars: number;
}

export function makeContext(report: Report, options: HtmlOptions): RenderContext {
  const transcripts = new Map<string, { skill: string; t: TrialTranscript }>();
  for (const s of report.skills)
    for (const t of s.transcripts ?? []) transcripts.set(transcriptKey(s.name, t.id), { skill: s.name, t });
  return { report, options, transcripts, store: new Store(), slotIds: new Map(), transcriptChars: 0 };
}

export function transcriptKey(skill: string, id: string): string {
  return `${skill}\0${id}`;
}

/** The HTML id of a skill's section parts (names may hold any character an id should not). */
export function skillAnchor(s: SkillReport | string): string {
  const name = typeof s === "string" ? s : s.name;
  return `skill-${name.replace(/[^A-Za-z0-9_-]/g, (c) => `_${c.charCodeAt(0).toString(16)}`)}`;
}

/** A link to `file:line` in the repository, or the location as text when the page knows no place to link to. */
export function sourceLink(ctx: RenderContext, file: string, line?: number): string {
  const label = esc(line ? `${file}:${line}` : file);
  const href = sourceHref(ctx, file, line);
  return href ? `<a class="loc" href="${esc(href)}">${label}</a>` : `<code class="loc">${label}</code>`;
}

function sourceHref(ctx: RenderContext, file: string, line?: number): string | undefined {
  if (!file || file.startsWith("/") || file.split("/").includes("..")) return undefined;
  const path = file.split("/").map(encodeURIComponent).join("/");
  if (ctx.options.blobBase)
    return `${ctx.options.blobBase.replace(/\/+$/, "")}/${path}${line ? `#L${line}` : ""}`;
  const repo = ctx.report.repo;
  if (repo?.startsWith("/"))
    return `file://${repo.split("/").map(encodeURIComponent).join("/").replace(/\/+$/, "")}/${path}`;
  return undefined;
}
