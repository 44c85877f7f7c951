/** The trials' transcripts a skill's report keeps (bounded): checks, tool calls, outputs. */
import type { CheckResult } from "./check.js";
import type { ObservedAction } from "./observe.js";
import type { ArmName } from "./report.js";
import type { TrialErrorKind, TrialMode } from "./trial.js";

/** One check on one trial as a report keeps it (a `CheckResult` without its bulky fields): evidence. */
export type EvidenceCheck = Pick<
  CheckResult,
  | "checkId"
  | "skill"
  | "caseId"
  | "assertionId"
  | "mode"
  | "trial"
  | "status"
  | "discriminator"
  | "message"
  | "dependsOn"
  | "loc"
>;

/** One check of one kept trial, with its message as long as the transcript limits allow. */
export interface TranscriptCheck {
  checkId: string;
  status: EvidenceCheck["status"];
  message: string;
  /** For a gate: the command that replays it on the module this trial wrote (same seed, same verdict). */
  replay?: string;
}

/** One tool call of a kept trial; input and output as text, each capped. */
export interface TranscriptToolCall {
  name: string;
  /** The arguments, as JSON. */
  input: string;
  output?: string;
  isError?: boolean;
  turn: number;
}

/**
 * One trial as the review report shows it: what the agent was asked, what it did and what it left. Bounded (the
 * limits are named in src/pipeline/transcripts.ts) and redacted like every other string of the report. Trials past
 * the report's detail budget keep the summary only (`detail: false`): no tool inputs or outputs, no files.
 */
export interface TrialTranscript {
  /** `<arm>/<mode>/<caseId>/<trial>`: the evidence checks of that arm, mode, case and trial are this trial's. */
  id: string;
  arm: ArmName;
  mode: TrialMode;
  caseId: string;
  trial: number;
  prompt: string;
  skillsActivated: string[];
  skillsRegistered?: string[];
  toolCalls: TranscriptToolCall[];
  output: string;
  /** Text files the agent wrote, workspace-relative. */
  files: { path: string; content: string }[];
  checks: TranscriptCheck[];
  durationMs: number;
  costUsd: number;
  cached?: boolean;
  error?: { kind: TrialErrorKind; message: string };
  notes?: string[];
  /** What the trial's processes were seen doing (risky actions only; capped). */
  observed?: ObservedAction[];
  /** How the trial was watched, when it was not (`strace` missing, switched off): why. */
  unobserved?: string;
  /** False when only the summary was kept (the report's detail budget went to more telling trials). */
  detail: boolean;
  /** What the limits cut, e.g. "output: 12,000 of 40,000 characters kept". */
  cut?: string[];
}
