/** Where findings go: one `Reporter` interface and the fallback chain check run → workflow commands → log. */
import type { Report } from "../model/report.js";
import { buildAnnotations } from "./annotations.js";
import { buildCheckRunCompletion, type CheckRun } from "./check-run.js";
import { httpStatus } from "./client.js";
import type { ActionIO } from "./io.js";
import { planCommandAnnotations } from "./workflow-commands.js";

/**
 * Where a report's findings go, one interface, tried in order: check run → workflow-command annotations → log.
 * A reporter either publishes (returning the findings it had no room for, handed to the next one) or throws,
 * in which case the next reporter gets everything. Builders are pure; the I/O is in `publish`.
 */
export interface Reporter {
  readonly name: "check-run" | "workflow-commands" | "log";
  /** Called before the evaluation (the check run shows `in_progress`); throwing drops this reporter. */
  start?(): Promise<void>;
  publish(report: Report, findings: Finding[]): Promise<Finding[]>;
}

/** One finding: an annotation in the check run's shape. */
export type Finding = ReturnType<typeof buildAnnotations>["annotations"][number];

function why(e: unknown, when: string): string {
  const status = httpStatus(e);
  return status === 403
    ? `the token cannot write check runs (403 while ${when}); this is expected for fork and Dependabot pull requests`
    : `check run unavailable (${status ?? "network error"} while ${when}: ${(e as Error).message})`;
}

export function checkRunReporter(
  check: CheckRun,
  o: {
    checkName: string;
    fullReportHint: string;
    io: ActionIO;
    now: () => Date;
    /** Filled in once the review report is uploaded, before the findings are published. */
    links?: { reviewReport?: string };
  },
): Reporter {
  return {
    name: "check-run",
    async start() {
      try {
        await check.start(o.now());
      } catch (e) {
        throw new Error(why(e, "creating the in-progress check run"));
      }
    },
    async publish(report) {
      const completion = buildCheckRunCompletion(report, {
        checkName: o.checkName,
        fullReportHint: o.fullReportHint,
        ...(o.links?.reviewReport ? { reviewReportUrl: o.links.reviewReport } : {}),
      });
      try {
        const requests = await check.complete(completion, o.now());
        o.io.info(
          `check run ${o.checkName} completed: ${completion.conclusion}, ${completion.annotationCount} annotation(s) in ${requests} request(s)`,
        );
      } catch (e) {
        throw new Error(why(e, "completing the check run"));
      }
      // Annotations beyond the per-run cap are counted in the summary, not repeated elsewhere.
      return [];
    },
  };
}

/** `::error file=…,line=…::` lines, within GitHub's display caps, most important first. */
export function workflowCommandReporter(io: ActionIO): Reporter {
  return {
    name: "workflow-commands",
    async publish(report, findings) {
      const { shown, rest } = planCommandAnnotations(findings);
      for (const a of shown) io.annotate(a);
      if (report.verdict === "error" && findings.length === 0)
        io.annotate({
          level: "error",
          message: report.errors.join("\n") || "skillgate error",
          file: "",
          line: 0,
          title: "skillgate",
        });
      return rest;
    },
  };
}

/** The last resort: plain log lines, never capped. */
export function logReporter(io: ActionIO): Reporter {
  return {
    name: "log",
    async publish(_report, findings) {
      for (const a of findings)
        io.info(`${a.annotation_level}: ${a.path}:${a.start_line}: ${a.title}: ${a.message.split("\n")[0]}`);
      if (findings.length)
        io.info(
          `${findings.length} finding(s) above as log lines (GitHub shows at most 10 annotations per level and step); all are in the job summary`,
        );
      return [];
    },
  };
}

/** Starts every reporter that has a start; those that fail are dropped (with the reason logged). */
export async function startReporters(chain: Reporter[], io: ActionIO): Promise<Reporter[]> {
  const kept: Reporter[] = [];
  for (const r of chain) {
    try {
      await r.start?.();
      kept.push(r);
    } catch (e) {
      io.info(
        `warning: ${(e as Error).message}; falling back to ${chain[chain.indexOf(r) + 1]?.name ?? "nothing"}`,
      );
    }
  }
  return kept;
}

/** Runs the chain; returns the reporters that published something. */
export async function publishFindings(
  chain: Reporter[],
  report: Report,
  io: ActionIO,
): Promise<Reporter["name"][]> {
  let pending: Finding[] = buildAnnotations(report, Number.POSITIVE_INFINITY).annotations;
  const used: Reporter["name"][] = [];
  for (const [i, r] of chain.entries()) {
    try {
      pending = await r.publish(report, pending);
      used.push(r.name);
      if (pending.length === 0) break;
    } catch (e) {
      io.info(`warning: ${(e as Error).message}; falling back to ${chain[i + 1]?.name ?? "nothing"}`);
    }
  }
  return used;
}
