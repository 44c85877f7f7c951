/**
 * Runs an agent process from this process: own process group (so a timeout kills the whole tree), bounded capture
 * of its output, stdin fed and closed, SIGKILL on timeout, abort or stop.
 */
import { spawn } from "node:child_process";
import { StringDecoder } from "node:string_decoder";
import type { AgentProcessOptions, AgentProcessResult } from "./process.js";

const DEFAULT_MAX_STDERR_BYTES = 64 * 1024;
/** Node's timers take at most 2^31 - 1 ms (~24.8 days); a longer delay, or Infinity, would fire at once. */
const MAX_TIMEOUT_MS = 2 ** 31 - 1;

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

interface RunHooks {
  /**
   * Each stdout chunk as text, as it arrives (multi-byte characters are never split between chunks): a caller
   * watching the stream for the moment it can stop the agent.
   */
  onStdout?: (text: string) => void;
  /**
   * Ends the agent on purpose, the way a timeout does (SIGKILL to its group); the result says `stopped`, and no
   * timeout or abort is reported after it.
   */
  stop?: AbortSignal;
}

/** Runs one agent process; `hooks`: stdout as it arrives, and a signal that ends it on purpose (`stopped`). */
export function runProcess(
  file: string,
  args: string[],
  opts: Omit<AgentProcessOptions, "confine" | "watch">,
  hooks: RunHooks = {},
): Promise<AgentProcessResult> {
  const maxStderr = opts.maxStderrBytes ?? DEFAULT_MAX_STDERR_BYTES;
  return new Promise((resolvePromise) => {
    const out: Buffer[] = [];
    let outBytes = 0;
    let stdoutTruncated = false;
    let err = Buffer.alloc(0);
    let timedOut = false;
    let aborted = false;
    let stopped = false;
    let settled = false;
    const decoder = hooks.onStdout ? new StringDecoder("utf8") : undefined;

    const child = spawn(file, args, {
      cwd: opts.cwd,
      env: opts.env,
      detached: true,
      stdio: ["pipe", "pipe", "pipe"],
    });
    const finish = (r: { exitCode: number | null; signal: NodeJS.Signals | null; spawnError?: string }) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      opts.signal?.removeEventListener("abort", onAbort);
      hooks.stop?.removeEventListener("abort", onStop);
      // Leftover grandchildren of the group (a backgrounded server the agent started) die with it.
      killGroup(child.pid, false);
      resolvePromise({
        stdout: Buffer.concat(out).toString("utf8"),
        stderr: err.toString("utf8"),
        timedOut,
        aborted,
        stdoutTruncated,
        ...(stopped ? { stopped } : {}),
        ...r,
      });
    };
    const timer = setTimeout(
      () => {
        if (stopped) return;
        timedOut = true;
        killGroup(child.pid, true);
      },
      Math.min(opts.timeoutMs, MAX_TIMEOUT_MS),
    );
    const onAbort = () => {
      if (stopped) return;
      aborted = true;
      killGroup(child.pid, true);
    };
    if (opts.signal?.aborted) onAbort();
    else opts.signal?.addEventListener("abort", onAbort, { once: true });
    // Stopped on purpose (a trigger trial's routing decision is in): the same teardown as a timeout.
    const onStop = () => {
      if (settled || timedOut || aborted) return;
      stopped = true;
      killGroup(child.pid, true);
    };
    if (hooks.stop?.aborted) onStop();
    else hooks.stop?.addEventListener("abort", onStop, { once: true });

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
      if (decoder && !stopped) hooks.onStdout?.(decoder.write(chunk));
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
