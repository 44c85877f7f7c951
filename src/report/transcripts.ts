/**
 * The trials a report keeps for the review page: per trial what the agent was asked, the skills it activated, its
 * tool calls, its final output, the files it wrote and the checks graded on it. Pure and bounded: every text is
 * capped (limits below), and tool calls, files and full check messages are kept for the most telling trials only,
 * within a byte budget per report; the rest keep a summary. Built from the run's own records (never from a file of
 * the checkout) and redacted with the rest of the report.
 */
import type {
  ArmName,
  CheckResult,
  Root,
  ToolCall,
  TranscriptCheck,
  TrialRecord,
  TrialRequest,
  TrialTranscript,
} from "../model/index.js";
import { transcriptId } from "../model/index.js";

/** Longest prompt kept per trial. */
const MAX_PROMPT_CHARS = 4_000;
/** Longest final output kept per detailed trial (a summary keeps `SUMMARY_OUTPUT_CHARS`). */
export const MAX_OUTPUT_CHARS = 8_000;
export const SUMMARY_OUTPUT_CHARS = 300;
/** Tool calls kept per detailed trial, and the longest input (as JSON) and output of each. */
export const MAX_TOOL_CALLS = 40;
const MAX_TOOL_INPUT_CHARS = 1_000;
const MAX_TOOL_OUTPUT_CHARS = 2_000;
/** Files kept per detailed trial, and the longest content of each. */
const MAX_FILES = 12;
const MAX_FILE_CHARS = 6_000;
/** Observed actions kept per trial. */
const MAX_OBSERVED = 40;
/** Longest check message per detailed trial (a summary keeps `SUMMARY_CHECK_CHARS`). */
const MAX_CHECK_CHARS = 2_000;
const SUMMARY_CHECK_CHARS = 200;
/** Characters of detailed transcripts per report: beyond it trials keep their summary (most telling first). */
export const MAX_DETAIL_CHARS_PER_REPORT = 12 * 1024 * 1024;

/** One trial as the run produced it: the request (prompt, ids), the shared record, the checks graded on it. */
export interface RanTrial {
  arm: ArmName;
  request: TrialRequest;
  record: TrialRecord | undefined;
  checks: CheckResult[];
}

/** The transcript a check was graded on. A trigger check's case is `trigger`; its trial's case is the query id. */
export function transcriptIdOfCheck(
  arm: ArmName,
  c: { mode: string; caseId: string; checkId: string; trial: number },
): string {
  return transcriptId(arm, c.mode, c.mode === "trigger" ? c.checkId : c.caseId, c.trial);
}

/** `text` cut to `max` characters, noting the cut in `cut` under `what`. */
function capped(text: string, max: number, what: string, cut: string[]): string {
  if (text.length <= max) return text;
  cut.push(
    `${what}: ${max.toLocaleString("en-US")} of ${text.length.toLocaleString("en-US")} characters kept`,
  );
  return `${text.slice(0, max - 1)}…`;
}

function jsonText(value: unknown): string {
  if (typeof value === "string") return value;
  try {
    return JSON.stringify(value) ?? "";
  } catch {
    return String(value);
  }
}

/** Single-quoted for a POSIX shell. */
function shellQuote(s: string): string {
  return /^[\w./:@=-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/** The `skillgate gate …` command that replays a gate check on the module the trial wrote. */
function gateReplay(c: CheckResult): string | undefined {
  const d = c.details as
    | { gate?: { gate?: unknown; seed?: unknown }; module?: unknown; export?: unknown; options?: unknown }
    | undefined;
  if (!d?.gate || typeof d.gate.gate !== "string" || typeof d.module !== "string") return undefined;
  const words = ["skillgate", "gate", d.gate.gate, d.module];
  if (typeof d.export === "string") words.push("--export", d.export);
  if (d.options !== undefined) words.push("--options", jsonText(d.options));
  if (typeof d.gate.seed === "number") words.push("--seed", String(d.gate.seed));
  return words.map(shellQuote).join(" ");
}

function transcriptChecks(checks: CheckResult[], max: number, cut: string[]): TranscriptCheck[] {
  return checks.map((c) => {
    const replay = gateReplay(c);
    return {
      checkId: c.checkId,
      status: c.status,
      message: capped(c.message, max, `check ${c.checkId}`, cut),
      ...(replay ? { replay } : {}),
    };
  });
}

function toolCall(t: ToolCall, cut: string[], n: number): TrialTranscript["toolCalls"][number] {
  return {
    name: t.name,
    input: capped(jsonText(t.input), MAX_TOOL_INPUT_CHARS, `tool call ${n + 1} input`, cut),
    ...(t.output !== undefined
      ? { output: capped(t.output, MAX_TOOL_OUTPUT_CHARS, `tool call ${n + 1} output`, cut) }
      : {}),
    ...(t.isError ? { isError: true } : {}),
    turn: t.turn,
  };
}

/** The whole transcript of one trial, within the per-trial limits. */
function detailedTranscript(t: RanTrial): TrialTranscript {
  const cut: string[] = [];
  const r = t.record;
  const calls = r?.toolCalls ?? [];
  if (calls.length > MAX_TOOL_CALLS) cut.push(`tool calls: ${MAX_TOOL_CALLS} of ${calls.length} kept`);
  const files = Object.entries(r?.files ?? {}).sort(([a], [b]) => a.localeCompare(b));
  if (files.length > MAX_FILES) cut.push(`files: ${MAX_FILES} of ${files.length} kept`);
  return {
    ...common(t, cut, MAX_OUTPUT_CHARS),
    toolCalls: calls.slice(0, MAX_TOOL_CALLS).map((c, i) => toolCall(c, cut, i)),
    files: files
      .slice(0, MAX_FILES)
      .map(([path, content]) => ({ path, content: capped(content, MAX_FILE_CHARS, `file ${path}`, cut) })),
    checks: transcriptChecks(t.checks, MAX_CHECK_CHARS, cut),
    detail: true,
    ...(cut.length ? { cut } : {}),
  };
}

/** The summary of one trial: ids, prompt, skills, tool names, the start of the output, short check messages. */
function summaryTranscript(t: RanTrial): TrialTranscript {
  const cut: string[] = [];
  const out: TrialTranscript = {
    ...common(t, cut, SUMMARY_OUTPUT_CHARS),
    toolCalls: (t.record?.toolCalls ?? [])
      .slice(0, MAX_TOOL_CALLS)
      .map((c) => ({ name: c.name, input: "", turn: c.turn })),
    files: Object.keys(t.record?.files ?? {})
      .sort()
      .slice(0, MAX_FILES)
      .map((path) => ({ path, content: "" })),
    checks: transcriptChecks(t.checks, SUMMARY_CHECK_CHARS, []),
    detail: false,
  };
  return out;
}

function common(t: RanTrial, cut: string[], maxOutput: number) {
  const { request: q, record: r } = t;
  return {
    id: transcriptId(t.arm, q.mode, q.caseId, q.trial),
    arm: t.arm,
    mode: q.mode,
    caseId: q.caseId,
    trial: q.trial,
    prompt: capped(q.prompt, MAX_PROMPT_CHARS, "prompt", cut),
    skillsActivated: r?.skillsActivated ?? [],
    ...(r?.skillsRegistered ? { skillsRegistered: r.skillsRegistered } : {}),
    output: r ? capped(r.output, maxOutput, "output", cut) : "",
    durationMs: r?.durationMs ?? 0,
    costUsd: r?.usage.costUsd ?? 0,
    ...(r?.cached ? { cached: true } : {}),
    ...(r?.error ? { error: { kind: r.error.kind, message: r.error.message } } : {}),
    ...(r?.notes?.length ? { notes: r.notes } : {}),
    ...(r?.observed?.actions.length ? { observed: r.observed.actions.slice(0, MAX_OBSERVED) } : {}),
    ...(r?.observed?.by === "none" ? { unobserved: r.observed.reason ?? "not observed" } : {}),
    ...(r ? {} : { error: { kind: "crash" as const, message: "no record of this trial" } }),
  };
}

/**
 * How telling a trial is, lowest first: a head trial a blocking root failed on, the base and baseline trials beside
 * it, then any failed trial, then the rest. Detail goes to the lowest ranks first.
 */
function rank(t: RanTrial, rootChecks: Set<string>): number {
  const failed = t.checks.filter((c) => c.status === "fail" || c.status === "error");
  const onRoot = (cs: CheckResult[]) => cs.some((c) => rootChecks.has(`${c.skill}|${c.checkId}`));
  if (t.arm === "head" && onRoot(failed)) return 0;
  if (onRoot(t.checks) && (t.arm === "base" || t.request.mode === "baseline")) return 1;
  if (failed.length) return 2;
  return 3;
}

/**
 * Transcripts of every trial of `trials` (request order), the most telling in detail while `budget` characters
 * last (it is shared by every skill of the report: pass the same object to each call).
 */
export function buildTranscripts(
  trials: RanTrial[],
  roots: Root[],
  budget: { chars: number } = { chars: MAX_DETAIL_CHARS_PER_REPORT },
): TrialTranscript[] {
  const rootChecks = new Set(roots.map((r) => `${r.skill}|${r.id}`));
  const order = trials
    .map((t, i) => ({ t, i, rank: rank(t, rootChecks) }))
    .sort((a, b) => a.rank - b.rank || a.i - b.i);
  const out = new Array<TrialTranscript>(trials.length);
  for (const { t, i } of order) {
    const full = detailedTranscript(t);
    const size = JSON.stringify(full).length;
    if (size <= budget.chars) {
      budget.chars -= size;
      out[i] = full;
    } else out[i] = summaryTranscript(t);
  }
  return out;
}

/** The checks graded on each trial, by transcript id (checks carry the request's mode, case and trial). */
export function checksByTrial(arm: ArmName, checks: CheckResult[]): Map<string, CheckResult[]> {
  const out = new Map<string, CheckResult[]>();
  for (const c of checks) {
    const id = transcriptIdOfCheck(arm, c);
    const list = out.get(id);
    if (list) list.push(c);
    else out.set(id, [c]);
  }
  return out;
}
