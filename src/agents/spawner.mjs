// @ts-check
/**
 * Runs agent processes: own process group (so a timeout kills the whole tree), bounded capture of their output,
 * stdin fed and closed, SIGKILL on timeout or abort.
 *
 * Plain JavaScript with no imports but Node's, because the same file serves two ways:
 * - imported (by `process.ts`, bundled into dist): `runProcess` runs the agent from this process;
 * - started as its own process (`node spawner.mjs --serve-agents`, with an IPC channel): the agent spawner. It runs
 *   `runProcess` on request and sends back the result.
 *
 * Why a spawner: on Linux, Node's `spawn` is fork() + exec(). After each fork, every page the parent writes
 * faults once (copy-on-write). With eight agents starting in turn that is all the time, so the runner's own
 * work for a trial (workspace, transcript, record) costs several times what it costs without forks (see
 * ARCHITECTURE "Processes and concurrency"). Forking from a small process that does nothing else keeps the
 * runner's pages out of it; the spawner's own forks cost what the runner's did.
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { StringDecoder } from "node:string_decoder";
import { pathToFileURL } from "node:url";

/** @typedef {import("./process.js").AgentProcessOptions} AgentProcessOptions */
/** @typedef {import("./process.js").AgentProcessResult} AgentProcessResult */
/** @typedef {import("./process.js").SpawnerRequest} SpawnerRequest */
/** @typedef {import("./process.js").SpawnerReply} SpawnerReply */

const DEFAULT_MAX_STDERR_BYTES = 64 * 1024;
/** Node's timers take at most 2^31 - 1 ms (~24.8 days); a longer delay, or Infinity, would fire at once. */
export const MAX_TIMEOUT_MS = 2 ** 31 - 1;

/**
 * SIGKILL to the agent's process group; with `orLeader`, to the agent itself when the group is out of reach (it
 * may have left it). After a normal exit the group is usually empty (ESRCH): that is the common case, so the
 * thrown errors are built without stack traces, and the bare pid (reaped, perhaps reused) is never signalled.
 * @param {number | undefined} pid
 * @param {boolean} orLeader
 */
export function killGroup(pid, orLeader) {
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

/**
 * @typedef {object} RunHooks
 * @property {(text: string) => void} [onStdout] each stdout chunk as text, as it arrives (multi-byte characters
 *   are never split between chunks): a caller watching the stream for the moment it can stop the agent
 * @property {AbortSignal} [stop] ends the agent on purpose, the way a timeout does (SIGKILL to its group); the
 *   result says `stopped`, and no timeout or abort is reported after it
 */

/**
 * Runs one agent process from this process.
 * @param {string} file
 * @param {string[]} args
 * @param {AgentProcessOptions} opts
 * @param {(pid: number) => void} [onStart] told the agent's pid (its group id) once it is running
 * @param {RunHooks} [hooks] stdout as it arrives, and a signal that ends the agent on purpose (`stopped`)
 * @returns {Promise<AgentProcessResult>}
 */
export function runProcess(file, args, opts, onStart, hooks = {}) {
  const maxStderr = opts.maxStderrBytes ?? DEFAULT_MAX_STDERR_BYTES;
  return new Promise((resolvePromise) => {
    /** @type {Buffer[]} */
    const out = [];
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
    if (child.pid !== undefined) onStart?.(child.pid);
    /** @param {{ exitCode: number | null, signal: NodeJS.Signals | null, spawnError?: string }} r */
    const finish = (r) => {
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

    child.stdout.on("data", (/** @type {Buffer} */ chunk) => {
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
    child.stderr.on("data", (/** @type {Buffer} */ chunk) => {
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

/** CPU time of this process and of the agents it reaped, from /proc (clock ticks of 10 ms), else Node's own. */
function usage() {
  const own = process.cpuUsage();
  const maxRssKiB = process.resourceUsage().maxRSS;
  try {
    const stat = readFileSync("/proc/self/stat", "utf8");
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return {
      cpuMs: (own.user + own.system) / 1000,
      childrenCpuMs: (Number(f[13]) + Number(f[14])) * 10,
      maxRssKiB,
    };
  } catch {
    return { cpuMs: (own.user + own.system) / 1000, childrenCpuMs: 0, maxRssKiB };
  }
}

/**
 * How often the spawner tells the runner the pids of agents it started (so the runner can kill their groups
 * if the spawner dies). Batched, not one message per agent: every message the spawner builds writes fresh pages,
 * and between forks each costs a fault (measured: a message per agent was ~13 more faults per trial). An agent
 * that ends within this time is never reported.
 */
export const PID_REPORT_MS = 200;

/**
 * The spawner's loop: requests in over the IPC channel, one reply per request. When the channel closes (the
 * runner exited or was killed), every agent still running is killed and the spawner exits.
 */
function serve() {
  // No inspector on SIGUSR1 in a process of skillgate's uid (Node 20 has no --disable-sigusr1).
  process.on("SIGUSR1", () => {});
  const send = process.send?.bind(process);
  if (!send) throw new Error("the agent spawner needs an IPC channel (start it with child_process.fork)");
  /** @type {Map<number, { abort: AbortController, stop: AbortController }>} */
  const running = new Map();
  /** Agents started since the last report: request id → pid. */
  const unreported = new Map();
  let reportDue = false;
  const report = () => {
    reportDue = false;
    if (unreported.size > 0) send(/** @type {SpawnerReply} */ ({ op: "pids", pids: [...unreported] }));
    unreported.clear();
  };
  process.on("message", (/** @type {SpawnerRequest} */ m) => {
    if (m.op === "kill") {
      running.get(m.id)?.abort.abort();
      return;
    }
    if (m.op === "stop") {
      running.get(m.id)?.stop.abort();
      return;
    }
    if (m.op === "usage") {
      send(/** @type {SpawnerReply} */ ({ op: "usage", id: m.id, usage: usage() }));
      return;
    }
    const abort = new AbortController();
    const stop = new AbortController();
    running.set(m.id, { abort, stop });
    const onStart = (/** @type {number} */ pid) => {
      unreported.set(m.id, pid);
      if (!reportDue) {
        reportDue = true;
        setTimeout(report, PID_REPORT_MS);
      }
    };
    // Only a request that watches its stream gets it, chunk by chunk (a trigger trial: a few small chunks).
    const onStdout = m.watch
      ? (/** @type {string} */ text) => {
          if (text) send(/** @type {SpawnerReply} */ ({ op: "stdout", id: m.id, text }));
        }
      : undefined;
    const hooks = { stop: stop.signal, ...(onStdout ? { onStdout } : {}) };
    runProcess(m.file, m.args, { ...m.opts, signal: abort.signal }, onStart, hooks).then((result) => {
      running.delete(m.id);
      unreported.delete(m.id);
      send(/** @type {SpawnerReply} */ ({ op: "done", id: m.id, result }));
    });
  });
  process.on("disconnect", () => {
    for (const a of running.values()) a.abort.abort();
    process.exit(0);
  });
}

/** The argument the runner starts the spawner with (see `process.ts`). */
export const SERVE_FLAG = "--serve-agents";

// Only as its own process: bundled into a program that is run as a single file, this module is the main
// module too, so the flag decides.
const [, main, flag] = process.argv;
if (flag === SERVE_FLAG && main !== undefined && import.meta.url === pathToFileURL(main).href) serve();
