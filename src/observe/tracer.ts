/**
 * Watches every process of an agent trial with strace (Debian/Ubuntu package `strace`), from outside the sandbox:
 * strace starts the confined command (the launcher, bubblewrap, the agent) and follows every process and thread it
 * makes (`-f`), so nothing the agent starts (a script, a `curl`, a background `setsid` child) runs unseen, and no
 * process inside can detach it or write its output (the trace goes to a folder made for the run, outside the
 * sandbox). `--seccomp-bpf` stops a process only on the calls listed here, so the rest runs at full speed. Why
 * strace and not seccomp user notification, fanotify or eBPF: docs/security.md.
 *
 * The trace is capped while it is written (a trusted `head -c` behind strace's pipe, then `cat` drains the rest): a
 * process that floods it cannot fill the disk, and a trace that reached the cap is marked truncated.
 */
import { execFile } from "node:child_process";
import { accessSync, constants, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";

/** `SKILLGATE_OBSERVE=off` (the operator's environment): trials run unwatched (the bench's comparison). */
export const OBSERVE_SWITCH = "SKILLGATE_OBSERVE";

/** Bytes of trace kept per trial; more is cut and the trial's observation is marked truncated. */
export const TRACE_CAP_BYTES = 64 * 1024 * 1024;

/** Longest string strace prints (argv words, paths, a DNS query, the start of a request). */
const STRING_BYTES = 4096;

/**
 * The calls traced: programs run and processes made (the tree), network, file opens and changes, identity and
 * namespace changes. Reads and writes of data are not traced: they are most of what a program does. Every call
 * traced stops the process until strace has read it, and most of a trial's calls are skillgate's own launcher
 * (bubblewrap mounts about 60 folders): `mount`, `umount2`, `pivot_root` and `chroot` need a capability the
 * agent has not got, so an attempt must first `unshare` or `setns` (traced) or run `mount`/`chroot` (a program,
 * traced); `mkdir` alone changes nothing a file written into it (`openat`, traced) would not show.
 */
export const TRACED_CALLS = [
  "execve",
  "execveat",
  "clone",
  "clone3",
  "fork",
  "vfork",
  // A new program's first call: it returns the process's id in the sandbox's pid namespace (see analyse.ts).
  "set_tid_address",
  "connect",
  "sendto",
  "sendmsg",
  "sendmmsg",
  "open",
  "openat",
  "openat2",
  "creat",
  "truncate",
  "unlink",
  "unlinkat",
  "rmdir",
  "rename",
  "renameat",
  "renameat2",
  "symlink",
  "symlinkat",
  "link",
  "linkat",
  "chmod",
  "fchmodat",
  "setuid",
  "setgid",
  "setreuid",
  "setregid",
  "setresuid",
  "setresgid",
  "unshare",
  "setns",
  "ptrace",
  "bpf",
  "init_module",
  "finit_module",
  "kexec_load",
] as const;

export interface Tracer {
  strace: string;
}

export type TracerState = { tracer: Tracer } | { tracer?: undefined; reason: string };

function findStrace(): string | undefined {
  const dirs = ["/usr/bin", "/bin", "/usr/sbin", "/sbin", ...(process.env.PATH ?? "").split(delimiter)];
  for (const dir of dirs) {
    if (!dir.startsWith("/")) continue;
    try {
      accessSync(join(dir, "strace"), constants.X_OK);
      return join(dir, "strace");
    } catch {
      // not here
    }
  }
  return undefined;
}

/** The command line that runs `file args` traced, writing at most `TRACE_CAP_BYTES` of trace to `out`. */
export function tracedCommand(
  tracer: Tracer,
  file: string,
  args: readonly string[],
  out: string,
  cap = TRACE_CAP_BYTES,
): { file: string; args: string[] } {
  const quote = (s: string) => `'${s.replace(/'/g, "'\\''")}'`;
  return {
    file: tracer.strace,
    args: [
      "-f",
      "--seccomp-bpf",
      "-qq",
      "-x",
      "-y",
      "-s",
      String(STRING_BYTES),
      "-e",
      `trace=${TRACED_CALLS.join(",")}`,
      "-e",
      "signal=none",
      "-o",
      `|{ head -c ${cap} > ${quote(out)}; cat > /dev/null; }`,
      "--",
      file,
      ...args,
    ],
  };
}

/** Runs a traced `/bin/true` and checks the trace names it: ptrace may be refused (a container's seccomp, Yama). */
function probe(tracer: Tracer): Promise<string | undefined> {
  const dir = mkdtempSync(join(tmpdir(), "skillgate-trace-probe-"));
  const out = join(dir, "trace");
  const cmd = tracedCommand(tracer, "/bin/true", ["probe"], out, 1 << 20);
  return new Promise((resolve) => {
    execFile(cmd.file, cmd.args, { timeout: 15_000 }, (err, _o, stderr) => {
      let text = "";
      try {
        text = readFileSync(out, "utf8");
      } catch {
        // no trace
      }
      rmSync(dir, { recursive: true, force: true });
      if (err) resolve((stderr.trim() || err.message).split("\n")[0]);
      else resolve(text.includes('execve("/bin/true"') ? undefined : "the probe's trace is empty");
    });
  });
}

let detected: Promise<TracerState> | undefined;

/** This machine's tracer, found and probed once per process. */
export function tracer(): Promise<TracerState> {
  detected ??= (async (): Promise<TracerState> => {
    if (process.env[OBSERVE_SWITCH] === "off")
      return { reason: `${OBSERVE_SWITCH}=off: the operator switched observation off` };
    if (process.platform !== "linux") return { reason: "strace needs Linux" };
    const strace = findStrace();
    if (!strace) return { reason: "strace is not installed: apt-get install strace" };
    const failed = await probe({ strace });
    return failed ? { reason: `strace cannot trace here: ${failed}` } : { tracer: { strace } };
  })();
  return detected;
}

/** A trace folder of one trial (mode 0700, outside the sandbox). */
export function makeTraceFolder(): { file: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), "skillgate-trace-"));
  return { file: join(dir, "trace"), remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** The trace a run left, and whether it reached the cap. */
export function readTraceFile(file: string, cap = TRACE_CAP_BYTES): { text: string; truncated: boolean } {
  try {
    const size = statSync(file).size;
    return { text: readFileSync(file, "latin1"), truncated: size >= cap };
  } catch {
    return { text: "", truncated: false };
  }
}
