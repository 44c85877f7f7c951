/**
 * Who made whom in a trial's trace, and which processes are the agent's: a process becomes the agent's when it
 * starts the agent command, and every process it makes after that is the agent's too (the tree is followed
 * through clone/fork/vfork, threads folded into their process).
 */
import type { Syscall } from "./strace.js";

export interface Proc {
  agent: boolean;
  argv: readonly string[];
  cwd?: string;
  /** Installed skills' files this process or an ancestor ran. */
  skillFiles: { skill: string; file: string }[];
  /** The command the agent started that this process descends from (its tool call's shell): `originOf`. */
  origin?: string;
}

/** A clone whose child has not yet been seen. */
interface Birth {
  parent: number;
  thread: boolean;
  /** The child's id in the parent's pid namespace. */
  id?: number;
  taken: boolean;
}

/** The child's id a clone returns, as its parent sees it (inside a pid namespace: the namespace's id). */
function childId(result: string): number | undefined {
  const m = /^(\d+)/.exec(result);
  return m ? Number(m[1]) : undefined;
}

export class ProcessTree {
  /** Set once a process has started the agent command: a process with no known parent after it is the agent's. */
  agentStarted = false;
  private readonly procs = new Map<number, Proc>();
  private readonly threadOf = new Map<number, number>();
  private readonly parentOf = new Map<number, number>();

  /**
   * Who made whom. strace names every process by its host pid, but a clone made inside the sandbox returns the
   * child's id in the sandbox's pid namespace (strace's own translation, `--decode-pids=pidns`, scans /proc of the
   * whole host for each one: seconds per trial on a busy machine). A new program's first call, set_tid_address,
   * returns that id: a child that runs a program is matched to the clone that made it exactly. Any other child (a
   * subshell, a thread) is given the latest clone entered before its first call whose child is not yet placed:
   * strace prints a clone's entry before the child it makes can run.
   */
  constructor(calls: readonly Syscall[]) {
    const idOf = new Map<number, number>();
    for (const c of calls)
      if (c.name === "set_tid_address" && !idOf.has(c.pid)) idOf.set(c.pid, Number(c.result));
    const births: Birth[] = [];
    const seen = new Set<number>();
    for (const c of calls) {
      if (!seen.has(c.pid)) {
        if (seen.size > 0) this.place(c.pid, births, idOf.get(c.pid));
        seen.add(c.pid);
      }
      if (/^(?:clone3?|v?fork)$/.test(c.name))
        births.push({
          parent: this.tgid(c.pid),
          thread: /CLONE_THREAD/.test(c.args[0] ?? ""),
          id: childId(c.result),
          taken: false,
        });
    }
  }

  private place(pid: number, births: Birth[], id: number | undefined): void {
    let birth: Birth | undefined;
    for (let i = births.length - 1; i >= 0 && !birth; i--) {
      const b = births[i]!;
      if (!b.taken && !b.thread && id !== undefined && b.id === id) birth = b;
    }
    for (let i = births.length - 1; i >= 0 && !birth; i--) if (!births[i]!.taken) birth = births[i];
    if (!birth) return;
    birth.taken = true;
    if (birth.thread) this.threadOf.set(pid, birth.parent);
    else this.parentOf.set(pid, birth.parent);
  }

  /** The process a thread belongs to (a process is its own). */
  tgid(pid: number): number {
    return this.threadOf.get(pid) ?? pid;
  }

  /** The process of `pid`, made on first sight from its parent's state at that moment. */
  proc(pid: number): Proc {
    const id = this.tgid(pid);
    let p = this.procs.get(id);
    if (!p) {
      const parentId = this.parentOf.get(id);
      const parent = parentId !== undefined && parentId !== id ? this.proc(parentId) : undefined;
      // With no parent known, a process that starts once the agent runs is the agent's.
      p = parent
        ? {
            agent: parent.agent,
            argv: parent.argv,
            cwd: parent.cwd,
            skillFiles: [...parent.skillFiles],
            ...(parent.origin !== undefined ? { origin: parent.origin } : {}),
          }
        : { agent: this.agentStarted, argv: [], skillFiles: [] };
      this.procs.set(id, p);
    }
    return p;
  }
}
