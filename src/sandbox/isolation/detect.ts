/**
 * Which isolation level this machine reaches, found once per process by running a probe through the real
 * confinement (a level is what works, not what the tools' presence suggests).
 *
 * `SKILLGATE_ISOLATION` (the operator's environment, never the pull request's) may only lower the level: `none`
 * or `namespaces`. Tests use it to exercise the weaker paths on a machine that reaches the strongest.
 */
import { execFile } from "node:child_process";
import { accessSync, constants, existsSync, lstatSync, readlinkSync } from "node:fs";
import { delimiter, dirname, join, resolve } from "node:path";
import { confinedCommand } from "./bwrap.js";
import { makeRunCgroup, resetResourceHost, resourceHost } from "./cgroup.js";
import { ISOLATION_LEVELS, type Isolation, type IsolationLevel, type IsolationTools } from "./types.js";

const ISOLATION_SWITCH = "SKILLGATE_ISOLATION";
/** Time the probe may take (a bubblewrap start is a few milliseconds; a busy machine may take longer). */
const PROBE_TIMEOUT_MS = 15_000;
/** The probe's sandbox uid: any uid that is not ours. */
const PROBE_UID = 1_999_999_999;
/** The probe's memory limits (a shell that exits). */
const PROBE_MEMORY_BYTES = 64 * 1024 * 1024;

/** Top-level system folders a program needs (merged-/usr systems have links for all but /usr). */
const SYSTEM_ENTRIES = ["/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"];
/** /etc entries programs read: the dynamic linker, TLS roots, time zone, alternatives, name service order. */
const ETC_ENTRIES = [
  "/etc/ld.so.cache",
  "/etc/ld.so.conf",
  "/etc/ld.so.conf.d",
  "/etc/alternatives",
  "/etc/ssl",
  "/etc/ca-certificates",
  "/etc/pki",
  "/etc/localtime",
  "/etc/timezone",
  "/etc/nsswitch.conf",
  "/etc/host.conf",
  "/etc/gai.conf",
  "/etc/mime.types",
];

/** Trusted locations first: the system's own, then PATH. */
function findTool(name: string): string | undefined {
  const dirs = ["/usr/bin", "/bin", "/usr/sbin", "/sbin", ...(process.env.PATH ?? "").split(delimiter)];
  for (const dir of dirs) {
    if (!dir.startsWith("/")) continue;
    const file = join(dir, name);
    try {
      accessSync(file, constants.X_OK);
      return file;
    } catch {
      // not here
    }
  }
  return undefined;
}

function hostLayout(): Isolation["layout"] {
  const system: { path: string; link?: string }[] = [];
  for (const path of SYSTEM_ENTRIES) {
    try {
      const st = lstatSync(path);
      if (st.isSymbolicLink()) system.push({ path, link: readlinkSync(path) });
      else if (st.isDirectory()) system.push({ path });
    } catch {
      // absent on this system
    }
  }
  const localtime = zoneLink();
  const etc = ETC_ENTRIES.filter((e) => existsSync(e) && !(localtime && e === LOCALTIME));
  return { system, etc, ...(localtime ? { localtime } : {}) };
}

const LOCALTIME = "/etc/localtime";

/** The target of /etc/localtime when it is a link to a zone file under /usr (bound inside), else undefined. */
function zoneLink(): string | undefined {
  try {
    if (!lstatSync(LOCALTIME).isSymbolicLink()) return undefined;
    const link = readlinkSync(LOCALTIME);
    return resolve(dirname(LOCALTIME), link).startsWith("/usr/share/zoneinfo/") ? link : undefined;
  } catch {
    return undefined;
  }
}

function runProbe(iso: Isolation, cgroupProcs?: readonly string[]): Promise<string | undefined> {
  const cmd = confinedCommand(
    {
      command: "/bin/sh",
      args: ["-c", "exit 0"],
      cwd: "/tmp",
      env: { PATH: "/usr/bin:/bin" },
      readOnly: [],
      writable: [],
      files: {},
      limits: {
        processes: 16,
        fileSizeBytes: 1024,
        tmpBytes: 1024 * 1024,
        openFiles: 64,
        dataBytes: PROBE_MEMORY_BYTES,
        memoryBytes: PROBE_MEMORY_BYTES,
      },
      uid: PROBE_UID,
      infoFd: 2,
      ...(cgroupProcs ? { cgroupProcs } : {}),
    },
    iso,
  );
  return new Promise((resolve) => {
    execFile(cmd.command, cmd.args, { env: cmd.env, timeout: PROBE_TIMEOUT_MS }, (err, _out, stderr) => {
      // --info-fd 2 puts bubblewrap's JSON on stderr: only a failure's text matters.
      resolve(err ? (stderr.replace(/\{[\s\S]*\}/, "").trim() || err.message).split("\n")[0] : undefined);
    });
  });
}

const DESCRIBE: Record<IsolationLevel, string> = {
  "uid+namespaces":
    "bubblewrap as root: a sandbox uid of its own, own pid/ipc/uts/net/mount namespaces, only the needed paths bound",
  namespaces:
    "bubblewrap in an unprivileged user namespace: own pid/ipc/uts/net/mount namespaces, but skillgate's own uid",
  none: "plain child processes: timeout, memory cap and a scrubbed environment, no OS boundary",
};

/**
 * Probes `iso` as a run gets it: in a run's cgroup where the machine has them (one probe, the common case). When
 * that fails, once more without a cgroup: if the level works without, runs get per-process limits only (never a run
 * that cannot start). Undefined `failed` means the returned level works.
 */
async function probeLevel(iso: Isolation): Promise<{ iso: Isolation; failed?: string }> {
  if (iso.resources.level !== "rlimits") {
    const cgroup = makeRunCgroup({ memoryBytes: PROBE_MEMORY_BYTES, processes: 16 });
    const inCgroup = cgroup ? await runProbe(iso, cgroup.procs) : "cannot make a run's cgroup";
    await cgroup?.end();
    if (!inCgroup) return { iso };
    const failed = await runProbe(iso);
    if (failed) return { iso, failed };
    resetResourceHost("rlimits");
    const reason = `${resourceHost().reason}; a run in a cgroup failed: ${inCgroup}`;
    return { iso: { ...iso, resources: { level: "rlimits", reason } } };
  }
  const failed = await runProbe(iso);
  return failed ? { iso, failed } : { iso };
}

/** Finds the strongest level that works here (no caching: see `isolation()`). */
export async function detectIsolation(
  requested: string | undefined = process.env[ISOLATION_SWITCH],
): Promise<Isolation> {
  const cap = ISOLATION_LEVELS.includes(requested as IsolationLevel)
    ? (requested as IsolationLevel)
    : undefined;
  // The operator's cap, after whatever failed above it (nothing, when root asks for less).
  const capped = (why: string) =>
    [why, `${ISOLATION_SWITCH}=${cap} asks for no more`].filter(Boolean).join("; ");
  const none = (why: string): Isolation => ({
    level: "none",
    reason: `${DESCRIBE.none} (${why})`,
    resources: { level: "rlimits", reason: "no OS limits: the resident-memory watch and timeouts only" },
  });
  if (cap === "none") return none(capped("isolation switched off"));
  if (process.platform !== "linux") return none("bubblewrap needs Linux");
  const bwrap = findTool("bwrap");
  const setpriv = findTool("setpriv");
  const prlimit = findTool("prlimit");
  if (!bwrap) return none("bubblewrap (bwrap) is not installed: apt-get install bubblewrap");
  if (!prlimit || !setpriv) return none("util-linux's prlimit and setpriv are needed beside bubblewrap");
  // The launcher's shell: bash closes any stray descriptor, a POSIX sh only 3-9 (bwrap.ts LAUNCHER).
  const shell = findTool("bash") ?? "/bin/sh";
  const tools: IsolationTools = { bwrap, setpriv, prlimit, shell };
  const layout = hostLayout();
  const host = resourceHost();
  const resources = { level: host.level, reason: host.reason };
  const failures: string[] = [];
  const isRoot = process.getuid?.() === 0;
  if (!isRoot) failures.push("uid+namespaces needs root (run skillgate with sudo)");
  else if (cap !== "namespaces") {
    // The action re-runs itself through password-less sudo as a runner user (src/github/elevate.ts): say so.
    const sudoer = process.env.SUDO_UID ? ` (root through sudo, for uid ${process.env.SUDO_UID})` : "";
    const iso: Isolation = {
      level: "uid+namespaces",
      reason: `${DESCRIBE["uid+namespaces"]}${sudoer}`,
      resources,
      tools,
      layout,
    };
    const probed = await probeLevel(iso);
    if (!probed.failed) return probed.iso;
    failures.push(`uid+namespaces failed: ${probed.failed}`);
  }
  const weaker: Isolation = {
    level: "namespaces",
    reason: DESCRIBE.namespaces,
    resources,
    tools,
    layout,
  };
  const probed = await probeLevel(weaker);
  if (!probed.failed)
    return {
      ...probed.iso,
      reason: `${DESCRIBE.namespaces} (${cap ? capped(failures.join("; ")) : failures.join("; ")})`,
    };
  failures.push(
    `unprivileged user namespaces failed: ${probed.failed} (Ubuntu 24.04's AppArmor blocks them: run as root, or allow them)`,
  );
  return none(failures.join("; "));
}

let detected: Promise<Isolation> | undefined;

/** The isolation of this process, detected on first use. */
export function isolation(): Promise<Isolation> {
  detected ??= detectIsolation();
  return detected;
}
