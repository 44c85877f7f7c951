/** The job summary: the report as Markdown with charts, within the summary's byte limit (limits.ts). */
import type { Report } from "../model/report.js";
import { renderMarkdown } from "../report/markdown.js";
import type { ActionInputs } from "./inputs.js";
import type { ActionIO } from "./io.js";
import { MAX_JOB_SUMMARY_BYTES } from "./limits.js";

export async function writeJobSummary(
  io: ActionIO,
  report: Report,
  inputs: Pick<ActionInputs, "report" | "checkName">,
  reviewReportUrl: string | undefined,
): Promise<void> {
  const summary = renderMarkdown(report, {
    maxChars: MAX_JOB_SUMMARY_BYTES / 2,
    fullReportHint: `the JSON report (${inputs.report})`,
    title: inputs.checkName,
    charts: true,
    ...(reviewReportUrl ? { reviewReportUrl } : {}),
  });
  await io.appendSummary(truncateBytes(summary, MAX_JOB_SUMMARY_BYTES));
}

/** `text` cut to at most `maxBytes` of UTF-8, never in the middle of a character. */
function truncateBytes(text: string, maxBytes: number): string {
  if (Buffer.byteLength(text) <= maxBytes) return text;
  return Buffer.from(text)
    .subarray(0, maxBytes)
    .toString("utf8")
    .replace(/\uFFFD$/, "");
}
