/**
 * Spawning untrusted work with hard limits: its own process group (so SIGKILL reaches the whole tree), a
 * wall-clock timeout, a resident-memory cap over the group, capped output buffers and an explicit env. With
 * `confine`, and where the machine can (see `isolation/`), the work runs inside bubblewrap: the group becomes
 * the sandbox's pid namespace, which the memory watch follows and teardown empties.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { chmodSync, copyFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { Slots } from "../util/slots.js";
import { INFO_FD, installExitHook, RESULT_FD, superviseChild } from "./child-supervisor.js";
import { confinedCommand } from "./isolation/bwrap.js";
import { makeRunCgroup, type RunCgroup } from "./isolation/cgroup.js";
import { isolation } from "./isolation/detect.js";
import { drawSandboxUid, makeRunFolder, type RunFolder } from "./isolation/run-folder.js";
import { endNamespace } from "./isolation/teardown.js";
import type { ConfineLimits, Isolation, IsolationLevel } from "./isolation/types.js";

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

/** The outcome of a run that never started. */
const notStarted = (spawnError: string, isolation: IsolationLevel): LimitedOutcome => ({
  exitCode: null,
  signal: null,
  stdout: "",
  stderr: "",
  peakRssMb: 0,
  spawnError,
  isolation,
});

async function spawnNow(opts: LimitedSpawnOptions, iso: Isolation | undefined): Promise<LimitedOutcome> {
  installExitHook();
  let plan: Launch;
  try {
    plan = launchPlan(opts, iso);
  } catch (err) {
    return notStarted(`cannot confine the run: ${(err as Error).message}`, "none");
  }
  const confined = plan.runFolder !== undefined;
  const level: IsolationLevel = confined && iso ? iso.level : "none";
  const stdio: ("pipe" | "ignore")[] = ["pipe", "pipe", "pipe", opts.resultChannel ? "pipe" : "ignore"];
  if (confined) stdio.push("pipe");
  let child: ChildProcess;
  try {
    child = spawn(plan.command, plan.args, { cwd: plan.cwd, env: plan.env, stdio, detached: true });
  } catch (err) {
    return notStarted((err as Error).message, level);
  }
  const { namespace, ...end } = await superviseChild(child, opts, confined);
  const result: LimitedOutcome = { ...end, isolation: level };
  // Nothing of the run may outlive it, and its folder goes only once nothing can write there any more.
  const ended = namespace ? await endNamespace(namespace) : true;
  // The kernel's OOM killer struck inside the run's cgroup: the cap was reached, whatever the watch saw.
  if (plan.cgroup && plan.cgroup.oomKills() > 0) result.killedFor ??= "memory";
  const emptied = plan.cgroup ? await plan.cgroup.end() : true;
  if (ended && emptied) plan.runFolder?.remove();
  return result;
}
