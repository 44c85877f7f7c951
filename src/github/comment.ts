/** The sticky PR comment: its body (pure, within the size limit) and its creation or in-place update. */
import type { Report } from "../model/report.js";
import { renderMarkdown } from "../report/markdown.js";
import { type GitHubClient, httpStatus } from "./client.js";
import type { ActionIO } from "./io.js";
import { MAX_COMMENT_CHARS } from "./limits.js";

/** The hidden marker that finds our sticky comment again: one per check name, so two gates can coexist. */
export function commentMarker(checkName: string): string {
  return `<!-- skillgate:sticky-comment ${checkName.replace(/[^A-Za-z0-9 ._/-]/g, "").replace(/--/g, "-")} -->`;
}

/** Pure: the comment body, marker first, within GitHub's comment size limit. */
function buildCommentBody(
  report: Report,
  o: { checkName: string; fullReportHint: string; reviewReportUrl?: string },
): string {
  return renderMarkdown(report, {
    maxChars: MAX_COMMENT_CHARS,
    fullReportHint: o.fullReportHint,
    ...(o.reviewReportUrl ? { reviewReportUrl: o.reviewReportUrl } : {}),
    marker: commentMarker(o.checkName),
    title: o.checkName,
  });
}

/** Creates the sticky comment or updates it in place. Returns what happened. */
async function upsertStickyComment(
  client: GitHubClient,
  target: { owner: string; repo: string; issueNumber: number; checkName: string },
  body: string,
): Promise<{ action: "created" | "updated"; id: number }> {
  const marker = commentMarker(target.checkName);
  const comments = await client.paginate(client.rest.issues.listComments, {
    owner: target.owner,
    repo: target.repo,
    issue_number: target.issueNumber,
    per_page: 100,
  });
  const existing = comments.find((c) => c.body?.startsWith(marker) || c.body?.includes(`${marker}\n`));
  if (existing) {
    await client.rest.issues.updateComment({
      owner: target.owner,
      repo: target.repo,
      comment_id: existing.id,
      body,
    });
    return { action: "updated", id: existing.id };
  }
  const { data } = await client.rest.issues.createComment({
    owner: target.owner,
    repo: target.repo,
    issue_number: target.issueNumber,
    body,
  });
  return { action: "created", id: data.id };
}

/**
 * Writes the report as the PR's sticky comment; returns whether it was written. A failure is logged, never the
 * run's failure: the check run and the job summary carry the verdict.
 */
export async function commentOnPullRequest(
  client: GitHubClient,
  target: { owner: string; repo: string; issueNumber: number; checkName: string },
  report: Report,
  o: { fullReportHint: string; reviewReportUrl?: string | undefined; io: ActionIO },
): Promise<boolean> {
  try {
    const r = await upsertStickyComment(
      client,
      target,
      buildCommentBody(report, {
        checkName: target.checkName,
        fullReportHint: o.fullReportHint,
        ...(o.reviewReportUrl ? { reviewReportUrl: o.reviewReportUrl } : {}),
      }),
    );
    o.io.info(`sticky comment ${r.action} (#${r.id})`);
    return true;
  } catch (e) {
    o.io.info(
      `warning: could not write the PR comment (${httpStatus(e) ?? "network"}): ${(e as Error).message}`,
    );
    return false;
  }
}
