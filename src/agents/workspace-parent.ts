/**
 * Where trial workspaces are made. Every trial makes a handful of new folders and files and a later `rm` frees
 * them, and what that costs depends on the filesystem. On ext4 without a journal, every new inode is first checked
 * against the inodes freed in the last minute: a run that makes and removes thousands of workspaces pays more per
 * trial the longer it runs. This was measured on the project's 2-core VM, where it was half of the runner's
 * overhead per trial. A RAM-backed tmpfs has no such cost and no disk I/O.
 *
 * The order:
 * 1. the run's explicit folder (`workspaceParent`);
 * 2. `SKILLGATE_WORKSPACE_DIR`;
 * 3. `TMPDIR` when it is set (the user chose it);
 * 4. `/dev/shm` on Linux when it is a tmpfs mounted without `noexec` (agents run what they write) with at least
 *    `SHM_MIN_FREE_BYTES` free, unless the agent's own sandbox mounts a new /dev (Codex's does). The free space is checked again for every batch, so a run that fills RAM moves on.
 * 5. the OS temp folder.
 */
import { accessSync, constants, readdirSync, readFileSync, rmSync, statfsSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const SHM_DIR = "/dev/shm";
/** Room /dev/shm must have before a batch of workspaces goes there: agents' files live in RAM. */
export const SHM_MIN_FREE_BYTES = 4 * 2 ** 30;

/** What the choice looks at; injectable for tests. */
export interface ParentProbe {
  env: NodeJS.ProcessEnv;
  platform: NodeJS.Platform;
  /** `/proc/self/mountinfo`, or undefined where it cannot be read. */
  mountinfo(): string | undefined;
  /** Bytes free for an unprivileged user on the filesystem of `dir`, or undefined. */
  freeBytes(dir: string): number | undefined;
  writable(dir: string): boolean;
  tmpdir(): string;
}

const realProbe: ParentProbe = {
  env: process.env,
  platform: process.platform,
  mountinfo: () => {
    try {
      return readFileSync("/proc/self/mountinfo", "utf8");
    } catch {
      return undefined;
    }
  },
  freeBytes: (dir) => {
    try {
      const s = statfsSync(dir);
      return s.bavail * s.bsize;
    } catch {
      return undefined;
    }
  },
  writable: (dir) => {
    try {
      accessSync(dir, constants.W_OK | constants.X_OK);
      return true;
    } catch {
      return false;
    }
  },
  tmpdir,
};

/**
 * The mount at `point` from mountinfo text (the last one wins: later mounts cover earlier ones): its filesystem
 * type and per-mount options. Format: `id parent major:minor root point options [optional…] - fstype source super`.
 */
export function mountAt(mountinfo: string, point: string): { fstype: string; options: string[] } | undefined {
  let found: { fstype: string; options: string[] } | undefined;
  for (const line of mountinfo.split("\n")) {
    const fields = line.split(" ");
    if (fields[4] !== point) continue;
    const dash = fields.indexOf("-", 6);
    if (dash < 0 || dash + 1 >= fields.length) continue;
    found = { fstype: fields[dash + 1]!, options: (fields[5] ?? "").split(",") };
  }
  return found;
}

export interface WorkspaceParent {
  /** The folder for the next batch (for /dev/shm: re-checked for room each time). */
  next(): string;
  /** Why this parent, for the run's debug log. */
  reason: string;
  /** Removes what killed runs left in RAM (see `sweepStaleBatches`); set for /dev/shm only. */
  sweep?: () => string[];
}

/**
 * Batch folders are named `<prefix>XXXXXX` by mkdtemp: an ordinary name, since agents see it in their paths (a
 * skill could behave well only where a path says skillgate or trial). The sweep also checks what a batch holds.
 */
export const BATCH_PREFIX = "work-";
/** A batch folder untouched for this long belongs to a run that was killed before it could remove it. */
export const STALE_BATCH_MS = 24 * 60 * 60 * 1000;

/**
 * Removes batch folders in `parent` not modified for `STALE_BATCH_MS`: a run killed before its `drain` leaves its
 * workspaces behind, and in /dev/shm they would hold RAM until the next reboot. A live batch gets a new workspace
 * (and so a new mtime) at least every few seconds, and no trial lives for a day. Returns the removed paths.
 */
export function sweepStaleBatches(parent: string, now: number = Date.now()): string[] {
  const removed: string[] = [];
  let names: string[];
  try {
    names = readdirSync(parent);
  } catch {
    return removed;
  }
  for (const name of names) {
    if (!name.startsWith(BATCH_PREFIX)) continue;
    const path = join(parent, name);
    try {
      const st = statSync(path);
      if (!st.isDirectory() || now - st.mtimeMs < STALE_BATCH_MS || !holdsOnlyTrials(path)) continue;
      rmSync(path, { recursive: true, force: true });
      removed.push(path);
    } catch {
      // another user's folder, or gone meanwhile
    }
  }
  return removed;
}

/** A batch holds numbered trial folders only: a folder of another program's with the same prefix is left alone. */
function holdsOnlyTrials(path: string): boolean {
  return readdirSync(path).every((n) => /^\d+$/.test(n));
}

export function chooseWorkspaceParent(
  explicit?: string,
  probe: ParentProbe = realProbe,
  /** Why the agent's workspaces must not be in /dev/shm, when they must not. */
  avoidShm?: string,
): WorkspaceParent {
  const fixed = (dir: string, reason: string): WorkspaceParent => ({ next: () => dir, reason });
  if (explicit) return fixed(explicit, `trial workspaces in ${explicit} (set by the run)`);
  const fromEnv = probe.env.SKILLGATE_WORKSPACE_DIR;
  if (fromEnv) return fixed(fromEnv, `trial workspaces in ${fromEnv} (SKILLGATE_WORKSPACE_DIR)`);
  const fallback = probe.tmpdir();
  if (probe.env.TMPDIR) return fixed(fallback, `trial workspaces in ${fallback} (TMPDIR)`);
  const why = avoidShm ?? shmUnusable(probe);
  if (why) return fixed(fallback, `trial workspaces in ${fallback} (${SHM_DIR} not used: ${why})`);
  return {
    next: () => ((probe.freeBytes(SHM_DIR) ?? 0) >= SHM_MIN_FREE_BYTES ? SHM_DIR : fallback),
    sweep: () => sweepStaleBatches(SHM_DIR),
    reason: `trial workspaces in ${SHM_DIR} (tmpfs) while it has ${SHM_MIN_FREE_BYTES / 2 ** 30} GiB free, else ${fallback}`,
  };
}

function shmUnusable(probe: ParentProbe): string | undefined {
  if (probe.platform !== "linux") return "not Linux";
  const info = probe.mountinfo();
  if (info === undefined) return "/proc/self/mountinfo unreadable";
  const mount = mountAt(info, SHM_DIR);
  if (!mount) return "not mounted";
  if (mount.fstype !== "tmpfs") return `a ${mount.fstype}, not a tmpfs`;
  if (mount.options.includes("noexec")) return "mounted noexec";
  if (!probe.writable(SHM_DIR)) return "not writable";
  const free = probe.freeBytes(SHM_DIR);
  if (free === undefined || free < SHM_MIN_FREE_BYTES) {
    return `${free === undefined ? "unknown" : `${(free / 2 ** 30).toFixed(1)} GiB`} free, below ${SHM_MIN_FREE_BYTES / 2 ** 30} GiB`;
  }
  return undefined;
}
