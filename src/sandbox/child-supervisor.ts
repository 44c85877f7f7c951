/**
 * A started child under its limits until its streams close: output kept up to a cap per stream, the result
 * channel and bubblewrap's namespace report read, the wall-clock timeout and the resident-memory cap enforced by
 * killing its whole process group (and pid namespace), and no group left running when the parent exits.
 */
import type { ChildProcess } from "node:child_process";
import { endNamespace, type NamespaceInfo, parseNamespaceInfo } from "./isolation/teardown.js";
import { memoryWatch, type WatchKey } from "./memory-watch.js";
import type { LimitedOutcome, LimitedSpawnOptions } from "./process.js";

/** Output kept per stream; the rest is dropped (a child printing in a loop must not exhaust the parent). */
const MAX_OUTPUT_BYTES = 1024 * 1024;
/** The sandbox child's private result channel. */
export const RESULT_FD = 3;
/** fd on which bubblewrap reports the namespaces it made. */
export const INFO_FD = 4;

const liveGroups = new Set<number>();
let exitHookInstalled = false;

function killGroup(pid: number): void {
  try {
    process.kill(-pid, "SIGKILL");
  } catch {
    // already gone
  }
}

export function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  // Never leave sandboxed trees running after the parent ends.
  process.on("exit", () => {
    for (const pid of liveGroups) killGroup(pid);
  });
}

class CappedBuffer {
  private parts: Buffer[] = [];
  private size = 0;
  truncated = false;
  push(chunk: Buffer): void {
    if (this.size >= MAX_OUTPUT_BYTES) {
      this.truncated = true;
      return;
    }
    const room = MAX_OUTPUT_BYTES - this.size;
    const part = chunk.length > room ? chunk.subarray(0, room) : chunk;
    if (part.length < chunk.length) this.truncated = true;
    this.parts.push(part);
    this.size += part.length;
  }
  text(): string {
    const s = Buffer.concat(this.parts).toString("utf8");
    return this.truncated ? `${s}\n[output truncated at ${MAX_OUTPUT_BYTES} bytes]` : s;
  }
}

/** What a supervised child gave: the outcome but its isolation, and the namespace bubblewrap made, to end. */
type ChildEnd = Omit<LimitedOutcome, "isolation"> & { namespace?: NamespaceInfo };

/** One child's state while it runs: its output, why we killed it, its peak memory, its namespace. */
class Supervision {
  readonly stdout = new CappedBuffer();
  readonly stderr = new CappedBuffer();
  killedFor: LimitedOutcome["killedFor"];
  peakRssMb = 0;
  namespace: NamespaceInfo | undefined;
  private readonly stopWatches: (() => void)[] = [];

  constructor(
    private readonly pid: number | undefined,
    private readonly rssLimitMb: number | undefined,
  ) {
    if (pid !== undefined) liveGroups.add(pid);
  }

  readonly kill = (): void => {
    if (this.pid !== undefined) killGroup(this.pid);
    if (this.namespace) void endNamespace(this.namespace);
  };

  killFor(reason: NonNullable<LimitedOutcome["killedFor"]>): void {
    this.killedFor ??= reason;
    this.kill();
  }

  /** Samples the memory of `key` when the run has a cap; over the cap, the run is killed. */
  watchMemory(key: WatchKey): void {
    if (this.rssLimitMb === undefined) return;
    const limit = this.rssLimitMb;
    const onRss = (rss: number) => {
      this.peakRssMb = Math.max(this.peakRssMb, rss);
      if (rss > limit) this.killFor("memory");
    };
    this.stopWatches.push(memoryWatch.watch(key, onRss));
  }

  /** The streams closed: stop watching, and end the group (grandchildren may outlive the leader). */
  end(): void {
    for (const stop of this.stopWatches) stop();
    if (this.pid !== undefined) {
      killGroup(this.pid);
      liveGroups.delete(this.pid);
    }
  }
}

/** Reads bubblewrap's report of the namespaces it made, and watches the pid namespace's memory. */
function readNamespace(child: ChildProcess, run: Supervision): void {
  const infoStream = child.stdio[INFO_FD];
  if (!infoStream || !("on" in infoStream)) return;
  let text = "";
  infoStream.on("data", (c: Buffer) => {
    if (run.namespace || text.length > 4096) return;
    text += c.toString("utf8");
    run.namespace = parseNamespaceInfo(text);
    // The group holds only bubblewrap; the untrusted processes live in the namespace.
    if (run.namespace) run.watchMemory({ pidNamespace: run.namespace.pidNamespace });
  });
  infoStream.on("error", () => {});
}

/** Output, the result channel, the namespace report (confined runs) and the child's input. */
function connectStreams(
  child: ChildProcess,
  opts: LimitedSpawnOptions,
  run: Supervision,
  confined: boolean,
): void {
  child.stdout?.on("data", (c: Buffer) => run.stdout.push(c));
  child.stderr?.on("data", (c: Buffer) => run.stderr.push(c));
  const resultStream = opts.resultChannel ? child.stdio[RESULT_FD] : undefined;
  if (resultStream && "on" in resultStream) {
    resultStream.on("data", (c: Buffer) => opts.onResultChunk?.(c));
    resultStream.on("error", () => {});
  }
  if (confined) readNamespace(child, run);
  child.stdin?.on("error", () => {}); // the child may exit before reading its input
  if (opts.onStdin && child.stdin) opts.onStdin(child.stdin);
  else child.stdin?.end(opts.stdin ?? "");
}

/**
 * Supervises a child spawned in a process group of its own (`detached`) until its streams close. `confined`:
 * bubblewrap runs it and reports its namespaces on `INFO_FD`, and the memory watched is the pid namespace's.
 */
export function superviseChild(
  child: ChildProcess,
  opts: LimitedSpawnOptions,
  confined: boolean,
): Promise<ChildEnd> {
  const pid = child.pid;
  const run = new Supervision(pid, opts.rssLimitMb);
  connectStreams(child, opts, run, confined);
  const timer = setTimeout(() => run.killFor("timeout"), opts.timeoutMs);
  if (pid !== undefined && !confined) run.watchMemory({ pgid: pid });
  let spawnError: string | undefined;
  child.on("error", (err) => {
    spawnError = err.message;
  });
  // When the leader ends, background grandchildren holding our pipes would delay "close": end them too.
  child.on("exit", run.kill);
  return new Promise((resolve) => {
    child.on("close", (exitCode, signal) => {
      clearTimeout(timer);
      run.end();
      resolve({
        exitCode,
        signal,
        stdout: run.stdout.text(),
        stderr: run.stderr.text(),
        killedFor: run.killedFor,
        peakRssMb: Math.round(run.peakRssMb),
        spawnError,
        namespace: run.namespace,
      });
    });
  });
}
