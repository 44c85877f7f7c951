/**
 * The action as root through password-less sudo, so a hosted runner reaches `uid+namespaces`.
 *
 * The runner user of a GitHub-hosted runner has password-less sudo, so it is root in all but name: running the
 * action's evaluation as root gives nothing to anyone who could not take it already. What root buys is the
 * sandbox's strength: bubblewrap started by root needs no user namespace (which Ubuntu 24.04's AppArmor denies the
 * runner user), and each confined run drops to a uid of its own, never skillgate's. So the action started as the
 * runner user re-runs itself once, whole, as `sudo -n <node> <entry> --elevated`, and waits:
 * - its environment (secrets included) goes to the root child as JSON on a pipe, never on a command line (any
 *   process may read another's arguments), and never through `sudo -E` (sudo's secure_path would replace PATH);
 * - SIGINT/SIGTERM (the runner cancelling the step) are passed to sudo, which relays them to the child, so the
 *   check run is still completed as cancelled;
 * - before it exits, the root child gives back to the runner user what it made in the workspace and in
 *   RUNNER_TEMP (git's worktree records, reports, the trial cache): a self-hosted runner's next checkout must be
 *   able to clean them.
 * A per-run `sudo` for each confined start was the other way: it costs a sudo start per gate child, predicate and
 * agent (measured about 100 ms each on the 2-core VM under load, against one for the whole run), and still leaves
 * a non-root skillgate unable to chown the run folders, kill a sandbox uid's processes, make cgroups or read what
 * an agent wrote.
 */
import { execFile, spawn } from "node:child_process";
import { accessSync, constants, lchownSync, lstatSync, readdirSync } from "node:fs";
import { join } from "node:path";
import type { Readable } from "node:stream";

/** The argument that marks the root child (its environment arrives on stdin). */
export const ELEVATED_FLAG = "--elevated";
/** Where sudo may be: the system's own folders only, never a PATH entry the workflow could put first. */
const SUDO_PATHS = ["/usr/bin/sudo", "/bin/sudo", "/usr/sbin/sudo"];
/** What `sudo -n true` may take before the action goes on without it. */
const SUDO_PROBE_TIMEOUT_MS = 10_000;
/** The variables sudo sets for the child: whose sudo it is (git's ownership check reads SUDO_UID). */
const SUDO_VARIABLES = ["SUDO_UID", "SUDO_GID", "SUDO_USER"];

export type ElevationPlan = { elevate: true; sudo: string } | { elevate: false; why: string };

/** What the elevation decision reads about this process. */
export interface ElevationFacts {
  platform: NodeJS.Platform;
  uid: number | undefined;
  env: Record<string, string | undefined>;
  /** The first executable sudo of the system's folders, if any. */
  sudo: string | undefined;
}

/**
 * Whether to re-run as root, before probing sudo: only an evaluating action on Linux that is not root already,
 * and not when the operator lowered the isolation (`SKILLGATE_ISOLATION=namespaces|none` needs no root).
 */
export function elevationWanted(f: ElevationFacts): ElevationPlan {
  if (f.platform !== "linux") return { elevate: false, why: "not Linux" };
  if (f.uid === undefined || f.uid === 0) return { elevate: false, why: "already root" };
  if (f.env.INPUT_MODE?.trim() === "report")
    return { elevate: false, why: "report mode runs nothing untrusted" };
  const cap = f.env.SKILLGATE_ISOLATION;
  if (cap === "namespaces" || cap === "none") return { elevate: false, why: `SKILLGATE_ISOLATION=${cap}` };
  if (!f.sudo) return { elevate: false, why: "no sudo" };
  return { elevate: true, sudo: f.sudo };
}

export function findSudo(): string | undefined {
  return SUDO_PATHS.find((p) => {
    try {
      accessSync(p, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

/** Whether sudo runs a command without asking for a password (`-n` fails at once where it would ask). */
export function sudoWithoutPassword(sudo: string): Promise<boolean> {
  return new Promise((resolve) => {
    execFile(sudo, ["-n", "true"], { timeout: SUDO_PROBE_TIMEOUT_MS }, (err) => resolve(!err));
  });
}

/** The plan for this process: wanted, and sudo answers without a password. */
export async function planElevation(env: Record<string, string | undefined>): Promise<ElevationPlan> {
  const wanted = elevationWanted({
    platform: process.platform,
    uid: process.getuid?.(),
    env,
    sudo: findSudo(),
  });
  if (!wanted.elevate) return wanted;
  return (await sudoWithoutPassword(wanted.sudo))
    ? wanted
    : { elevate: false, why: "sudo asks for a password" };
}

/**
 * Runs `entry` again as root (`sudo -n node entry --elevated`), its environment on stdin, signals passed on;
 * resolves with the exit code it should end with (3, an error, when it was killed by a signal).
 */
export function runElevated(
  sudo: string,
  entry: string,
  env: Record<string, string | undefined>,
  signals: NodeJS.Process = process,
): Promise<number> {
  // A session of its own: sudo then has no terminal to make a pseudo-terminal for (use_pty), and a terminal's
  // Ctrl-C reaches it only through the relay below, once.
  const child = spawn(sudo, ["-n", "--", process.execPath, entry, ELEVATED_FLAG], {
    stdio: ["pipe", "inherit", "inherit"],
    detached: true,
  });
  const relay = (signal: NodeJS.Signals) => {
    if (child.pid !== undefined) process.kill(child.pid, signal);
  };
  signals.on("SIGINT", relay);
  signals.on("SIGTERM", relay);
  child.stdin.end(JSON.stringify(env));
  return new Promise((resolve) => {
    const done = (code: number) => {
      signals.off("SIGINT", relay);
      signals.off("SIGTERM", relay);
      resolve(code);
    };
    child.on("error", () => done(3));
    child.on("close", (code, signal) => done(signal ? 3 : (code ?? 3)));
  });
}

/** The root child's side: its environment as the runner gave it, plus sudo's own SUDO_* variables. */
export async function receiveEnvironment(stdin: Readable = process.stdin): Promise<Record<string, string>> {
  const chunks: Buffer[] = [];
  for await (const c of stdin) chunks.push(c as Buffer);
  const sent = JSON.parse(Buffer.concat(chunks).toString("utf8")) as Record<string, unknown>;
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(sent)) if (typeof v === "string") env[k] = v;
  for (const k of SUDO_VARIABLES) {
    const v = process.env[k];
    if (v !== undefined) env[k] = v;
    else delete env[k];
  }
  return env;
}

/** Replaces this process's environment with `env` (`@actions/core` reads `process.env` when called). */
export function adoptEnvironment(env: Record<string, string>): void {
  for (const k of Object.keys(process.env)) delete process.env[k];
  Object.assign(process.env, env);
}

/** The invoking user sudo names (SUDO_UID/SUDO_GID), when both are plain non-root ids. */
export function invokingUser(
  env: Record<string, string | undefined>,
): { uid: number; gid: number } | undefined {
  const uid = Number(env.SUDO_UID);
  const gid = Number(env.SUDO_GID);
  if (!Number.isSafeInteger(uid) || !Number.isSafeInteger(gid) || uid <= 0 || gid < 0) return undefined;
  if (!/^\d+$/.test(env.SUDO_UID ?? "") || !/^\d+$/.test(env.SUDO_GID ?? "")) return undefined;
  return { uid, gid };
}

/**
 * Gives `to` every entry below `roots` that root made since `sinceMs` (born then, or changed then where the file
 * system keeps no birth time), never following a symbolic link (lstat, lchown). Only root's entries move: nothing
 * of the runner's and nothing of a sandbox uid's. Returns how many entries it gave back.
 */
export function giveBack(
  roots: readonly string[],
  to: { uid: number; gid: number },
  sinceMs: number,
): number {
  let given = 0;
  const walk = (path: string): void => {
    let st: ReturnType<typeof lstatSync>;
    try {
      st = lstatSync(path);
    } catch {
      return; // gone meanwhile
    }
    const born = st.birthtimeMs > 0 ? st.birthtimeMs : st.ctimeMs;
    if (st.uid === 0 && born >= sinceMs) {
      lchownSync(path, to.uid, to.gid);
      given++;
    }
    if (!st.isDirectory()) return;
    let names: string[] = [];
    try {
      names = readdirSync(path);
    } catch {
      return;
    }
    for (const name of names) walk(join(path, name));
  };
  for (const root of roots) walk(root);
  return given;
}
