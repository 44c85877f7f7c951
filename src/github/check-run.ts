import type { Report, Verdict } from "../model/report.js";
import { headline, renderMarkdown } from "../report/markdown.js";
import { batches, buildAnnotations, type CheckAnnotation } from "./annotations.js";
import type { GitHubClient } from "./client.js";
import { MAX_ANNOTATIONS_PER_REQUEST, MAX_CHECK_OUTPUT_CHARS } from "./limits.js";

/** Conclusion per verdict: errors fail closed. */
export const CONCLUSION: Record<Verdict, "success" | "failure"> = {
  pass: "success",
  fail: "failure",
  error: "failure",
};

export interface CheckOutput {
  title: string;
  summary: string;
  annotations?: CheckAnnotation[];
}

/** The update requests that complete a check run: the first sets the conclusion; each carries ≤ 50 annotations. */
export interface CheckRunCompletion {
  /** `neutral` / `action_required` only for an on-demand PR nobody asked to evaluate (nothing ran). */
  conclusion: "success" | "failure" | "neutral" | "action_required";
  outputs: CheckOutput[];
  annotationCount: number;
  omitted: number;
}

/** Pure: Report → the sequence of check run updates. */
export function buildCheckRunCompletion(
  report: Report,
  o: { checkName: string; fullReportHint: string },
): CheckRunCompletion {
  const { annotations, omitted } = buildAnnotations(report);
  const title = headline(report);
  let summary = renderMarkdown(report, {
    maxChars: MAX_CHECK_OUTPUT_CHARS,
    fullReportHint: o.fullReportHint,
    title: o.checkName,
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
  return { conclusion, outputs, annotationCount: annotations.length, omitted };
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

  /** Completes the run (creating it first if `start` was skipped). Returns the number of requests made. */
  async complete(completion: CheckRunCompletion, now = new Date()): Promise<number> {
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
        completed_at: now.toISOString(),
        ...(this.target.detailsUrl ? { details_url: this.target.detailsUrl } : {}),
        output: first!,
      });
      this.id = data.id;
    } else {
      await this.client.rest.checks.update({
        owner: this.target.owner,
        repo: this.target.repo,
        check_run_id: this.id,
        status: "completed",
        conclusion: completion.conclusion,
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
