/** Small builders shared by adapters: empty results, error results, HTTP status → error kind. */
import {
  type AgentResult,
  type Observation,
  type TrialError,
  type TrialErrorKind,
  ZERO_USAGE,
} from "../model/index.js";

/** The output kept in a record; longer outputs are cut with a note (graders never see megabytes). */
export const MAX_OUTPUT_CHARS = 1024 * 1024;

export function emptyResult(): AgentResult {
  return { output: "", toolCalls: [], skillsActivated: [], files: {}, usage: { ...ZERO_USAGE } };
}

export function errorResult(
  kind: TrialErrorKind,
  message: string,
  transient = false,
  base?: AgentResult,
): AgentResult {
  const error: TrialError = { kind, message, ...(transient ? { transient: true } : {}) };
  return { ...(base ?? emptyResult()), error };
}

export function capOutput(output: string, notes: string[]): string {
  if (output.length <= MAX_OUTPUT_CHARS) return output;
  notes.push(`output capped at ${MAX_OUTPUT_CHARS} characters (was ${output.length})`);
  return output.slice(0, MAX_OUTPUT_CHARS);
}

/** Model API statuses: 429 and 529 (overloaded) are rate limits, other 5xx server faults; both are retried. */
export function errorForStatus(status: number, detail: string): TrialError {
  if (status === 429 || status === 529) {
    return { kind: "rate-limit", message: `model API answered ${status}: ${detail}`, transient: true };
  }
  if (status >= 500)
    return { kind: "crash", message: `model API answered ${status}: ${detail}`, transient: true };
  return { kind: "protocol", message: `model API answered ${status}: ${detail}` };
}

export function tail(text: string, chars = 2000): string {
  const t = text.trim();
  return t.length <= chars ? t : `…${t.slice(t.length - chars)}`;
}

/** The result with what the agent's processes were seen doing (every result of a process, errors included). */
export function withObservation(p: { observed?: Observation }, result: AgentResult): AgentResult {
  return p.observed ? { ...result, observed: p.observed } : result;
}
