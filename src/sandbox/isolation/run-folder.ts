/**
 * The folder skillgate makes for one confined run, and the only ownership change skillgate ever makes.
 *
 * Safety rule (a previous attempt broke a machine by changing ownership of a caller's folder): ownership is given
 * to a sandbox uid only for folders this process made itself for that run and registered here (`madeForRun`) —
 * never a caller-given cwd or writable path — and the walk never follows a symbolic link (lstat + lchown, and a
 * link's target is never visited). Anything not registered is refused with an error.
 */
import { randomInt } from "node:crypto";
import { lchownSync, lstatSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

/**
 * Sandbox uids (and gids) are drawn from [BASE, BASE + RANGE): far above the uids of people and services, below
 * 2^31 (bubblewrap's uid maps reject larger ones). Each run draws its own, so a run's process limit counts only
 * its own processes and two runs never share a uid.
 */
export const SANDBOX_UID_BASE = 1_600_000_000;
export const SANDBOX_UID_RANGE = 2 ** 24;

export function drawSandboxUid(): number {
  return SANDBOX_UID_BASE + randomInt(SANDBOX_UID_RANGE);
}

/** Folders this process made for a run (absolute paths): the only ones `grantToSandbox` may change. */
const madeForRun = new Set<string>();

/** Registers a folder this process has just made (mkdtemp/mkdir) for one run, so it may be given to its uid. */
export function registerRunFolder(dir: string): void {
  madeForRun.add(resolve(dir));
}

/** Forgets a run's folder (after the run, before it is removed). */
export function forgetRunFolder(dir: string): void {
  madeForRun.delete(resolve(dir));
}

/**
 * Gives `dir` and what skillgate placed in it to `uid` (files and folders; symbolic links themselves, never their
 * targets). Throws unless `dir` was registered by `registerRunFolder`. Call before the sandbox starts: nothing
 * untrusted has written there yet.
 */
export function grantToSandbox(dir: string, uid: number): void {
  const abs = resolve(dir);
  if (!madeForRun.has(abs))
    throw new Error(`refusing to change ownership of ${abs}: skillgate did not make it for this run`);
  if (uid === 0 || uid === process.getuid?.()) throw new Error(`refusing to give ${abs} to uid ${uid}`);
  const walk = (path: string): void => {
    const st = lstatSync(path);
    lchownSync(path, uid, uid);
    if (st.isDirectory()) for (const name of readdirSync(path)) walk(join(path, name));
  };
  walk(abs);
}

export interface RunFolder {
  dir: string;
  /** Files made for the sandbox: sandbox path → host file. */
  files: Record<string, string>;
  /** Removes the folder (after the run's namespaces are gone). */
  remove(): void;
}

/**
 * The sandbox's resolver: the loopback nameserver a resolver assumes without this file (there is none in the
 * sandbox's network namespace) and no wait for it. Without the file, musl (Codex's static binary) waits 2 × 5 s for
 * an answer that cannot come on every lookup it tries (api.github.com, ab.chatgpt.com: about 5 s at the end of
 * each trial); glibc gets ECONNREFUSED at once either way. Nothing more is reachable than without it.
 */
const RESOLV_CONF = "nameserver 127.0.0.1\noptions timeout:0 attempts:1\n";

/**
 * A fresh folder (mode 0700, owner skillgate) holding the run's /etc/passwd, /etc/group, /etc/hosts and
 * /etc/resolv.conf: the sandbox uid has a name (programs ask for it), host names resolve only to loopback, and a
 * DNS query fails at once.
 */
export function makeRunFolder(opts: { uid: number; hosts?: readonly string[] }): RunFolder {
  // Named like anything else in /tmp: the agent sees these paths in its sandbox's command line (bwrap's pid 1).
  const dir = mkdtempSync(join(tmpdir(), "run-"));
  const write = (name: string, text: string) => {
    const file = join(dir, name);
    writeFileSync(file, text, { mode: 0o644 });
    return file;
  };
  const files = {
    "/etc/passwd": write("passwd", `dev:x:${opts.uid}:${opts.uid}::/tmp:/bin/sh\n`),
    "/etc/group": write("group", `dev:x:${opts.uid}:\n`),
    "/etc/hosts": write(
      "hosts",
      ["127.0.0.1 localhost", "::1 localhost", ...(opts.hosts ?? []).map((h) => `127.0.0.1 ${h}`), ""].join(
        "\n",
      ),
    ),
    "/etc/resolv.conf": write("resolv.conf", RESOLV_CONF),
  };
  return { dir, files, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
