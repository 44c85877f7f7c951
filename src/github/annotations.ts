/** Pure: a report's roots and diagnostics as check-run annotations, most important first, within GitHub's caps. */
import type { Diagnostic } from "../model/diagnostics.js";
import type { Report, Root } from "../model/report.js";
import { breakLinks } from "../report/markdown-text.js";
import { MAX_ANNOTATION_MESSAGE_CHARS, MAX_ANNOTATION_TITLE_CHARS, MAX_CHECK_ANNOTATIONS } from "./limits.js";

/** A check run annotation, exactly as the API takes it. */
export interface CheckAnnotation {
  path: string;
  start_line: number;
  end_line: number;
  annotation_level: "failure" | "warning" | "notice";
  title: string;
  message: string;
  raw_details?: string;
}

/** Within `max`, and with the links and mentions of untrusted text broken (annotations are shown on GitHub). */
function clip(text: string, max: number): string {
  const s = breakLinks(text);
  return s.length <= max ? s : `${s.slice(0, max - 1)}…`;
}

/** Trial counts and the cascade: raw details, since root messages already say expected vs seen. */
function rootDetails(r: Root): string | undefined {
  const lines = [
    r.head ? `head: failed ${r.head.failed} of ${r.head.trials} trials` : "",
    r.base ? `base: failed ${r.base.failed} of ${r.base.trials} trials` : "",
    r.pValue !== undefined ? `p = ${r.pValue.toPrecision(2)}` : "",
    r.cascaded.length
      ? `${r.cascaded.length} dependent check(s) failed because of this: ${r.cascaded.slice(0, 20).join(", ")}`
      : "",
  ].filter(Boolean);
  return lines.length ? clip(lines.join("\n"), MAX_ANNOTATION_MESSAGE_CHARS) : undefined;
}

function fromRoot(
  r: Root,
  level: CheckAnnotation["annotation_level"],
  skillPath: Map<string, string>,
): CheckAnnotation {
  const details = rootDetails(r);
  return {
    // A root without a file (an infrastructure error) is pinned to its SKILL.md: GitHub needs a path.
    path: r.file || skillPath.get(r.skill) || ".",
    start_line: Math.max(1, r.line),
    end_line: Math.max(1, r.line),
    annotation_level: level,
    title: clip(
      `skillgate · ${r.skill}${r.cell ? ` (cell ${r.cell})` : ""}${r.status === "new" ? "" : ` (${r.status})`}: ${r.title}`,
      MAX_ANNOTATION_TITLE_CHARS,
    ),
    message: clip(r.message, MAX_ANNOTATION_MESSAGE_CHARS),
    ...(details ? { raw_details: details } : {}),
  };
}

function fromDiagnostic(d: Diagnostic): CheckAnnotation {
  return {
    path: d.file,
    start_line: Math.max(1, d.line),
    end_line: Math.max(1, d.line),
    annotation_level: d.severity === "error" ? "failure" : "warning",
    title: clip(`skillgate ${d.code}`, MAX_ANNOTATION_TITLE_CHARS),
    message: clip(d.message, MAX_ANNOTATION_MESSAGE_CHARS),
  };
}

/**
 * All annotations of a report, most important first: blocking roots (failure; new ones first), error
 * diagnostics (failure), then pre-existing / non-blocking roots and warnings (warning). At most `max`; the
 * number left out is returned so the summary can say so.
 */
export function buildAnnotations(
  report: Report,
  max = MAX_CHECK_ANNOTATIONS,
): { annotations: CheckAnnotation[]; omitted: number } {
  const allRoots = report.skills.flatMap((s) => s.roots);
  const skillPath = new Map(report.skills.map((s) => [s.name, s.path]));
  const isNew = (r: Root) => r.blocking && r.status === "new";
  const seen = new Set<string>();
  const firstSeen = (r: Root) => {
    // One per root of each cell: a matrix's cells each annotate the line they failed on.
    const k = `${r.cell ?? ""}\0${r.skill}\0${r.id}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  };
  const tiers: CheckAnnotation[][] = [
    // report.blockingRoots is already ordered most important first; the new ones lead.
    [...report.blockingRoots.filter(isNew), ...allRoots.filter(isNew)]
      .filter(firstSeen)
      .map((r) => fromRoot(r, "failure", skillPath)),
    [
      ...[...report.blockingRoots, ...allRoots]
        .filter((r) => r.blocking && !isNew(r))
        .filter(firstSeen)
        .map((r) => fromRoot(r, "failure", skillPath)),
      ...report.diagnostics.filter((d) => d.severity === "error").map(fromDiagnostic),
    ],
    [
      ...allRoots.filter(firstSeen).map((r) => fromRoot(r, "warning", skillPath)),
      ...report.diagnostics.filter((d) => d.severity !== "error").map(fromDiagnostic),
    ],
  ];
  const all = tiers.flat();
  return { annotations: all.slice(0, max), omitted: Math.max(0, all.length - max) };
}

/** Splits into request-sized batches. */
export function batches<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
