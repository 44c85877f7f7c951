/**
 * The check run: its completion built from the report (pure; an unrequested on-demand run never replaces an
 * evaluation's conclusion) and its I/O (created `in_progress`, completed in batches of annotations).
 */
import type { Report, Verdict } from "../model/report.js";
import { headline } from "../report/facts.js";
import { renderMarkdown } from "../report/markdown.js";
import { breakLinks } from "../report/markdown-text.js";
import { batches, buildAnnotations, type CheckAnnotation } from "./annotations.js";
import type { GitHubClient } from "./client.js";
import { MAX_ANNOTATIONS_PER_REQUEST, MAX_CHECK_OUTPUT_CHARS } from "./limits.js";

/** Conclusion per verdict: errors fail closed. */
const CONCLUSION: Record<Verdict, "success" | "failure"> = {
  pass: "success",
  fail: "failure",
  error: "failure",
};

export interface CheckOutput {
  title: string;
  summary: string;
  annotations?: CheckAnnotation[];
}

/**
 * `external_id` of a check run that carries an evaluation's verdict, and of an on-demand run that evaluated
 * nothing (nobody asked). Runs of one name on one commit are told apart by it: a later unrequested run (another
 * label added, a comment that is not the command) must not replace the verdict an evaluation posted there.
 */
const EVALUATED_EXTERNAL_ID = "skillgate/evaluated";
const UNREQUESTED_EXTERNAL_ID = "skillgate/unrequested";

/** The update requests that complete a check run: the first sets the conclusion; each carries ≤ 50 annotations. */
export interface CheckRunCompletion {
  /** `neutral` / `action_required` only for an on-demand PR nobody asked to evaluate (nothing ran). */
  conclusion: "success" | "failure" | "neutral" | "action_required";
  externalId: typeof EVALUATED_EXTERNAL_ID | typeof UNREQUESTED_EXTERNAL_ID;
  outputs: CheckOutput[];
  annotationCount: number;
  omitted: number;
}

/** Pure: Report → the sequence of check run updates. */
export function buildCheckRunCompletion(
  report: Report,
  o: { checkName: string; fullReportHint: string; reviewReportUrl?: string },
): CheckRunCompletion {
  const { annotations, omitted } = buildAnnotations(report);
  const title = breakLinks(headline(report));
  let summary = renderMarkdown(report, {
    maxChars: MAX_CHECK_OUTPUT_CHARS,
    fullReportHint: o.fullReportHint,
    title: o.checkName,
    ...(o.reviewReportUrl ? { reviewReportUrl: o.reviewReportUrl } : {}),
  });
  if (omitted > 0) {
    const note = `\n\n${omitted} further annotation(s) are not shown here; see ${o.fullReportHint}.`;
    summary = summary.length + note.length <= MAX_CHECK_OUTPUT_CHARS ? summary + note : summary;
  }
  const chunks = batches(annotations, MAX_ANNOTATIONS_PER_REQUEST);
  const outputs: CheckOutput[] = (chunks.length ? chunks : [[]]).map((chunk) => ({
    title,
    summary,
    ...(chunk.length ? { annotations: chunk } : {}),
  }));
  const conclusion = report.onDemand?.conclusion ?? CONCLUSION[report.verdict];
  const externalId = report.onDemand ? UNREQUESTED_EXTERNAL_ID : EVALUATED_EXTERNAL_ID;
  return { conclusion, externalId, outputs, annotationCount: annotations.length, omitted };
}

/** What a check run of the same name on the same commit says (from `checks.listForRef`). */
export interface SiblingRun {
  id: number;
  status: string;
  conclusion: string | null;
  externalId: string | null;
  htmlUrl: string | null;
  title: string | null;
  summary: string | null;
}

/**
 * Pure: an unrequested completion on a commit an evaluation already concluded keeps that evaluation's conclusion
 * (the newest completed evaluated run), saying so; any other completion is unchanged.
 */
function keepEvaluatedConclusion(completion: CheckRunCompletion, siblings: SiblingRun[]): CheckRunCompletion {
  if (completion.externalId !== UNREQUESTED_EXTERNAL_ID) return completion;
  const evaluated = siblings
    .filter((r) => r.externalId === EVALUATED_EXTERNAL_ID && r.status === "completed")
    .sort((a, b) => b.id - a.id)[0];
  const conclusion = evaluated?.conclusion;
  if (!evaluated || !isCompletionConclusion(conclusion)) return completion;
  const note = `This run evaluated nothing (nobody asked for an evaluation in the event that started it); the evaluation of this commit${evaluated.htmlUrl ? ` (${evaluated.htmlUrl})` : ""} concluded **${conclusion}**, and that stands.\n\n`;
  const summary = (note + (evaluated.summary ?? "")).slice(0, MAX_CHECK_OUTPUT_CHARS);
  return {
    conclusion,
    externalId: EVALUATED_EXTERNAL_ID,
    outputs: [{ title: evaluated.title ?? "skillgate", summary }],
    annotationCount: 0,
    omitted: 0,
  };
}

function isCompletionConclusion(c: string | null | undefined): c is CheckRunCompletion["conclusion"] {
  return c === "success" || c === "failure" || c === "neutral" || c === "action_required";
}

export interface CheckRunTarget {
  owner: string;
  repo: string;
  /** The PR head SHA (never the merge SHA), or the pushed / dispatched commit. */
  headSha: string;
  name: string;
  detailsUrl?: string;
}

/** Check run I/O: create `in_progress` early, complete with the conclusion and annotation batches. */
export class CheckRun {
  constructor(
    private readonly client: GitHubClient,
    private readonly target: CheckRunTarget,
    /** Set by `start`, or given when another process (the post step) completes a run this one did not open. */
    public id?: number,
  ) {}

  /** The app that created our run (GitHub Actions on a runner): sibling runs of other apps are not ours. */
  private appId: number | undefined;

  async start(now = new Date()): Promise<void> {
    const { data } = await this.client.rest.checks.create({
      owner: this.target.owner,
      repo: this.target.repo,
      name: this.target.name,
      head_sha: this.target.headSha,
      status: "in_progress",
      started_at: now.toISOString(),
      ...(this.target.detailsUrl ? { details_url: this.target.detailsUrl } : {}),
      output: {
        title: "skillgate is evaluating the changed skills",
        summary: "Running the skill batteries and gates…",
      },
    });
    this.id = data.id;
    this.appId = data.app?.id;
  }

  /** Completes an open run with a conclusion decided without a report (cancelled, timed out …); no annotations. */
  async conclude(
    output: { conclusion: "cancelled" | "timed_out" | "failure"; title: string; summary: string },
    now = new Date(),
  ): Promise<void> {
    if (this.id === undefined) throw new Error("no check run to conclude");
    await this.client.rest.checks.update({
      owner: this.target.owner,
      repo: this.target.repo,
      check_run_id: this.id,
      status: "completed",
      conclusion: output.conclusion,
      completed_at: now.toISOString(),
      output: { title: output.title, summary: output.summary },
    });
  }

  /** Other check runs of this name on this commit, by the app that makes ours (when known). */
  async siblings(): Promise<SiblingRun[]> {
    const runs = await this.client.paginate(this.client.rest.checks.listForRef, {
      owner: this.target.owner,
      repo: this.target.repo,
      ref: this.target.headSha,
      check_name: this.target.name,
      filter: "all",
      per_page: 100,
    });
    return runs
      .filter((r) => r.id !== this.id && (this.appId === undefined || r.app?.id === this.appId))
      .map((r) => ({
        id: r.id,
        status: r.status,
        conclusion: r.conclusion,
        externalId: r.external_id,
        htmlUrl: r.html_url,
        title: r.output.title,
        summary: r.output.summary,
      }));
  }

  /**
   * Completes the run (creating it first if `start` was skipped). Returns the number of requests made.
   * An unrequested run keeps the conclusion an evaluation already posted on this commit; an evaluation that
   * finishes after a newer run of its name was created posts itself again, so it is the newest: the verdict of a
   * commit is never replaced by a run that evaluated nothing, whichever finishes first.
   */
  async complete(given: CheckRunCompletion, now = new Date()): Promise<number> {
    let requests = 0;
    const completion =
      given.externalId === UNREQUESTED_EXTERNAL_ID
        ? keepEvaluatedConclusion(given, await this.siblings().finally(() => requests++))
        : given;
    requests += await this.post(completion, now);
    if (completion === given && given.externalId === EVALUATED_EXTERNAL_ID) {
      const mine = this.id!;
      const newer = (await this.siblings().finally(() => requests++)).filter((r) => r.id > mine);
      if (newer.length > 0) {
        this.id = undefined;
        requests += await this.post(given, now);
      }
    }
    return requests;
  }

  private async post(completion: CheckRunCompletion, now: Date): Promise<number> {
    const [first, ...rest] = completion.outputs;
    let requests = 0;
    if (this.id === undefined) {
      const { data } = await this.client.rest.checks.create({
        owner: this.target.owner,
        repo: this.target.repo,
        name: this.target.name,
        head_sha: this.target.headSha,
        status: "completed",
        conclusion: completion.conclusion,
        external_id: completion.externalId,
        completed_at: now.toISOString(),
        ...(this.target.detailsUrl ? { details_url: this.target.detailsUrl } : {}),
        output: first!,
      });
      this.id = data.id;
      this.appId ??= data.app?.id;
    } else {
      await this.client.rest.checks.update({
        owner: this.target.owner,
        repo: this.target.repo,
        check_run_id: this.id,
        status: "completed",
        conclusion: completion.conclusion,
        external_id: completion.externalId,
        completed_at: now.toISOString(),
        output: first!,
      });
    }
    requests++;
    // Updates append annotations; title and summary are repeated because `output` requires them.
    for (const output of rest) {
      await this.client.rest.checks.update({
        owner: this.target.owner,
        repo: this.target.repo,
        check_run_id: this.id,
        output,
      });
      requests++;
    }
    return requests;
  }
}
