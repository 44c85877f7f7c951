/**
 * Spawning untrusted work with hard limits: its own process group (so SIGKILL reaches the whole tree), a
 * wall-clock timeout, a resident-memory cap over the group, capped output buffers and an explicit env.
 */
import { spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";

/** Output kept per stream; the rest is dropped (a child printing in a loop must not exhaust the parent). */
export const MAX_OUTPUT_BYTES = 1024 * 1024;
/** How often the memory of the process group is sampled. */
export const MEMORY_POLL_MS = 50;
const PAGE_BYTES = 4096;

export interface LimitedSpawnOptions {
  command: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
  stdin?: string;
  timeoutMs: number;
  /** Resident memory cap over the whole process group, MiB; undefined = no RSS cap. */
  rssLimitMb?: number;
  /** Open an extra pipe as fd 3 (the sandbox child's private result channel). */
  resultChannel?: boolean;
  /** Called with each chunk of fd 3 as it arrives. */
  onResultChunk?: (chunk: string) => void;
}

export interface LimitedOutcome {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** Set when we killed the group. */
  killedFor?: "timeout" | "memory";
  /** Peak resident memory of the group seen by the poller, MiB. */
  peakRssMb: number;
  /** The process could not be started at all. */
  spawnError?: string;
}

const liveGroups = new Set<number>();
let exitHookInstalled = false;

function killGroup(pid: number): void {
  try {
    process.kill(-pid, "SIGKILL");
  } catch {
    // already gone
  }
}

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  // Never leave sandboxed trees running after the parent ends.
  process.on("exit", () => {
    for (const pid of liveGroups) killGroup(pid);
  });
}

/** Sum of resident memory of every process in group `pgid` (Linux /proc; 0 elsewhere). */
export function groupRssMb(pgid: number): number {
  let pages = 0;
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return 0;
  }
  for (const e of entries) {
    if (e.charCodeAt(0) < 48 || e.charCodeAt(0) > 57) continue;
    try {
      const stat = readFileSync(`/proc/${e}/stat`, "latin1");
      // Fields after the command name, which may itself contain spaces and parentheses.
      const rest = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(rest[2]) === pgid) pages += Number(rest[21]) || 0;
    } catch {
      // process ended while we looked
    }
  }
  return (pages * PAGE_BYTES) / (1024 * 1024);
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

export function spawnLimited(opts: LimitedSpawnOptions): Promise<LimitedOutcome> {
  installExitHook();
  return new Promise((resolve) => {
    const stdio: ("pipe" | "ignore")[] = opts.resultChannel
      ? ["pipe", "pipe", "pipe", "pipe"]
      : ["pipe", "pipe", "pipe"];
    let child: ReturnType<typeof spawn>;
    try {
      child = spawn(opts.command, opts.args, { cwd: opts.cwd, env: opts.env, stdio, detached: true });
    } catch (err) {
      resolve({
        exitCode: null,
        signal: null,
        stdout: "",
        stderr: "",
        peakRssMb: 0,
        spawnError: (err as Error).message,
      });
      return;
    }
    const stdout = new CappedBuffer();
    const stderr = new CappedBuffer();
    let killedFor: LimitedOutcome["killedFor"];
    let peakRssMb = 0;
    let spawnError: string | undefined;
    const pid = child.pid;
    if (pid !== undefined) liveGroups.add(pid);

    child.stdout?.on("data", (c: Buffer) => stdout.push(c));
    child.stderr?.on("data", (c: Buffer) => stderr.push(c));
    const resultStream = opts.resultChannel ? child.stdio[3] : undefined;
    if (resultStream && "on" in resultStream) {
      resultStream.on("data", (c: Buffer) => opts.onResultChunk?.(c.toString("utf8")));
      resultStream.on("error", () => {});
    }
    child.stdin?.on("error", () => {}); // the child may exit before reading its input
    child.stdin?.end(opts.stdin ?? "");

    const timer = setTimeout(() => {
      killedFor ??= "timeout";
      if (pid !== undefined) killGroup(pid);
    }, opts.timeoutMs);
    const poller =
      opts.rssLimitMb !== undefined && pid !== undefined
        ? setInterval(() => {
            const rss = groupRssMb(pid);
            peakRssMb = Math.max(peakRssMb, rss);
            if (rss > (opts.rssLimitMb as number)) {
              killedFor ??= "memory";
              killGroup(pid);
            }
          }, MEMORY_POLL_MS)
        : undefined;

    child.on("error", (err) => {
      spawnError = err.message;
    });
    // When the leader ends, background grandchildren holding our pipes would delay "close": end them too.
    child.on("exit", () => {
      if (pid !== undefined) killGroup(pid);
    });
    child.on("close", (exitCode, signal) => {
      clearTimeout(timer);
      if (poller) clearInterval(poller);
      if (pid !== undefined) {
        // Grandchildren may outlive the leader: end the whole group.
        killGroup(pid);
        liveGroups.delete(pid);
      }
      resolve({
        exitCode,
        signal,
        stdout: stdout.text(),
        stderr: stderr.text(),
        killedFor,
        peakRssMb: Math.round(peakRssMb),
        spawnError,
      });
    });
  });
}
