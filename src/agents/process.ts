/**
 * Runs an agent process: own process group (so a timeout kills the whole tree), bounded capture of its output,
 * stdin fed and closed, SIGKILL on timeout or abort (`runProcess` in `spawner.mjs`).
 *
 * Fallback chain: the agent spawner (one small process per runner, started on first use, which forks the agents
 * so the runner never does; see `spawner.mjs` for why) → this process, when the spawner's script is not found,
 * `SKILLGATE_AGENT_SPAWNER=off` is set, or the spawner cannot be started.
 */
import { type ChildProcess, fork } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Observation } from "../model/index.js";
import { observeRun } from "../observe/observe.js";
import { findUpwards } from "../util/find-upwards.js";
import { disableSigusr1Flags } from "../util/no-inspector.js";
import { type AgentConfinement, type ConfinedAgent, confineAgent } from "./confine.js";
import { killGroup, MAX_TIMEOUT_MS, runProcess, SERVE_FLAG } from "./spawner.mjs";

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
  /** The executable could not be started (ENOENT, EACCES …), or the spawner running it died. */
  spawnError?: string;
  /** Destinations the egress proxy refused the confined agent (host:port, or the bad request). */
  egressRefused?: string[];
  /** What the confined agent's processes were seen doing (src/observe/). */
  observed?: Observation;
}

/** CPU and memory of the spawner process (for the bench: the runner's cost includes it). */
export interface SpawnerUsage {
  cpuMs: number;
  /** CPU of the agents it started and reaped. */
  childrenCpuMs: number;
  maxRssKiB: number;
}

/** Runner → spawner, over the IPC channel. */
export type SpawnerRequest =
  | {
      op: "run";
      id: number;
      file: string;
      args: string[];
      opts: Omit<AgentProcessOptions, "signal" | "confine" | "watch">;
      /** Send stdout back as it arrives (`stdout` replies), for a `watch` in the runner. */
      watch?: boolean;
    }
  | { op: "kill"; id: number }
  /** The runner's `watch` said stop: end the agent on purpose. */
  | { op: "stop"; id: number }
  | { op: "usage"; id: number };

/**
 * Spawner → runner: `done` per request; `pids` now and then, the agents started since the last (request id, pid),
 * so the runner can kill their groups if the spawner dies (see `PID_REPORT_MS`).
 */
export type SpawnerReply =
  | { op: "pids"; pids: [id: number, pid: number][] }
  | { op: "done"; id: number; result: AgentProcessResult }
  | { op: "stdout"; id: number; text: string }
  | { op: "usage"; id: number; usage: SpawnerUsage };

/** `SKILLGATE_AGENT_SPAWNER=off`: start agents from this process. */
export const SPAWNER_SWITCH = "SKILLGATE_AGENT_SPAWNER";
const SCRIPT_NAME = "spawner.mjs";

interface Pending {
  resolve: (r: AgentProcessResult) => void;
  /** The request's stdout watcher; true once it asked to stop. */
  watch?: (text: string) => boolean;
  /** The request, kept until the spawner has started (to run it here if the spawner cannot start). */
  retry?: () => void;
  pid?: number;
}

/** The spawner process and the requests it has not answered. */
class AgentSpawner {
  private readonly child: ChildProcess;
  private readonly pending = new Map<number, Pending>();
  private readonly usageWaiters = new Map<number, (u: SpawnerUsage | undefined) => void>();
  private nextId = 0;
  private started = false;
  private gone = false;

  constructor(
    script: string,
    private readonly onGone: () => void,
  ) {
    this.child = fork(script, [SERVE_FLAG], {
      // Its own environment holds no secrets: each agent's environment comes with its request.
      env: { PATH: process.env.PATH ?? "" },
      // It runs with skillgate's uid: no inspector on SIGUSR1 (its own listener covers Node 20).
      execArgv: disableSigusr1Flags(),
      serialization: "json",
      stdio: ["ignore", "ignore", "inherit", "ipc"],
    });
    this.child.on("spawn", () => {
      this.started = true;
      for (const p of this.pending.values()) p.retry = undefined;
    });
    this.child.on("message", (m: SpawnerReply) => this.receive(m));
    this.child.on("error", (e) => this.end(`the agent spawner failed: ${e.message}`));
    this.child.on("exit", (code, signal) =>
      this.end(`the agent spawner exited (${signal ?? `code ${code}`})`),
    );
    this.idle();
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  run(file: string, args: string[], opts: Omit<AgentProcessOptions, "confine">): Promise<AgentProcessResult> {
    // JSON would turn an infinite timeout into null (a timer that fires at once).
    const { signal, watch, ...sendable } = { ...opts, timeoutMs: Math.min(opts.timeoutMs, MAX_TIMEOUT_MS) };
    return new Promise((resolve) => {
      const id = this.nextId++;
      const onAbort = () => this.send({ op: "kill", id });
      const done = (r: AgentProcessResult) => {
        signal?.removeEventListener("abort", onAbort);
        resolve(r);
      };
      this.pending.set(id, {
        resolve: done,
        ...(watch ? { watch } : {}),
        retry: this.started ? undefined : () => runWatched(file, args, opts).then(done),
      });
      this.busy();
      this.send({ op: "run", id, file, args, opts: sendable, ...(watch ? { watch: true } : {}) });
      if (signal?.aborted) onAbort();
      else signal?.addEventListener("abort", onAbort, { once: true });
    });
  }

  usage(): Promise<SpawnerUsage | undefined> {
    if (this.gone) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      const id = this.nextId++;
      this.usageWaiters.set(id, resolve);
      this.busy();
      this.send({ op: "usage", id });
    });
  }

  private send(m: SpawnerRequest): void {
    if (this.gone || !this.child.connected) return;
    this.child.send(m);
  }

  private receive(m: SpawnerReply): void {
    if (m.op === "pids") {
      for (const [id, pid] of m.pids) {
        const p = this.pending.get(id);
        if (p) p.pid = pid;
      }
      return;
    }
    if (m.op === "stdout") {
      const p = this.pending.get(m.id);
      if (p?.watch?.(m.text)) {
        p.watch = undefined;
        this.send({ op: "stop", id: m.id });
      }
      return;
    }
    if (m.op === "usage") {
      this.usageWaiters.get(m.id)?.(m.usage);
      this.usageWaiters.delete(m.id);
    } else {
      this.pending.get(m.id)?.resolve(m.result);
      this.pending.delete(m.id);
    }
    this.idle();
  }

  /**
   * The spawner is gone. Requests it never got run here instead (it could not start); an agent it had started
   * and reported dies with its group (an orphan could keep writing), and its trial is a spawn error, never a pass.
   * An agent started within `PID_REPORT_MS` of a sudden death is out of reach: it runs on until it ends.
   */
  private end(why: string): void {
    if (this.gone) return;
    this.gone = true;
    this.onGone();
    for (const p of this.pending.values()) {
      if (p.retry) {
        p.retry();
        continue;
      }
      killGroup(p.pid, true);
      p.resolve({
        stdout: "",
        stderr: "",
        exitCode: null,
        signal: null,
        timedOut: false,
        aborted: false,
        stdoutTruncated: false,
        spawnError: why,
      });
    }
    this.pending.clear();
    for (const w of this.usageWaiters.values()) w(undefined);
    this.usageWaiters.clear();
  }

  /** Nothing asked: the spawner must not keep the runner's process alive. */
  private idle(): void {
    if (this.pending.size > 0 || this.usageWaiters.size > 0) return;
    this.child.unref();
    this.child.channel?.unref();
  }

  private busy(): void {
    this.child.ref();
    this.child.channel?.ref();
  }
}

let spawner: AgentSpawner | undefined;
/** The spawner's script could not be found, or it could not start: agents start from this process. */
let spawnerUnavailable = false;

function spawnerScript(): string | undefined {
  // `src/agents/` from source, `dist/` from the bundle (which copies it there), else from the repository (the bench).
  const here = dirname(fileURLToPath(import.meta.url));
  if (existsSync(join(here, SCRIPT_NAME))) return join(here, SCRIPT_NAME);
  return findUpwards(join("src", "agents", SCRIPT_NAME), [here, process.cwd()]);
}

function agentSpawner(): AgentSpawner | undefined {
  if (process.env[SPAWNER_SWITCH] === "off") return undefined;
  if (spawner || spawnerUnavailable) return spawner;
  const script = spawnerScript();
  if (!script) {
    spawnerUnavailable = true;
    return undefined;
  }
  try {
    const s: AgentSpawner = new AgentSpawner(script, () => {
      if (spawner === s) spawner = undefined;
      // Never started: do not try again for every trial.
      if (s.pid === undefined) spawnerUnavailable = true;
    });
    spawner = s;
  } catch {
    spawnerUnavailable = true;
  }
  return spawner;
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
  return runProcess(file, args, rest, undefined, {
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
  const start = (f: string, a: string[], o: Omit<AgentProcessOptions, "confine">) => {
    const s = agentSpawner();
    return s ? s.run(f, a, o) : runWatched(f, a, o);
  };
  if (!confine) return start(file, args, plain);
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
    const result = await start(watched.file, watched.args, {
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

/** The running spawner's pid, or undefined when agents start from this process. */
export function agentSpawnerPid(): number | undefined {
  return spawner?.pid;
}

/** CPU and memory of the spawner so far (started here if agents would use it), or undefined when agents start from this process. */
export function agentSpawnerUsage(): Promise<SpawnerUsage | undefined> {
  return agentSpawner()?.usage() ?? Promise.resolve(undefined);
}
