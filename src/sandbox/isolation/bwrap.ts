/**
 * The bubblewrap command line of one confined run: a pure function of the run's `Confinement` and the machine's
 * `Isolation`. What the sandbox gets, in mount order (later mounts cover earlier ones):
 * new /proc (its own pid namespace) and a minimal /dev; the system folders read-only; a few /etc entries; the
 * files made for the run; a private, size-capped /tmp; then the run's read-only and writable paths, parents
 * first. Nothing else of the host exists inside: not the repository checkout, not skillgate's scratch folders.
 */
import { basename, dirname, isAbsolute, normalize } from "node:path";
import type { ConfinedCommand, Confinement, HostLayout, Isolation, IsolationTools } from "./types.js";

/** Mode of the folders bubblewrap makes for mount points (it would make them 0700, closed to the sandbox uid). */
const MOUNT_POINT_MODE = "0755";
/**
 * Host name inside the sandbox (its own UTS namespace): an ordinary one. Nothing an agent can see says it is being
 * evaluated (a skill could behave well only then): not this, the folders, the user database or /run.
 */
const SANDBOX_HOSTNAME = "devbox";

/** Paths the sandbox makes itself: binding a host path over them would undo the isolation. */
const RESERVED = ["/proc", "/dev", "/sys"];

function inside(path: string, folder: string): boolean {
  return path === folder || path.startsWith(folder === "/" ? "/" : `${folder}/`);
}

function checkPath(path: string, what: string): string {
  if (!isAbsolute(path)) throw new Error(`sandbox ${what} must be an absolute path: ${path}`);
  const clean = normalize(path).replace(/\/+$/, "") || "/";
  if (clean === "/") throw new Error(`sandbox ${what} cannot be the root folder`);
  // /dev/shm is where trial workspaces may live (a tmpfs); the rest of /dev, /proc and /sys are the sandbox's own.
  if (RESERVED.some((r) => inside(clean, r)) && !inside(clean, "/dev/shm"))
    throw new Error(`sandbox ${what} ${clean} lies in a folder the sandbox makes itself`);
  return clean;
}

/**
 * The trusted first step of every confined run, a shell outside the sandbox (run as
 * `bash --norc --noprofile -c LAUNCHER skillgate-launch <cgroup.procs files> -- <fds to keep> -- bwrap …`):
 * 1. joins the run's cgroups (its own pid, so bubblewrap and all it starts are inside from their first instruction);
 * 2. closes every file descriptor but stdio and the named ones: a descriptor skillgate inherited without
 *    close-on-exec (from the runner, a shell's `3<file`, a test harness) would otherwise reach the sandbox through
 *    Node's spawn and bubblewrap, which both pass such descriptors on;
 * 3. execs bubblewrap with the environment as given (PWD, which a shell adds, removed).
 * bash closes any descriptor by number; a plain POSIX sh only 3–9 (dash reads `12>&-` as fd 1): bash is preferred.
 */
export const LAUNCHER = [
  'while [ "$1" != -- ]; do echo $$ > "$1" || { echo "skillgate: cannot join the cgroup $1" >&2; exit 125; }; shift; done; shift',
  'keep=" 0 1 2 "; while [ "$1" != -- ]; do keep="$keep$1 "; shift; done; shift',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: shell parameter expansions, not a template
  'for p in /proc/$$/fd/*; do n=${p##*/}; case "$keep" in *" $n "*) ;; *) if [ -L "$p" ] && { [ -n "$BASH_VERSION" ] || [ ${#n} -eq 1 ]; }; then eval "exec $n>&-"; fi ;; esac; done',
  "unset PWD OLDPWD",
  'exec "$@"',
].join("\n");

/**
 * bash reads /etc/bash.bashrc and ~/.bashrc even when not interactive if its stdin is a socket (Node's pipes are):
 * the launcher runs outside the sandbox, as skillgate's uid, with the trial's HOME, so it reads no start-up file.
 */
function launcherShellOptions(shell: string): string[] {
  return basename(shell) === "bash" ? ["--norc", "--noprofile"] : [];
}

/** bubblewrap's namespaces, and the capabilities the first process keeps at the machine's level. */
function namespaceArgs(level: Isolation["level"]): string[] {
  const args = [
    "--unshare-pid",
    "--unshare-ipc",
    "--unshare-uts",
    "--unshare-net",
    "--unshare-cgroup-try",
    "--die-with-parent",
    "--new-session",
    "--hostname",
    SANDBOX_HOSTNAME,
  ];
  if (level === "namespaces") {
    // Unprivileged: a user namespace is the only way in; it may not make further ones, and keeps no capability.
    args.push("--unshare-user", "--disable-userns", "--cap-drop", "ALL");
  } else {
    // Started by root without a user namespace: the first process keeps only what it needs to drop to the
    // sandbox uid (setpriv clears every capability, the bounding set included, before the command runs).
    args.push("--cap-add", "CAP_SETUID", "--cap-add", "CAP_SETGID", "--cap-add", "CAP_SETPCAP");
  }
  return args;
}

/** bubblewrap's mount arguments in order, with the folders known to exist inside and the trees bound read-only. */
class Mounts {
  readonly args: string[] = ["--proc", "/proc", "--dev", "/dev"];
  /** Folders known to exist inside, so mount points below them need no --dir. */
  private readonly made = new Set<string>(["/", "/proc", "/dev", "/tmp"]);
  /** Trees bound read-only, to skip what they hold. */
  private readonly bound: string[] = [];

  /** Makes the missing folders above `path` (mode 0755: bubblewrap would make them 0700, closed to the uid). */
  ensureParents(path: string): void {
    const chain: string[] = [];
    for (let p = dirname(path); !this.made.has(p) && !this.bound.some((b) => inside(p, b)); p = dirname(p))
      chain.push(p);
    for (const p of chain.reverse()) {
      this.args.push("--perms", MOUNT_POINT_MODE, "--dir", p);
      this.made.add(p);
    }
  }

  system(layout: HostLayout, generated: readonly (readonly [string, string])[]): void {
    for (const entry of layout.system) {
      if (entry.link !== undefined) this.args.push("--symlink", entry.link, entry.path);
      else {
        this.args.push("--ro-bind", entry.path, entry.path);
        this.bound.push(entry.path);
      }
      this.made.add(entry.path);
    }
    for (const e of layout.etc) {
      if (generated.some(([to]) => to === e)) continue;
      this.ensureParents(e);
      this.args.push("--ro-bind-try", e, e);
    }
    if (layout.localtime && !generated.some(([to]) => to === "/etc/localtime")) {
      this.ensureParents("/etc/localtime");
      this.args.push("--symlink", layout.localtime, "/etc/localtime");
    }
  }

  /** The run's read-only and writable paths, parents before children, so a writable folder inside a read-only one is mounted over it, not under it. */
  paths(readOnly: readonly string[], writable: readonly string[]): void {
    const binds = [
      ...readOnly.map((p) => ({ path: checkPath(p, "read-only path"), writable: false })),
      ...writable.map((p) => ({ path: checkPath(p, "writable path"), writable: true })),
    ].sort(
      (a, b) =>
        a.path.split("/").length - b.path.split("/").length || Number(a.writable) - Number(b.writable),
    );
    const seen = new Set<string>();
    for (const b of binds) {
      const key = `${b.writable}:${b.path}`;
      if (seen.has(key)) continue;
      seen.add(key);
      // Already visible read-only under a system folder or another read-only bind: nothing to add.
      if (!b.writable && this.bound.some((p) => inside(b.path, p))) continue;
      this.ensureParents(b.path);
      this.args.push(b.writable ? "--bind" : "--ro-bind", b.path, b.path);
      if (!b.writable) this.bound.push(b.path);
      this.made.add(b.path);
    }
  }
}

/** What runs inside: setpriv to the run's uid (root only), prlimit's limits, then the command. */
function commandArgs(c: Confinement, iso: Isolation, tools: IsolationTools): string[] {
  const l = c.limits;
  const limited = [
    tools.prlimit,
    `--nproc=${l.processes}`,
    `--fsize=${l.fileSizeBytes}`,
    `--nofile=${l.openFiles}`,
    `--data=${l.dataBytes}`,
    "--core=0",
    "--",
    c.command,
    ...c.args,
  ];
  if (iso.level !== "uid+namespaces") return limited;
  const id = String(c.uid);
  const drop = [
    "--reuid",
    id,
    "--regid",
    id,
    "--clear-groups",
    "--inh-caps=-all",
    "--bounding-set=-all",
    "--",
  ];
  return [tools.setpriv, ...drop, ...limited];
}

/** The command that runs `c` confined at the machine's level (`uid+namespaces` or `namespaces`). */
export function confinedCommand(c: Confinement, iso: Isolation): ConfinedCommand {
  if (iso.level === "none" || !iso.tools || !iso.layout)
    throw new Error("confinedCommand needs bubblewrap (isolation level none)");
  const { tools, layout } = iso;
  const generated = Object.entries(c.files).map(([to, from]) => [checkPath(to, "file"), from] as const);
  const mounts = new Mounts();
  mounts.system(layout, generated);
  mounts.args.push("--perms", "1777", "--size", String(c.limits.tmpBytes), "--tmpfs", "/tmp");
  mounts.paths(c.readOnly, c.writable);
  // Files made for the run last: over whatever a folder bind put at their path (and below /tmp, after it).
  for (const [to, from] of generated) {
    mounts.ensureParents(to);
    mounts.args.push("--ro-bind", from, to);
  }
  const bwrapArgs = [
    ...namespaceArgs(iso.level),
    ...mounts.args,
    "--chdir",
    c.cwd,
    ...(c.infoFd !== undefined ? ["--info-fd", String(c.infoFd)] : []),
    "--",
    ...commandArgs(c, iso, tools),
  ];
  const launch = [
    ...launcherShellOptions(tools.shell),
    "-c",
    LAUNCHER,
    "skillgate-launch",
    ...(c.cgroupProcs ?? []),
    "--",
    ...(c.keepFds ?? []).map(String),
    ...(c.infoFd !== undefined ? [String(c.infoFd)] : []),
    "--",
    tools.bwrap,
    ...bwrapArgs,
  ];
  return { command: tools.shell, args: launch, env: { ...c.env } };
}
