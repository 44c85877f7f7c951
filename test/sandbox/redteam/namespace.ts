/** Host-side view of a sandbox's pid namespace, for red-team tests that check nothing outlived a run. */
import { readdirSync, readFileSync, readlinkSync } from "node:fs";

/** Live (not zombie) processes of pid namespace `ns` (`pid:[inode]`, as /proc/<pid>/ns/pid reads). */
export function processesIn(ns: string): string[] {
  return readdirSync("/proc").filter((pid) => {
    if (!/^\d+$/.test(pid)) return false;
    try {
      return (
        !/^\d+ \(.*\) [ZX]/.test(readFileSync(`/proc/${pid}/stat`, "utf8")) &&
        readlinkSync(`/proc/${pid}/ns/pid`) === ns
      );
    } catch {
      return false;
    }
  });
}
