/**
 * Agents run confined like every other untrusted process (src/sandbox/isolation/): bubblewrap, a sandbox uid of
 * their own at `uid+namespaces`, their own pid namespace (killed whole with the run), no network, limits. The
 * trial's workspace and its HOME are the only writable paths (made by skillgate for this trial, and only they are
 * given to the sandbox uid); the program and Node are bound read-only; the repository checkout is not there.
 *
 * Agents that need a model API (claude-code, codex) get it through the egress path (src/sandbox/isolation/egress.ts):
 * the first program in their sandbox is `egress-relay.mjs`, which listens on loopback ports of the sandbox's own
 * network namespace and relays to unix sockets bound into it; skillgate's proxy at the other end joins them only to
 * the allowed endpoints. Nothing else leaves the sandbox.
 *
 * Extra paths and endpoints come only from the trusted config (`agent.options.sandbox: {readOnly, writable,
 * egress}`); paths are bound as they are, their ownership and modes never changed.
 */
import { existsSync, readFileSync, realpathSync, statSync, writeFileSync } from "node:fs";
import { delimiter, dirname, join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import type { Workspace } from "../model/index.js";
import { confinedCommand } from "../sandbox/isolation/bwrap.js";
import { makeRunCgroup } from "../sandbox/isolation/cgroup.js";
import { isolation } from "../sandbox/isolation/detect.js";
import {
  type EgressPlan,
  type EgressProxy,
  planEgress,
  SANDBOX_EGRESS_DIR,
  startEgressProxy,
} from "../sandbox/isolation/egress.js";
import { drawSandboxUid, grantToSandbox, makeRunFolder } from "../sandbox/isolation/run-folder.js";
import type { ConfineLimits, IsolationLevel } from "../sandbox/isolation/types.js";
import { findUpwards } from "../util/find-upwards.js";

/**
 * Memory of one agent trial's whole tree, MiB (the agent, the tools it runs, their builds and tests; its tmpfs /tmp
 * counts too): a cgroup's `memory.max` where one can be made, else each process's RLIMIT_DATA (cgroup.ts). The
 * trusted config may set another (`agent.options.sandbox.memoryMb`).
 */
const AGENT_MEMORY_MB = 4096;

/**
 * Disk a trial's workspace and HOME may hold when the agent ends, MiB; more fails the trial (runner.ts). A workspace
 * on a tmpfs (/dev/shm, the default on Linux) is bounded while the agent runs too: its pages count against the
 * run's memory cgroup. On a disk, only each file is bounded while it runs (RLIMIT_FSIZE). The trusted config may
 * set another (`agent.options.sandbox.diskMb`).
 */
export const AGENT_WORKSPACE_MB = 2048;

/** OS limits of one agent trial: a coding agent runs tools, builds and tests; a fork bomb still stops. */
export const AGENT_CONFINE_LIMITS: ConfineLimits = Object.freeze({
  processes: 1024,
  fileSizeBytes: 256 * 1024 * 1024,
  tmpBytes: 256 * 1024 * 1024,
  openFiles: 8192,
  dataBytes: AGENT_MEMORY_MB * 1024 * 1024,
  memoryBytes: AGENT_MEMORY_MB * 1024 * 1024,
});

/** The limits of a trial whose trusted config sets its memory (MiB): the tree's cap and each process's data. */
function agentLimits(memoryMb: number | undefined): ConfineLimits {
  if (memoryMb === undefined) return AGENT_CONFINE_LIMITS;
  const bytes = memoryMb * 1024 * 1024;
  return { ...AGENT_CONFINE_LIMITS, dataBytes: bytes, memoryBytes: bytes };
}

export interface AgentConfinement {
  workspace: Workspace;
  /** The repository: never bound; a program file inside it is bound alone, not its folder. */
  repoDir: string;
  /** From the trusted config only. */
  readOnly?: readonly string[];
  writable?: readonly string[];
  /** The endpoints the agent may reach (see `agentEgress`); none: no network at all. */
  egress?: EgressPlan;
  /** Memory of the trial's tree, MiB (from the trusted config); default `AGENT_MEMORY_MB`. */
  memoryMb?: number;
}

/**
 * Reads `agent.options.sandbox` of the trusted config: `readOnly` and `writable` lists of absolute paths, `egress`
 * a list of http(s) URLs of further endpoints the agent may reach, `memoryMb` the trial's memory and `diskMb` its
 * workspace cap (positive whole numbers of MiB); anything else ignored.
 */
export function sandboxOptions(options: Record<string, unknown> | undefined): {
  readOnly: string[];
  writable: string[];
  egress: string[];
  memoryMb?: number;
  diskMb?: number;
} {
  // `sandbox` is also Codex's own option (a string): not ours.
  const raw = options?.sandbox;
  const s = (raw && typeof raw === "object" ? raw : {}) as Record<string, unknown>;
  const strings = (v: unknown) =>
    Array.isArray(v) ? v.filter((p): p is string => typeof p === "string") : [];
  return {
    readOnly: strings(s.readOnly).filter((p) => p.startsWith("/")),
    writable: strings(s.writable).filter((p) => p.startsWith("/")),
    egress: strings(s.egress).filter((u) => /^https?:\/\//i.test(u)),
    ...(Number.isSafeInteger(s.memoryMb) && (s.memoryMb as number) > 0
      ? { memoryMb: s.memoryMb as number }
      : {}),
    ...(Number.isSafeInteger(s.diskMb) && (s.diskMb as number) > 0 ? { diskMb: s.diskMb as number } : {}),
  };
}

/**
 * The egress of an agent that needs `urls` (its model endpoint first), or undefined when agents run unconfined on
 * this machine (level `none`: then the agent is given the real URLs, and has the host's network).
 */
export async function agentEgress(urls: readonly string[]): Promise<EgressPlan | undefined> {
  return (await isolation()).level === "none" ? undefined : planEgress(urls);
}

/** Whether agents run confined here (a level other than `none`). */
export async function agentsConfined(): Promise<boolean> {
  return (await isolation()).level !== "none";
}

const RELAY_NAME = "egress-relay.mjs";
let relaySource: string | undefined;

/** The relay's text: beside the bundle in dist/, else from the source tree. */
function egressRelaySource(): string {
  if (relaySource !== undefined) return relaySource;
  const here = dirname(fileURLToPath(import.meta.url));
  const file = existsSync(join(here, RELAY_NAME))
    ? join(here, RELAY_NAME)
    : findUpwards(join("src", "sandbox", "isolation", RELAY_NAME), [here, process.cwd()]);
  if (!file) throw new Error(`${RELAY_NAME} not found beside ${here}`);
  relaySource = readFileSync(file, "utf8");
  return relaySource;
}

function within(path: string, folder: string): boolean {
  const rel = relative(folder, path);
  return rel === "" || (!rel.startsWith(`..${sep}`) && rel !== "..");
}

function onPath(name: string, env: Record<string, string>): string | undefined {
  for (const dir of (env.PATH ?? process.env.PATH ?? "").split(delimiter)) {
    if (!dir.startsWith("/")) continue;
    if (existsSync(join(dir, name))) return join(dir, name);
  }
  return undefined;
}

/**
 * What the program needs to be read: for each command word naming a file (the program, found on PATH when bare;
 * a script argument), the outermost `node_modules` holding it (an npm-installed CLI and its dependencies), else
 * its folder, or the file alone when its folder holds the repository or is closed to others.
 */
export function programPaths(
  words: readonly string[],
  repoDir: string,
  env: Record<string, string>,
): string[] {
  const out = new Set<string>();
  const repo = existsSync(repoDir) ? realpathSync(repoDir) : repoDir;
  for (const [i, word] of words.entries()) {
    const path = word.startsWith("/") ? word : i === 0 && !word.includes("/") ? onPath(word, env) : undefined;
    if (!path || !existsSync(path)) continue;
    for (const p of new Set([path, realpathSync(path)])) {
      const parts = p.split(sep);
      const top = parts.indexOf("node_modules");
      if (top > 0) out.add(parts.slice(0, top + 1).join(sep));
      else if (statSync(p).isDirectory()) out.add(p);
      // A folder holding the repository, or one closed to others (a bound folder keeps its mode, which would
      // keep the sandbox uid out): the file alone.
      else if (within(repo, dirname(p)) || (statSync(dirname(p)).mode & 0o005) !== 0o005) out.add(p);
      else out.add(dirname(p));
    }
  }
  return [...out];
}

/**
 * The environment with skillgate's Node folder at the end of PATH when it is not on it: that folder is bound into
 * the sandbox, so a `#!/usr/bin/env node` program (Codex's launcher) finds a Node there even when the one on the
 * host's PATH lives in a folder the sandbox does not have.
 */
function withNodeOnPath(env: Record<string, string>, nodeDir: string): Record<string, string> {
  const path = env.PATH ?? "";
  if (path.split(delimiter).includes(nodeDir)) return env;
  return { ...env, PATH: path ? `${path}${delimiter}${nodeDir}` : nodeDir };
}

export interface ConfinedAgent {
  file: string;
  args: string[];
  env: Record<string, string>;
  cwd: string;
  level: IsolationLevel;
  /** The egress proxy of the run, when it has endpoints. */
  egress?: EgressProxy;
  /** The agent command's argv as its sandbox starts it (the relay first, when there is one): where the trial's own processes begin. */
  agentCommands: string[][];
  /** How many processes of the run the kernel killed for its memory cap (its cgroup's count; 0 without one). */
  oomKills(): number;
  /** After the run: kills what is left of its cgroup, stops the egress proxy and removes the run's own folder. */
  done(): Promise<void>;
}

/** The agent's command wrapped in the machine's isolation (as given when it has none). */
export async function confineAgent(
  file: string,
  args: string[],
  opts: { cwd: string; env: Record<string, string> },
  c: AgentConfinement,
): Promise<ConfinedAgent> {
  const iso = await isolation();
  if (iso.level === "none") {
    // Unconfined, a bind is never made: the agent would see an empty skills folder and activate nothing, a
    // silent pass. The runner shares by links then (runner.ts); reaching here with a bind is a bug, and fails.
    if (c.workspace.mounts?.length)
      throw new Error("a read-only catalogue bind was asked for an agent that runs unconfined");
    return {
      file,
      args,
      ...opts,
      level: "none",
      agentCommands: [[file, ...args]],
      oomKills: () => 0,
      done: async () => {},
    };
  }
  const uid = iso.level === "uid+namespaces" ? drawSandboxUid() : (process.getuid?.() ?? 0);
  const runFolder = makeRunFolder({ uid });
  const limits = agentLimits(c.memoryMb);
  const cgroup = makeRunCgroup({ memoryBytes: limits.memoryBytes, processes: limits.processes });
  let proxy: EgressProxy | undefined;
  const done = async () => {
    await cgroup?.end();
    proxy?.close();
    runFolder.remove();
  };
  try {
    if (iso.level === "uid+namespaces") {
      grantToSandbox(c.workspace.dir, uid);
      grantToSandbox(c.workspace.home, uid);
    }
    const node = realpathSync(process.execPath);
    let command = file;
    let commandArgs = args;
    const files = { ...runFolder.files };
    // A shared catalogue, read-only over the workspace's skills folder (bound after the workspace, so on top).
    for (const m of c.workspace.mounts ?? []) files[m.to] = m.from;
    if (c.egress && c.egress.routes.length > 0) {
      proxy = await startEgressProxy(c.egress, runFolder.dir);
      // The relay runs first in the sandbox, then starts the agent: its own copy, readable by the sandbox uid.
      const relay = join(runFolder.dir, RELAY_NAME);
      writeFileSync(relay, egressRelaySource(), { mode: 0o644 });
      files[`${SANDBOX_EGRESS_DIR}/${RELAY_NAME}`] = relay;
      for (const s of proxy.sockets) files[s.sandboxPath] = s.hostPath;
      command = node;
      commandArgs = [`${SANDBOX_EGRESS_DIR}/${RELAY_NAME}`, ...proxy.relayArgs, "--", file, ...args];
    }
    const cmd = confinedCommand(
      {
        command,
        args: commandArgs,
        cwd: opts.cwd,
        env: withNodeOnPath(opts.env, dirname(node)),
        readOnly: [
          ...programPaths([file, ...args], c.repoDir, opts.env),
          dirname(node),
          ...(c.readOnly ?? []),
        ],
        writable: [c.workspace.dir, c.workspace.home, ...(c.writable ?? [])],
        files,
        limits,
        uid,
        ...(cgroup ? { cgroupProcs: cgroup.procs } : {}),
      },
      iso,
    );
    return {
      file: cmd.command,
      args: cmd.args,
      env: cmd.env,
      cwd: "/",
      level: iso.level,
      agentCommands:
        command === file
          ? [[file, ...args]]
          : [
              [command, ...commandArgs],
              [file, ...args],
            ],
      oomKills: () => cgroup?.oomKills() ?? 0,
      ...(proxy ? { egress: proxy } : {}),
      done,
    };
  } catch (err) {
    await done();
    throw err;
  }
}
