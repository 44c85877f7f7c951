/**
 * Spawning untrusted work with hard limits: its own process group (so SIGKILL reaches the whole tree), a
 * wall-clock timeout, a resident-memory cap over the group, capped output buffers and an explicit env. With
 * `confine`, and where the machine can (see `isolation/`), the work runs inside bubblewrap: the group becomes
 * the sandbox's pid namespace, which the memory watch follows and teardown empties.
 */
import { spawn } from "node:child_process";
import { chmodSync, copyFileSync, readdirSync, readFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { Slots } from "../util/slots.js";
import { confinedCommand } from "./isolation/bwrap.js";
import { makeRunCgroup, type RunCgroup } from "./isolation/cgroup.js";
import { isolation } from "./isolation/detect.js";
import { drawSandboxUid, makeRunFolder, type RunFolder } from "./isolation/run-folder.js";
import {
  endNamespace,
  type NamespaceInfo,
  parseNamespaceInfo,
  pidNamespaceOf,
} from "./isolation/teardown.js";
import type { ConfineLimits, Isolation, IsolationLevel } from "./isolation/types.js";

/** Output kept per stream; the rest is dropped (a child printing in a loop must not exhaust the parent). */
const MAX_OUTPUT_BYTES = 1024 * 1024;
/** How often the memory of the process group is sampled. */
const MEMORY_POLL_MS = 50;
const PAGE_BYTES = 4096;
export const MIB = 1024 * 1024;

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
  /** Run inside the machine's isolation (bubblewrap) with exactly these paths and limits. */
  confine?: ConfineRequest;
}

/** What a confined run may see and use. Paths are bound at the same path inside. */
export interface ConfineRequest {
  readOnly: readonly string[];
  /** The only writable host paths (folders skillgate made for the run; see isolation/run-folder.ts). */
  writable?: readonly string[];
  limits: ConfineLimits;
  /** Host names that resolve to 127.0.0.1 inside (the model endpoints an egress forwarder serves). */
  hosts?: readonly string[];
  /**
   * Files copied into the run's folder and bound read-only at the given path (sandbox path → host file): the
   * copy is skillgate's, mode 0644, so the host file's owner and mode cannot keep the sandbox uid out.
   */
  copies?: Readonly<Record<string, string>>;
  /** Called with the run's uid before it starts, to give it the folders made for it (`grantToSandbox`). */
  prepare?: (uid: number) => void;
}

/** The sandbox child's private result channel. */
const RESULT_FD = 3;
/** fd on which bubblewrap reports the namespaces it made. */
const INFO_FD = 4;

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
  /** The isolation the run got (`none` when it was not confined). */
  isolation: IsolationLevel;
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

/** What a watch covers: a process group, or (confined runs) a pid namespace, `pid:[inode]`. */
export type WatchKey = { pgid: number } | { pidNamespace: string };

interface Seen {
  pgid: number;
  /** Read only while some watch covers a namespace. */
  ns?: string;
}

/**
 * One memory poller for every watched process group or pid namespace. Each tick lists /proc once and reads the
 * stat of the processes in a watched group or namespace and of pids it has not seen before; a pid seen outside
 * every watch is not read again (our groups are sessions of their own — `detached` — so no outside process can
 * join them, a process never changes pid namespace, and a group's processes are forked from its members,
 * inheriting the group before their pid can be listed). With several sandboxes running at once, one /proc scan
 * per group per tick would cost the parent more CPU than the sandboxes get.
 */
class MemoryWatch {
  private readonly watches = new Map<string, (rssMb: number) => void>();
  private namespaces = 0;
  private readonly seen = new Map<string, Seen>();
  private timer: NodeJS.Timeout | undefined;

  watch(key: WatchKey, onSample: (rssMb: number) => void): () => void {
    const id = "pgid" in key ? `g${key.pgid}` : `n${key.pidNamespace}`;
    this.watches.set(id, onSample);
    if ("pgid" in key) {
      // The leader may have been seen between fork and setsid, still in our own group: read it afresh.
      this.seen.delete(String(key.pgid));
    } else {
      // Its processes may have been seen before the namespace was known: read every pid afresh once.
      this.namespaces++;
      this.seen.clear();
    }
    this.timer ??= setInterval(() => this.tick(), MEMORY_POLL_MS);
    return () => {
      if (!this.watches.delete(id)) return;
      if (!("pgid" in key)) this.namespaces--;
      if (this.watches.size === 0 && this.timer) {
        clearInterval(this.timer);
        this.timer = undefined;
        this.seen.clear();
      }
    };
  }

  private watched(s: Seen): string | undefined {
    if (this.watches.has(`g${s.pgid}`)) return `g${s.pgid}`;
    if (s.ns !== undefined && this.watches.has(`n${s.ns}`)) return `n${s.ns}`;
    return undefined;
  }

  private tick(): void {
    const pages = new Map<string, number>();
    const listed = listPids();
    const present = new Set(listed);
    for (const pid of listed) {
      const known = this.seen.get(pid);
      if (known !== undefined && this.watched(known) === undefined) continue;
      const st = readStat(pid);
      if (!st) continue;
      const s: Seen = { pgid: st.pgid, ns: known?.ns };
      if (this.namespaces > 0 && s.ns === undefined) s.ns = pidNamespaceOf(pid);
      this.seen.set(pid, s);
      const id = this.watched(s);
      if (id !== undefined) pages.set(id, (pages.get(id) ?? 0) + st.pages);
    }
    for (const pid of this.seen.keys()) if (!present.has(pid)) this.seen.delete(pid);
    for (const [id, onSample] of [...this.watches]) onSample(toMb(pages.get(id) ?? 0));
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
  return sandboxSlots.run(
    async () => spawnNow(opts, opts.confine ? await isolation() : undefined),
    opts.priority,
  );
}

type Launch = {
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd: string;
  runFolder?: RunFolder;
  cgroup?: RunCgroup;
};

/**
 * The run's limits: a resident-memory cap (`rssLimitMb`) becomes each process's RLIMIT_DATA and, with the private
 * /tmp (a tmpfs, charged to the run's cgroup, not seen by the resident-memory watch), the cgroup's cap.
 */
export function runLimits(limits: ConfineLimits, rssLimitMb: number | undefined): ConfineLimits {
  if (rssLimitMb === undefined) return limits;
  const bytes = Math.ceil(rssLimitMb * MIB);
  return { ...limits, dataBytes: bytes, memoryBytes: bytes + limits.tmpBytes };
}

/** `path` when it lies in one of the run's writable folders, else the sandbox's private /tmp. */
function ownFolder(path: string | undefined, confine: ConfineRequest): string {
  const mine = path && (confine.writable ?? []).some((w) => path === w || path.startsWith(`${w}/`));
  return mine ? (path as string) : "/tmp";
}

/** The command to spawn: `opts` as given, or wrapped in bubblewrap with the run's own folder. */
function launchPlan(opts: LimitedSpawnOptions, iso: Isolation | undefined): Launch {
  const confine = opts.confine;
  if (!confine || !iso || iso.level === "none")
    return { command: opts.command, args: opts.args, env: opts.env, cwd: opts.cwd };
  const uid = iso.level === "uid+namespaces" ? drawSandboxUid() : (process.getuid?.() ?? 0);
  const runFolder = makeRunFolder({ uid, hosts: confine.hosts });
  const limits = runLimits(confine.limits, opts.rssLimitMb);
  const cgroup = makeRunCgroup({ memoryBytes: limits.memoryBytes, processes: limits.processes });
  try {
    const files = { ...runFolder.files };
    let n = 0;
    for (const [to, from] of Object.entries(confine.copies ?? {})) {
      const copy = join(runFolder.dir, `copy-${n++}`);
      copyFileSync(from, copy);
      chmodSync(copy, 0o644);
      files[to] = copy;
    }
    confine.prepare?.(uid);
    const cmd = confinedCommand(
      {
        command: opts.command,
        args: opts.args,
        cwd: opts.cwd,
        // The parent's home and temp folders do not exist inside: the sandbox's own /tmp serves, unless the
        // caller put them in a folder of the run.
        env: {
          ...opts.env,
          HOME: ownFolder(opts.env.HOME, confine),
          TMPDIR: ownFolder(opts.env.TMPDIR, confine),
        },
        readOnly: confine.readOnly,
        writable: confine.writable ?? [],
        files,
        limits,
        uid,
        infoFd: INFO_FD,
        ...(opts.resultChannel ? { keepFds: [RESULT_FD] } : {}),
        ...(cgroup ? { cgroupProcs: cgroup.procs } : {}),
      },
      iso,
    );
    // bubblewrap itself starts in a folder that always exists; the run's cwd is set inside (--chdir).
    return { ...cmd, cwd: "/", runFolder, ...(cgroup ? { cgroup } : {}) };
  } catch (err) {
    void cgroup?.end();
    runFolder.remove();
    throw err;
  }
}

async function spawnNow(opts: LimitedSpawnOptions, iso: Isolation | undefined): Promise<LimitedOutcome> {
  installExitHook();
  let plan: Launch;
  try {
    plan = launchPlan(opts, iso);
  } catch (err) {
    return {
      exitCode: null,
      signal: null,
      stdout: "",
      stderr: "",
      peakRssMb: 0,
      spawnError: `cannot confine the run: ${(err as Error).message}`,
      isolation: "none",
    };
  }
  const confined = plan.runFolder !== undefined;
  const level: IsolationLevel = confined && iso ? iso.level : "none";
  const outcome = await new Promise<LimitedOutcome & { namespace?: NamespaceInfo }>((resolve) => {
    const stdio: ("pipe" | "ignore")[] = ["pipe", "pipe", "pipe", opts.resultChannel ? "pipe" : "ignore"];
    if (confined) stdio.push("pipe");
    let child: ReturnType<typeof spawn>;
    try {
      child = spawn(plan.command, plan.args, { cwd: plan.cwd, env: plan.env, stdio, detached: true });
    } catch (err) {
      resolve({
        exitCode: null,
        signal: null,
        stdout: "",
        stderr: "",
        peakRssMb: 0,
        spawnError: (err as Error).message,
        isolation: level,
      });
      return;
    }
    const stdout = new CappedBuffer();
    const stderr = new CappedBuffer();
    let killedFor: LimitedOutcome["killedFor"];
    let peakRssMb = 0;
    let spawnError: string | undefined;
    let namespace: NamespaceInfo | undefined;
    const stopWatches: (() => void)[] = [];
    const pid = child.pid;
    if (pid !== undefined) liveGroups.add(pid);
    const kill = () => {
      if (pid !== undefined) killGroup(pid);
      if (namespace) void endNamespace(namespace);
    };
    const onRss = (rss: number) => {
      peakRssMb = Math.max(peakRssMb, rss);
      if (rss > (opts.rssLimitMb as number)) {
        killedFor ??= "memory";
        kill();
      }
    };

    child.stdout?.on("data", (c: Buffer) => stdout.push(c));
    child.stderr?.on("data", (c: Buffer) => stderr.push(c));
    const resultStream = opts.resultChannel ? child.stdio[3] : undefined;
    if (resultStream && "on" in resultStream) {
      resultStream.on("data", (c: Buffer) => opts.onResultChunk?.(c));
      resultStream.on("error", () => {});
    }
    const infoStream = confined ? child.stdio[INFO_FD] : undefined;
    if (infoStream && "on" in infoStream) {
      let text = "";
      infoStream.on("data", (c: Buffer) => {
        if (namespace || text.length > 4096) return;
        text += c.toString("utf8");
        namespace = parseNamespaceInfo(text);
        // The group holds only bubblewrap; the untrusted processes live in the namespace.
        if (namespace && opts.rssLimitMb !== undefined)
          stopWatches.push(memoryWatch.watch({ pidNamespace: namespace.pidNamespace }, onRss));
      });
      infoStream.on("error", () => {});
    }
    child.stdin?.on("error", () => {}); // the child may exit before reading its input
    if (opts.onStdin && child.stdin) opts.onStdin(child.stdin);
    else child.stdin?.end(opts.stdin ?? "");

    const timer = setTimeout(() => {
      killedFor ??= "timeout";
      kill();
    }, opts.timeoutMs);
    if (opts.rssLimitMb !== undefined && pid !== undefined && !confined)
      stopWatches.push(memoryWatch.watch({ pgid: pid }, onRss));

    child.on("error", (err) => {
      spawnError = err.message;
    });
    // When the leader ends, background grandchildren holding our pipes would delay "close": end them too.
    child.on("exit", kill);
    child.on("close", (exitCode, signal) => {
      clearTimeout(timer);
      for (const stop of stopWatches) stop();
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
        isolation: level,
        namespace,
      });
    });
  });
  const { namespace, ...result } = outcome;
  // Nothing of the run may outlive it, and its folder goes only once nothing can write there any more.
  const ended = namespace ? await endNamespace(namespace) : true;
  // The kernel's OOM killer struck inside the run's cgroup: the cap was reached, whatever the watch saw.
  if (plan.cgroup && plan.cgroup.oomKills() > 0) result.killedFor ??= "memory";
  const emptied = plan.cgroup ? await plan.cgroup.end() : true;
  if (ended && emptied) plan.runFolder?.remove();
  return result;
}
