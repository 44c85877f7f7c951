/**
 * Teardown of a confined run. bubblewrap's first process inside is the pid namespace's init; when it dies the
 * kernel kills every process of the namespace and waits for them (zap_pid_ns_processes) before the init itself
 * is done. `--die-with-parent` makes that init die with bubblewrap. So "the init's namespace link is gone" means
 * "nothing of the run is left": a `setsid` or double-forked survivor cannot outlive it.
 */
import { readFileSync, readlinkSync } from "node:fs";

/** How long teardown waits for the namespace to empty after bubblewrap ended. */
const TEARDOWN_WAIT_MS = 10_000;
const TEARDOWN_POLL_MS = 5;

/** What bubblewrap's `--info-fd` reports. */
export interface NamespaceInfo {
  /** Pid (in our namespace) of the sandbox's init. */
  initPid: number;
  /** `pid:[inode]` of the sandbox's pid namespace, as /proc/<pid>/ns/pid reads. */
  pidNamespace: string;
}

/** Parses bubblewrap's info JSON; undefined until it is complete and well-formed. */
export function parseNamespaceInfo(text: string): NamespaceInfo | undefined {
  try {
    const info = JSON.parse(text) as Record<string, unknown>;
    const pid = info["child-pid"];
    const ns = info["pid-namespace"];
    if (typeof pid !== "number" || typeof ns !== "number") return undefined;
    return { initPid: pid, pidNamespace: `pid:[${ns}]` };
  } catch {
    return undefined;
  }
}

/** The pid namespace of `pid` (`pid:[inode]`), or undefined when the process is gone (or a zombie). */
export function pidNamespaceOf(pid: number | string): string | undefined {
  try {
    return readlinkSync(`/proc/${pid}/ns/pid`);
  } catch {
    return undefined;
  }
}

/** State letter of /proc/<pid>/stat (`Z` zombie, `X` dead), or undefined when the process is gone. */
function processState(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "latin1");
    return stat.charAt(stat.lastIndexOf(")") + 2);
  } catch {
    return undefined;
  }
}

/**
 * Whether the sandbox's init is still alive in its namespace (a reused pid elsewhere does not count). bubblewrap
 * exits as soon as its init reports the command's status, so the init may be a zombie for a while, reparented to
 * the machine's init: a zombie init has already emptied its namespace.
 */
function namespaceAlive(info: NamespaceInfo): boolean {
  if (pidNamespaceOf(info.initPid) !== info.pidNamespace) return false;
  const state = processState(info.initPid);
  return state !== undefined && state !== "Z" && state !== "X";
}

/**
 * Kills the namespace's init (which takes the whole namespace with it) and resolves once it is gone, or false
 * after `TEARDOWN_WAIT_MS`.
 */
export async function endNamespace(info: NamespaceInfo): Promise<boolean> {
  const deadline = Date.now() + TEARDOWN_WAIT_MS;
  while (namespaceAlive(info)) {
    try {
      process.kill(info.initPid, "SIGKILL");
    } catch {
      // gone meanwhile, or not ours to signal (then the wait below tells)
    }
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, TEARDOWN_POLL_MS));
  }
  return true;
}
