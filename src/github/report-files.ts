/**
 * The report as files, written before any API call so they are the full record whatever happens to those: the
 * JSON report, JUnit, SARIF and the HTML review report (uploaded as an artifact when the runner's results
 * service is there). Every file goes through the output redactor.
 */
import { dirname, relative, resolve } from "node:path";
import type { Report } from "../model/report.js";
import { renderHtml } from "../report/html/index.js";
import { renderJUnit } from "../report/junit.js";
import { renderSarif } from "../report/sarif.js";
import { redactOutput } from "../util/redact.js";
import { LinkInPath, linkOnPath, writeFileNoFollow } from "../util/write-no-follow.js";
import type { ActionDeps } from "./action-deps.js";
import { actionsArtifactUploader, artifactsAvailable, artifactUrl } from "./artifact.js";
import type { ActionContext } from "./context.js";
import type { ActionInputs } from "./inputs.js";

/**
 * Writes the report files the inputs ask for (the JSON report always, but in `report` mode only when named);
 * returns the review report's artifact URL when it was uploaded.
 */
export async function writeReportFiles(
  deps: ActionDeps,
  o: {
    inputs: ActionInputs;
    ctx: ActionContext;
    report: Report;
    repoDir: string;
    reportPath: string;
    /** `report` mode: the report posted was made elsewhere. */
    stored: boolean;
  },
): Promise<string | undefined> {
  const { inputs, report, repoDir } = o;
  const paths = [
    ...(!o.stored || inputs.report ? [o.reportPath] : []),
    ...[inputs.junit, inputs.sarif].filter((p): p is string => Boolean(p)).map((p) => resolve(repoDir, p)),
    ...(inputs.htmlReport ? [resolve(repoDir, reviewReportFile(inputs.htmlReport, report.shard))] : []),
  ];
  refuseLinks(deps, report, repoDir, paths);
  const out = (path: string, text: string) => writeOut(deps, repoDir, path, text);
  if (!o.stored || inputs.report) out(o.reportPath, `${JSON.stringify(report, null, 2)}\n`);
  if (inputs.junit) out(resolve(repoDir, inputs.junit), renderJUnit(report));
  if (inputs.sarif) out(resolve(repoDir, inputs.sarif), renderSarif(report));
  if (!inputs.htmlReport) return undefined;
  return publishReviewReport(deps, inputs.htmlReport, o.ctx, report, repoDir);
}

/**
 * A link on the way to a report file in the checkout: only the PR (or a careless base) puts one there, to make the
 * Action write where it points. The run is an error located at the link, before any file is written, so every
 * output says so; the files are then written without following it (`writeOut`).
 */
function refuseLinks(deps: ActionDeps, report: Report, repoDir: string, paths: string[]): void {
  const seen = new Set<string>();
  for (const path of paths) {
    const link = linkOnPath(repoDir, path);
    if (!link || seen.has(link.at)) continue;
    seen.add(link.at);
    const message = `${link.at} is a symbolic link in the checkout (to ${link.target}): the report ${relative(repoDir, path)} is never written through it`;
    deps.io.info(`error: ${message}`);
    report.errors.push(message);
    report.diagnostics.push({
      file: link.at,
      line: 1,
      column: 1,
      severity: "error",
      code: "action/report-path-link",
      message,
    });
    report.verdict = "error";
  }
}
/** A shard's file name carries its shard: artifacts of one run must have distinct names. */
export function reviewReportFile(configured: string, shard: Report["shard"]): string {
  if (!shard) return configured;
  const suffix = `-shard-${shard.index}-of-${shard.total}`;
  return /\.html?$/i.test(configured)
    ? configured.replace(/(\.html?)$/i, `${suffix}$1`)
    : `${configured}${suffix}`;
}

/**
 * Writes the HTML review report (files linked at the head commit on GitHub) and uploads it as an artifact when the
 * runner's results service is there. Returns the artifact's URL; a failed upload is logged, never the run's failure.
 */
async function publishReviewReport(
  deps: ActionDeps,
  configured: string,
  ctx: ActionContext,
  report: Report,
  repoDir: string,
): Promise<string | undefined> {
  const file = resolve(repoDir, reviewReportFile(configured, report.shard));
  const blobBase = blobBaseOf(ctx, repoDir, report.head.sha);
  if (
    !writeOut(
      deps,
      repoDir,
      file,
      renderHtml(report, { ...(blobBase ? { blobBase } : {}), redact: redactOutput }),
    )
  )
    return undefined;
  if (!artifactsAvailable(deps.env)) {
    deps.io.info(`review report written to ${file} (no artifact service in this step: not uploaded)`);
    return undefined;
  }
  try {
    const id = await (deps.artifacts ?? actionsArtifactUploader).uploadFile(file, dirname(file));
    const url = artifactUrl(ctx, id);
    deps.io.info(`review report uploaded as artifact ${id}${url ? `: ${url}` : ""}`);
    return url;
  } catch (e) {
    deps.io.info(`warning: could not upload the review report (${(e as Error).message}); it is at ${file}`);
    return undefined;
  }
}

/** Where the repository's files are shown on GitHub at `sha` (undefined outside the workspace or without a sha). */
function blobBaseOf(ctx: ActionContext, repoDir: string, sha: string | undefined): string | undefined {
  const sub = relative(ctx.workspace, repoDir).split("\\").join("/");
  return sha && !sub.startsWith("..")
    ? `${ctx.serverUrl.replace(/\/+$/, "")}/${ctx.owner}/${ctx.repo}/blob/${sha}${sub ? `/${sub}` : ""}`
    : undefined;
}

/**
 * Writes one report file, redacted, never through a link: a link at the file's path is replaced by the file, and a
 * linked folder on the way means the file is not written (said in the log). Returns whether it was written.
 */
function writeOut(deps: ActionDeps, repoDir: string, path: string, text: string): boolean {
  try {
    const r = writeFileNoFollow(repoDir, path, redactOutput(text));
    if (r.replacedLink)
      deps.io.info(
        `${r.replacedLink.at}: the symbolic link there was removed and the report written in its place`,
      );
    return true;
  } catch (e) {
    if (!(e instanceof LinkInPath)) throw e;
    deps.io.info(`error: ${relative(repoDir, path)} not written: ${e.message}`);
    return false;
  }
}
