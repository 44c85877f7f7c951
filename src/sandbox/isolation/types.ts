/** The records of OS-level isolation: how strongly untrusted processes are confined, and what one run gets. */

import type { IsolationLevel } from "../../model/report.js";
import type { ResourceLevel } from "./cgroup.js";

/**
 * How untrusted code is confined on this machine (the type lives in the model: the report carries it):
 * - `uid+namespaces`: bubblewrap started by root, the untrusted process dropped to a sandbox uid of its own (never
 *   skillgate's), its own pid/ipc/uts/net/mount namespaces, only the paths it needs bound.
 * - `namespaces`: bubblewrap in an unprivileged user namespace: the same namespaces, but the process keeps
 *   skillgate's uid (mapped), so a file skillgate can read that is bound into it is readable.
 * - `none`: plain child processes (timeout, memory cap, scrubbed environment, Node's permission model for gate
 *   children): no OS boundary at all.
 */
export type { IsolationLevel };

/** Strongest first. */
export const ISOLATION_LEVELS: readonly IsolationLevel[] = ["uid+namespaces", "namespaces", "none"];

/** Absolute paths of the well-kept tools the confinement is made of. */
export interface IsolationTools {
  /** bubblewrap. */
  bwrap: string;
  /** util-linux: drops to the sandbox uid inside the namespaces (uid+namespaces only). */
  setpriv: string;
  /** util-linux: per-process resource limits (processes, file size, open files, data size, core dumps). */
  prlimit: string;
  /** The launcher's shell (bash, else /bin/sh): joins the run's cgroups and closes stray descriptors (bwrap.ts). */
  shell: string;
}

/** System entries of the root folder: a real folder is bound read-only, a symbolic link (merged /usr) re-made. */
export interface SystemEntry {
  path: string;
  /** Target of the link when the entry is one (e.g. `usr/bin` for `/bin`). */
  link?: string;
}

/** What the host offers the sandbox, read once per process. */
export interface HostLayout {
  system: SystemEntry[];
  /** Entries of /etc a program may need (dynamic linker, certificates, time zone, alternatives) that exist here. */
  etc: string[];
  /**
   * The target of /etc/localtime when it is a link into /usr/share/zoneinfo: made a link inside too. A bound copy
   * has no zone name, and a runtime that needs one (ICU, as in Claude Code) opens every zone file to find it.
   */
  localtime?: string;
}

export interface Isolation {
  level: IsolationLevel;
  /** One line for the report: what this level is, and why not a stronger one. */
  reason: string;
  /** What bounds a run's whole tree (memory, processes): a cgroup, or per-process limits only (cgroup.ts). */
  resources: { level: ResourceLevel; reason: string };
  tools?: IsolationTools;
  layout?: HostLayout;
}

/** Resource limits of one confined run (applied by prlimit inside the namespaces). */
export interface ConfineLimits {
  /** RLIMIT_NPROC: processes and threads of the run's uid (a fork bomb stops here). */
  processes: number;
  /** RLIMIT_FSIZE: largest file the run may write, bytes. */
  fileSizeBytes: number;
  /** Size of the private /tmp (a tmpfs: RAM, gone with the run). */
  tmpBytes: number;
  /** RLIMIT_NOFILE. */
  openFiles: number;
  /**
   * RLIMIT_DATA: heap and private writable mappings of each process, bytes (V8 reserves its heap cage without
   * write access, which does not count; RLIMIT_AS would). The per-process bound where no cgroup bounds the tree.
   */
  dataBytes: number;
  /** The whole tree's memory (cgroup `memory.max`, page cache and the tmpfs /tmp included), bytes. */
  memoryBytes: number;
}

/** One confined run: the command and exactly what it may see and touch. */
export interface Confinement {
  command: string;
  args: readonly string[];
  /** Working directory inside the sandbox (must be bound, or /tmp). */
  cwd: string;
  env: Readonly<Record<string, string>>;
  /** Host paths bound read-only at the same path. */
  readOnly: readonly string[];
  /** Host paths bound read-write at the same path: the only writable host paths. */
  writable: readonly string[];
  /** Files made for this run, bound read-only: sandbox path → host file (e.g. `/etc/passwd`). */
  files: Readonly<Record<string, string>>;
  limits: ConfineLimits;
  /** Uid (and gid) the untrusted process runs as at `uid+namespaces`. */
  uid: number;
  /** `cgroup.procs` files of the run's cgroups, joined before bubblewrap starts (see cgroup.ts); none: no cgroup. */
  cgroupProcs?: readonly string[];
  /** Descriptors above stdio the sandbox keeps (a result channel); every other one is closed before bubblewrap. */
  keepFds?: readonly number[];
  /** Where bubblewrap writes the namespaces it made (JSON with `child-pid` and `pid-namespace`); none if unset. */
  infoFd?: number;
}

/** A confined command ready to spawn. */
export interface ConfinedCommand {
  command: string;
  args: string[];
  /** Environment of the spawned wrapper (bubblewrap passes it on; prlimit and setpriv keep it). */
  env: Record<string, string>;
}
