/**
 * Runs an agent process (`run-process.ts`: own process group, bounded capture, SIGKILL on timeout or abort),
 * confined and observed when the run asks.
 */
import type { Observation } from "../model/index.js";
import { observeRun } from "../observe/observe.js";
import { type AgentConfinement, type ConfinedAgent, confineAgent } from "./confine.js";
import { runProcess } from "./run-process.js";

export interface AgentProcessOptions {
  cwd: string;
  env: Record<string, string>;
  stdin?: string;
  timeoutMs: number;
  signal?: AbortSignal;
  /** Bytes of stdout kept; the rest is drained and dropped (`stdoutTruncated`). */
  maxStdoutBytes: number;
  /** Bytes of stderr kept (the tail is what explains a crash). */
  maxStderrBytes?: number;
  /** Run it inside the machine's isolation, its workspace the only writable place (see confine.ts). */
  confine?: AgentConfinement;
  /**
   * Watches stdout as it arrives (text, chunk by chunk, split anywhere but never inside a character): returning
   * true ends the agent on purpose (its group killed, the same teardown as a timeout) and the result says
   * `stopped`. A trigger trial stops at its routing decision this way.
   */
  watch?: (text: string) => boolean;
}

export interface AgentProcessResult {
  stdout: string;
  stderr: string;
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  aborted: boolean;
  stdoutTruncated: boolean;
  /** Ended on purpose because `watch` said so (not a timeout, abort or crash). */
  stopped?: boolean;
  /** The executable could not be started (ENOENT, EACCES …). */
  spawnError?: string;
  /** Destinations the egress proxy refused the confined agent (host:port, or the bad request). */
  egressRefused?: string[];
  /** What the confined agent's processes were seen doing (src/observe/). */
  observed?: Observation;
}

/** `runProcess` here, with `watch` wired to its stdout and stop hooks. */
function runWatched(
  file: string,
  args: string[],
  opts: Omit<AgentProcessOptions, "confine">,
): Promise<AgentProcessResult> {
  const { watch, ...rest } = opts;
  if (!watch) return runProcess(file, args, rest);
  const stop = new AbortController();
  return runProcess(file, args, rest, {
    stop: stop.signal,
    onStdout: (text) => {
      if (!stop.signal.aborted && watch(text)) stop.abort();
    },
  });
}

export async function runAgentProcess(
  file: string,
  args: string[],
  opts: AgentProcessOptions,
): Promise<AgentProcessResult> {
  const { confine, ...plain } = opts;
  if (!confine) return runWatched(file, args, plain);
  let confined: ConfinedAgent;
  try {
    confined = await confineAgent(file, args, { cwd: opts.cwd, env: opts.env }, confine);
  } catch (e) {
    return {
      stdout: "",
      stderr: "",
      exitCode: null,
      signal: null,
      timedOut: false,
      aborted: false,
      stdoutTruncated: false,
      spawnError: `cannot confine the agent: ${(e as Error).message}`,
    };
  }
  try {
    const watched = await observeRun(confined.file, confined.args, {
      workspace: confine.workspace,
      ...(confine.writable ? { writable: confine.writable } : {}),
      agentCommands: confined.agentCommands,
    });
    const result = await runWatched(watched.file, watched.args, {
      ...plain,
      cwd: confined.cwd,
      env: confined.env,
    });
    const observed = watched.finish();
    const refused = confined.egress?.refused ?? [];
    const kills = confined.oomKills();
    const stderr =
      kills > 0
        ? `${result.stderr}\nskillgate: the trial's memory cap was reached: the kernel killed ${kills} of its processes\n`
        : result.stderr;
    return {
      ...result,
      stderr,
      ...(refused.length > 0 ? { egressRefused: [...refused] } : {}),
      observed,
    };
  } finally {
    await confined.done();
  }
}
