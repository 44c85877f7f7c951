/**
 * Spawning untrusted work with hard limits: its own process group (so SIGKILL reaches the whole tree), a
 * wall-clock timeout, a resident-memory cap over the group, capped output buffers and an explicit env.
 */
import { spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { Slots } from "../util/slots.js";

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
  /** Instead of `stdin`: the child's stdin stream, for the caller to write and end (the sandbox's probe requests). */
  onStdin?: (stdin: NodeJS.WritableStream) => void;
  timeoutMs: number;
  /** Resident memory cap over the whole process group, MiB; undefined = no RSS cap. */
  rssLimitMb?: number;
  /** Open an extra pipe as fd 3 (the sandbox child's private result channel). */
  resultChannel?: boolean;
  /** Called with each chunk of fd 3 as it arrives. */
  onResultChunk?: (chunk: Buffer) => void;
  /** Order among runs waiting for a slot: higher first (the expected CPU cost, so long runs start first). */
  priority?: number;
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

/** pid → process group and resident pages, from `/proc/<pid>/stat` (Linux); undefined if it is gone. */
function readStat(pid: string): { pgid: number; pages: number } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "latin1");
    // Fields after the command name, which may itself contain spaces and parentheses.
    const rest = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return { pgid: Number(rest[2]), pages: Number(rest[21]) || 0 };
  } catch {
    return undefined; // process ended while we looked
  }
}

function listPids(): string[] {
  try {
    return readdirSync("/proc").filter((e) => e.charCodeAt(0) >= 48 && e.charCodeAt(0) <= 57);
  } catch {
    return [];
  }
}

const toMb = (pages: number) => (pages * PAGE_BYTES) / (1024 * 1024);

/** Sum of resident memory of every process in group `pgid` (Linux /proc; 0 elsewhere). */
export function groupRssMb(pgid: number): number {
  let pages = 0;
  for (const pid of listPids()) {
    const st = readStat(pid);
    if (st?.pgid === pgid) pages += st.pages;
  }
  return toMb(pages);
}

/**
 * One memory poller for every watched process group. Each tick lists /proc once and reads the stat of the
 * processes in a watched group and of pids it has not seen before; a pid seen in another group is not read
 * again (our groups are sessions of their own — `detached` — so no outside process can join them, and a
 * group's processes are forked from its members, inheriting the group before their pid can be listed).
 * With several sandboxes running at once, one /proc scan per group per tick would cost the parent more CPU
 * than the sandboxes get.
 */
class MemoryWatch {
  private readonly groups = new Map<number, (rssMb: number) => void>();
  /** Group of every pid seen so far (dropped when the pid disappears). */
  private readonly groupOf = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;

  watch(pgid: number, onSample: (rssMb: number) => void): () => void {
    this.groups.set(pgid, onSample);
    // The leader may have been seen between fork and setsid, still in our own group: read it afresh.
    this.groupOf.delete(String(pgid));
    this.timer ??= setInterval(() => this.tick(), MEMORY_POLL_MS);
    return () => {
      this.groups.delete(pgid);
      if (this.groups.size === 0 && this.timer) {
        clearInterval(this.timer);
        this.timer = undefined;
        this.groupOf.clear();
      }
    };
  }

  private tick(): void {
    const pages = new Map<number, number>();
    const listed = listPids();
    const present = new Set(listed);
    for (const pid of listed) {
      const known = this.groupOf.get(pid);
      if (known !== undefined && !this.groups.has(known)) continue;
      const st = readStat(pid);
      if (!st) continue;
      this.groupOf.set(pid, st.pgid);
      if (this.groups.has(st.pgid)) pages.set(st.pgid, (pages.get(st.pgid) ?? 0) + st.pages);
    }
    for (const pid of this.groupOf.keys()) if (!present.has(pid)) this.groupOf.delete(pid);
    for (const [pgid, onSample] of [...this.groups]) onSample(toMb(pages.get(pgid) ?? 0));
  }
}

const memoryWatch = new MemoryWatch();

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

/**
 * Sandboxed children running at once: one per core. Their work is CPU-bound (a Node start-up, then probes), so
 * more at once only adds contention: eight gates at once on two cores took 2.4–2.9 s of CPU, one after another
 * 2.0 s. The others wait; their timeout starts when they start.
 */
export const SANDBOX_CONCURRENCY = Math.max(1, availableParallelism());
const sandboxSlots = new Slots(SANDBOX_CONCURRENCY);

/**
 * Spawns untrusted work with hard limits, once one of the `SANDBOX_CONCURRENCY` slots is free. Waiting runs
 * start highest `priority` first: with more runs than cores, starting the longest first shortens the whole
 * (longest-processing-time scheduling).
 */
export function spawnLimited(opts: LimitedSpawnOptions): Promise<LimitedOutcome> {
  return sandboxSlots.run(() => spawnNow(opts), opts.priority);
}

function spawnNow(opts: LimitedSpawnOptions): Promise<LimitedOutcome> {
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
      resultStream.on("data", (c: Buffer) => opts.onResultChunk?.(c));
      resultStream.on("error", () => {});
    }
    child.stdin?.on("error", () => {}); // the child may exit before reading its input
    if (opts.onStdin && child.stdin) opts.onStdin(child.stdin);
    else child.stdin?.end(opts.stdin ?? "");

    const timer = setTimeout(() => {
      killedFor ??= "timeout";
      if (pid !== undefined) killGroup(pid);
    }, opts.timeoutMs);
    const stopWatch =
      opts.rssLimitMb !== undefined && pid !== undefined
        ? memoryWatch.watch(pid, (rss) => {
            peakRssMb = Math.max(peakRssMb, rss);
            if (rss > (opts.rssLimitMb as number)) {
              killedFor ??= "memory";
              killGroup(pid);
            }
          })
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
      stopWatch?.();
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
