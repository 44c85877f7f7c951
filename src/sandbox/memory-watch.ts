/**
 * The resident memory of running sandboxes, sampled from /proc (Linux): one poller for every watched process
 * group or pid namespace.
 */
import { readdirSync, readFileSync } from "node:fs";
import { pidNamespaceOf } from "./isolation/teardown.js";

/** How often the memory of the process group is sampled. */
const MEMORY_POLL_MS = 50;
const PAGE_BYTES = 4096;

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

/** The one poller of this process. */
export const memoryWatch = new MemoryWatch();
