/**
 * Memory and process bounds over a confined run's whole process tree: a control group per run where the machine
 * lets skillgate make one, else per-process resource limits only. Strongest first:
 *
 * - `cgroup v2`: a cgroup of the unified hierarchy per run, below one skillgate makes at the hierarchy's root for
 *   this process: `memory.max` (the whole tree, page cache and its tmpfs /tmp included), `memory.swap.max` 0,
 *   `pids.max`; teardown writes `cgroup.kill`. What a GitHub-hosted runner (Ubuntu 22.04/24.04, systemd, cgroup v2)
 *   gets with sudo.
 * - `cgroup v1`: the v1 `memory` and `pids` hierarchies (hybrid machines, e.g. this repository's CI): a cgroup per
 *   run below skillgate's own, `memory.limit_in_bytes` (+ `memory.memsw.limit_in_bytes` where swap is accounted),
 *   `pids.max`; teardown kills every process listed in it.
 * - `rlimits`: no cgroup can be made (not root, a read-only /sys/fs/cgroup in a container, no memory controller):
 *   only the per-process limits every confined run gets anyway (RLIMIT_DATA per process, RLIMIT_NPROC per sandbox
 *   uid). The tree's total is then bounded by their product, and for gate children and commands by the resident
 *   memory watch (src/sandbox/process.ts).
 *
 * The confined command joins its cgroups before bubblewrap starts (the launcher in bwrap.ts writes its own pid into
 * each `cgroup.procs`, then execs bubblewrap), so nothing of the run is ever outside them. The sandbox itself has
 * no /sys and its own cgroup namespace: it cannot see or change its limits.
 */
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ResourceLevel } from "../../model/report.js";

export type { ResourceLevel };

/** What this machine offers for bounding a run's tree, found once per process. */
export interface ResourceHost {
  level: ResourceLevel;
  /** One line for the report: what bounds a run's tree, and why not a cgroup. */
  reason: string;
  /** cgroup v2: the folder skillgate made for this process (runs are made below it). */
  v2?: string;
  /** cgroup v1: the folders of this process's cgroups in the memory and pids hierarchies (runs made below). */
  v1?: { memory: string; pids?: string };
}

/** The bounds of one run's tree. */
export interface TreeLimits {
  memoryBytes: number;
  processes: number;
}

/** A run's cgroups: the launcher joins `procs`; `end` kills what is left and removes them. */
export interface RunCgroup {
  /** `cgroup.procs` files the launcher writes its pid into, before it execs bubblewrap. */
  procs: string[];
  /** How many times the kernel's OOM killer struck in the run's cgroup. */
  oomKills(): number;
  /** SIGKILLs everything left and removes the cgroups; false when something was still there after the wait. */
  end(): Promise<boolean>;
}

/** How long teardown waits for a killed cgroup to empty (the pid namespace's teardown waits as long). */
const CGROUP_EMPTY_WAIT_MS = 10_000;
const CGROUP_POLL_MS = 5;

interface Mount {
  root: string;
  point: string;
  fstype: string;
  options: string[];
}

function mounts(): Mount[] {
  try {
    return readFileSync("/proc/self/mountinfo", "utf8")
      .split("\n")
      .flatMap((line) => {
        const [left, right] = line.split(" - ");
        if (!left || !right) return [];
        const f = left.split(" ");
        const [fstype, , superOptions = ""] = right.split(" ");
        return [
          { root: f[3] ?? "/", point: f[4] ?? "", fstype: fstype ?? "", options: superOptions.split(",") },
        ];
      });
  } catch {
    return [];
  }
}

/** This process's cgroup path per hierarchy: `""` for v2's, the controller names for v1's. */
function ownCgroups(): Map<string, string> {
  const own = new Map<string, string>();
  try {
    for (const line of readFileSync("/proc/self/cgroup", "utf8").split("\n")) {
      const m = /^\d+:([^:]*):(.*)$/.exec(line);
      if (!m) continue;
      for (const c of (m[1] as string).split(",")) own.set(c, m[2] as string);
    }
  } catch {
    // not Linux
  }
  return own;
}

/** Where cgroup `path` of a hierarchy mounted at `m` is, or undefined when the mount does not show it. */
function folderOf(m: Mount, path: string): string | undefined {
  const root = m.root === "/" ? "" : m.root;
  if (root && path !== root && !path.startsWith(`${root}/`)) return undefined;
  return join(m.point, path.slice(root.length));
}

const read = (file: string): string => {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return "";
  }
};

/** Tries cgroup v2: a folder at the unified hierarchy's root with the memory and pids controllers for its children. */
function tryV2(tag: string): { v2?: string; why: string } {
  const m = mounts().find((x) => x.fstype === "cgroup2");
  if (!m) return { why: "no cgroup v2 hierarchy is mounted" };
  const top = m.point;
  const available = read(join(top, "cgroup.controllers")).trim().split(/\s+/);
  if (!available.includes("memory") || !available.includes("pids"))
    return {
      why: `cgroup v2 at ${top} lacks the memory or pids controller (it has: ${available.join(" ") || "none"})`,
    };
  const dir = join(top, tag);
  sweepStale(top);
  try {
    const enabled = read(join(top, "cgroup.subtree_control")).split(/\s+/);
    if (!enabled.includes("memory") || !enabled.includes("pids"))
      writeFileSync(join(top, "cgroup.subtree_control"), "+memory +pids");
    mkdirSync(dir);
    writeFileSync(join(dir, "cgroup.subtree_control"), "+memory +pids");
    return { v2: dir, why: "" };
  } catch (err) {
    try {
      rmdirSync(dir);
    } catch {
      // never made
    }
    return { why: `cannot make a cgroup v2 at ${top}: ${(err as NodeJS.ErrnoException).code ?? err}` };
  }
}

/** Tries cgroup v1: folders below this process's own memory (and pids) cgroups. */
function tryV1(tag: string): { v1?: { memory: string; pids?: string }; why: string } {
  const own = ownCgroups();
  const all = mounts().filter((x) => x.fstype === "cgroup");
  const folder = (controller: string): string | undefined => {
    const m = all.find((x) => x.options.includes(controller));
    const path = own.get(controller);
    return m && path !== undefined ? folderOf(m, path) : undefined;
  };
  const memory = folder("memory");
  if (!memory) return { why: "no cgroup v1 memory hierarchy holds this process" };
  const pids = folder("pids");
  const made: string[] = [];
  sweepStale(memory);
  if (pids) sweepStale(pids);
  try {
    mkdirSync(join(memory, tag));
    made.push(join(memory, tag));
    if (pids) {
      mkdirSync(join(pids, tag));
      made.push(join(pids, tag));
    }
    return { v1: { memory: join(memory, tag), ...(pids ? { pids: join(pids, tag) } : {}) }, why: "" };
  } catch (err) {
    for (const d of made.reverse()) {
      try {
        rmdirSync(d);
      } catch {
        // leave it
      }
    }
    return { why: `cannot make a cgroup v1 below ${memory}: ${(err as NodeJS.ErrnoException).code ?? err}` };
  }
}

/**
 * Removes what earlier skillgate processes left in `parent` (a process killed without its exit hook, a test
 * worker): their `skillgate-<pid>-*` folders, when that pid is gone, and their empty run cgroups. A folder still
 * holding processes cannot be removed (the kernel refuses): it stays.
 */
function sweepStale(parent: string): void {
  let names: string[];
  try {
    names = readdirSync(parent);
  } catch {
    return;
  }
  for (const name of names) {
    const m = /^skillgate-(\d+)-[0-9a-f]+$/.exec(name);
    if (!m || existsSync(`/proc/${m[1]}`)) continue;
    const dir = join(parent, name);
    try {
      for (const run of readdirSync(dir, { withFileTypes: true }))
        if (run.isDirectory() && run.name.startsWith("run-")) rmdirSync(join(dir, run.name));
      rmdirSync(dir);
    } catch {
      // still in use, or not ours to remove
    }
  }
}

let host: ResourceHost | undefined;
/** A level asked for (tests, or a cgroup a run could not join): used instead of what was found. */
let forced: ResourceHost | undefined;
const RLIMITS_ONLY =
  "per-process limits only (RLIMIT_DATA per process, RLIMIT_NPROC per sandbox uid): no bound on the tree's total memory";

/**
 * Finds what bounds a run's tree here: makes skillgate's own cgroup folder (removed at exit) when it can. Only for
 * root: anyone else would need a delegated cgroup, which skillgate does not look for.
 */
export function resourceHost(): ResourceHost {
  if (forced) return forced;
  if (host) return host;
  if (process.platform !== "linux") {
    host = { level: "rlimits", reason: `${RLIMITS_ONLY} (cgroups need Linux)` };
    return host;
  }
  if (process.getuid?.() !== 0) {
    host = { level: "rlimits", reason: `${RLIMITS_ONLY} (making cgroups needs root)` };
    return host;
  }
  const tag = `skillgate-${process.pid}-${randomBytes(4).toString("hex")}`;
  const v2 = tryV2(tag);
  if (v2.v2)
    host = {
      level: "cgroup v2",
      reason: "a cgroup v2 per run: memory.max, memory.swap.max, pids.max, cgroup.kill",
      v2: v2.v2,
    };
  else {
    const v1 = tryV1(tag);
    if (v1.v1)
      host = {
        level: "cgroup v1",
        reason: `a cgroup v1 per run: memory limit${v1.v1.pids ? ", pids.max" : ""}, every process killed at the end (${v2.why})`,
        v1: v1.v1,
      };
    else host = { level: "rlimits", reason: `${RLIMITS_ONLY} (${v2.why}; ${v1.why})` };
  }
  const made = host;
  if (made.level !== "rlimits")
    process.on("exit", () => {
      for (const d of [made.v2, made.v1?.memory, made.v1?.pids])
        if (d)
          try {
            rmdirSync(d);
          } catch {
            // a run's cgroup still there: the kernel keeps it until it empties
          }
    });
  return host;
}

/** Runs get per-process limits only from now on (`rlimits`), or again what was found (no argument). */
export function resetResourceHost(level?: "rlimits"): void {
  forced = level ? { level, reason: `${RLIMITS_ONLY} (no cgroup used)` } : undefined;
}

let runCount = 0;

function killListed(dir: string): number {
  const pids = read(join(dir, "cgroup.procs")).split("\n").filter(Boolean);
  for (const pid of pids) {
    try {
      process.kill(Number(pid), "SIGKILL");
    } catch {
      // gone
    }
  }
  return pids.length;
}

async function removeWhenEmpty(dirs: string[], kill: () => void): Promise<boolean> {
  const deadline = Date.now() + CGROUP_EMPTY_WAIT_MS;
  let left = dirs.filter((d) => existsSync(d));
  while (left.length > 0) {
    kill();
    left = left.filter((d) => {
      try {
        rmdirSync(d);
        return false;
      } catch (err) {
        return (err as NodeJS.ErrnoException).code !== "ENOENT";
      }
    });
    if (left.length === 0) return true;
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, CGROUP_POLL_MS));
  }
  return true;
}

const num = (text: string, key: string): number => {
  const m = new RegExp(`^${key} (\\d+)$`, "m").exec(text);
  return m ? Number(m[1]) : 0;
};

/** A run's cgroup(s) with `limits`, or undefined at level `rlimits` (or when making one fails now). */
export function makeRunCgroup(limits: TreeLimits): RunCgroup | undefined {
  const h = resourceHost();
  const name = `run-${++runCount}`;
  if (h.v2) {
    const dir = join(h.v2, name);
    try {
      mkdirSync(dir);
      writeFileSync(join(dir, "memory.max"), String(limits.memoryBytes));
      if (existsSync(join(dir, "memory.swap.max"))) writeFileSync(join(dir, "memory.swap.max"), "0");
      writeFileSync(join(dir, "pids.max"), String(limits.processes));
    } catch {
      void removeWhenEmpty([dir], () => {});
      return undefined;
    }
    return {
      procs: [join(dir, "cgroup.procs")],
      oomKills: () => num(read(join(dir, "memory.events")), "oom_kill"),
      end: () =>
        removeWhenEmpty([dir], () => {
          try {
            writeFileSync(join(dir, "cgroup.kill"), "1");
          } catch {
            killListed(dir); // kernels before 5.14 have no cgroup.kill
          }
        }),
    };
  }
  if (h.v1) {
    const mem = join(h.v1.memory, name);
    const pids = h.v1.pids ? join(h.v1.pids, name) : undefined;
    const dirs = [mem, ...(pids ? [pids] : [])];
    try {
      mkdirSync(mem);
      writeFileSync(join(mem, "memory.limit_in_bytes"), String(limits.memoryBytes));
      // Where swap is accounted, the same total for memory + swap: no swapping past the cap.
      if (existsSync(join(mem, "memory.memsw.limit_in_bytes")))
        writeFileSync(join(mem, "memory.memsw.limit_in_bytes"), String(limits.memoryBytes));
      if (pids) {
        mkdirSync(pids);
        writeFileSync(join(pids, "pids.max"), String(limits.processes));
      }
    } catch {
      void removeWhenEmpty(dirs, () => {});
      return undefined;
    }
    return {
      procs: dirs.map((d) => join(d, "cgroup.procs")),
      oomKills: () => num(read(join(mem, "memory.oom_control")), "oom_kill"),
      end: () =>
        removeWhenEmpty(dirs, () => {
          for (const d of dirs) killListed(d);
        }),
    };
  }
  return undefined;
}
