/**
 * Contract of the eight deterministic gates. Each gate is two halves that never share a process:
 * - a collector (`gates/<id>/probe.ts`), run in the sandbox child next to the untrusted module: it runs the
 *   probes the parent asks for and returns what happened as plain data (outputs, thrown errors, counters,
 *   timings), never a verdict;
 * - a judge (`gates/<id>/index.ts`), run in skillgate's own process: it plans the probes, validates every
 *   observation against the gate's schema and makes every pass/fail decision.
 */
import type { ChildCollector } from "../src/sandbox/types.js";
import type { GateId } from "./ids.js";

export type { GateInput, ProbeRunner } from "../src/sandbox/types.js";

export interface GateCheck {
  id: string;
  passed: boolean;
  message: string;
}

/** What `skillgate gate … --json` prints and `runGate` returns. */
export interface GateResult {
  gate: string;
  passed: boolean;
  seed: number;
  checks: GateCheck[];
  metrics: Record<string, unknown>;
}

export interface GateOutput {
  checks: GateCheck[];
  metrics?: Record<string, unknown>;
}

/** Child side: the collector's contract is the sandbox's (it serves any collector); here its id is a gate's. */
export interface GateCollector extends ChildCollector {
  id: GateId;
}

/** Parent side: asks the child to run probes; resolves with one schema-valid observation per probe. */
export interface ProbeSession {
  /** Throws `ObservationError` when the child's answer is missing or malformed. */
  observe(probes: readonly unknown[]): Promise<unknown[]>;
}

export interface JudgeContext {
  seed: number;
  options: Record<string, unknown>;
  /** Absolute path of the module as given. */
  modulePath: string;
  /** Source text of the module as given (static checks, CSS). */
  sourceText: string;
  /** What messages call the probed function: the user's export (`splitCents`), else the contract's name. */
  callee: string;
  /** The run's limits as the caller set them (a judge that starts confined work of its own honours them). */
  limits?: { timeoutMs?: number; memoryMb?: number };
}

export interface GateJudge {
  id: GateId;
  /** JSON Schema of one observation (`{tagged: true}`, `TAGGED`: a value the module returned). */
  observationSchema: Record<string, unknown>;
  /**
   * Plans the probes, asks the session and decides. For file inputs no Node child runs: `session` refuses (the
   * contrast judge has its page observed by a confined Chromium instead, gates/contrast/chromium.ts).
   */
  judge(session: ProbeSession, ctx: JudgeContext): Promise<GateOutput>;
}
