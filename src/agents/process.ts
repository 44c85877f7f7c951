/**
 * Runs an agent process: own process group (so a timeout kills the whole tree), bounded capture of its output,
 * stdin fed and closed, SIGKILL on timeout or abort.
 */
import { spawn } from "node:child_process";

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
}

export interface AgentProcessResult {
  stdout: string;
  stderr: string;
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  aborted: boolean;
  stdoutTruncated: boolean;
  /** The executable could not be started (ENOENT, EACCES …). */
  spawnError?: string;
}

const DEFAULT_MAX_STDERR_BYTES = 64 * 1024;

/**
 * SIGKILL to the agent's process group; with `orLeader`, to the agent itself when the group is out of reach (it
 * may have left it). After a normal exit the group is usually empty (ESRCH): that is the common case, so the
 * thrown errors are built without stack traces, and the bare pid (reaped, perhaps reused) is never signalled.
 */
function killGroup(pid: number | undefined, orLeader: boolean): void {
  if (pid === undefined) return;
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    process.kill(-pid, "SIGKILL");
  } catch {
    if (orLeader) {
      try {
        process.kill(pid, "SIGKILL");
      } catch {
        // already gone
      }
    }
  } finally {
    Error.stackTraceLimit = limit;
  }
}

export function runAgentProcess(
  file: string,
  args: string[],
  opts: AgentProcessOptions,
): Promise<AgentProcessResult> {
  const maxStderr = opts.maxStderrBytes ?? DEFAULT_MAX_STDERR_BYTES;
  return new Promise((resolvePromise) => {
    const out: Buffer[] = [];
    let outBytes = 0;
    let stdoutTruncated = false;
    let err = Buffer.alloc(0);
    let timedOut = false;
    let aborted = false;
    let settled = false;

    const child = spawn(file, args, {
      cwd: opts.cwd,
      env: opts.env,
      detached: true,
      stdio: ["pipe", "pipe", "pipe"],
    });
    const finish = (
      r: Omit<AgentProcessResult, "stdout" | "stderr" | "timedOut" | "aborted" | "stdoutTruncated">,
    ) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      opts.signal?.removeEventListener("abort", onAbort);
      // Leftover grandchildren of the group (a backgrounded server the agent started) die with it.
      killGroup(child.pid, false);
      resolvePromise({
        stdout: Buffer.concat(out).toString("utf8"),
        stderr: err.toString("utf8"),
        timedOut,
        aborted,
        stdoutTruncated,
        ...r,
      });
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child.pid, true);
    }, opts.timeoutMs);
    const onAbort = () => {
      aborted = true;
      killGroup(child.pid, true);
    };
    if (opts.signal?.aborted) onAbort();
    else opts.signal?.addEventListener("abort", onAbort, { once: true });

    child.stdout.on("data", (chunk: Buffer) => {
      if (outBytes >= opts.maxStdoutBytes) {
        stdoutTruncated = true;
        return;
      }
      const room = opts.maxStdoutBytes - outBytes;
      if (chunk.length > room) {
        stdoutTruncated = true;
        chunk = chunk.subarray(0, room);
      }
      out.push(chunk);
      outBytes += chunk.length;
    });
    child.stderr.on("data", (chunk: Buffer) => {
      err = Buffer.concat([err, chunk]);
      if (err.length > maxStderr) err = err.subarray(err.length - maxStderr);
    });
    child.stdin.on("error", () => {
      // The agent may exit without reading its stdin (EPIPE): not our failure.
    });
    child.on("error", (e) => finish({ exitCode: null, signal: null, spawnError: e.message }));
    child.on("close", (code, sig) => finish({ exitCode: code, signal: sig }));
    child.stdin.end(opts.stdin ?? "");
  });
}
