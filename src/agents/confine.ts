/**
 * Agents run confined like every other untrusted process (src/sandbox/isolation/): bubblewrap, a sandbox uid of
 * their own at `uid+namespaces`, their own pid namespace (killed whole with the run), no network, limits. The
 * trial's workspace and its HOME are the only writable paths (made by skillgate for this trial, and only they are
 * given to the sandbox uid); the program and Node are bound read-only; the repository checkout is not there.
 *
 * Extra paths come only from the trusted config (`agent.options.sandbox: {readOnly, writable}`); they are bound
 * as they are, their ownership and modes never changed.
 */
import { existsSync, realpathSync, statSync } from "node:fs";
import { delimiter, dirname, join, relative, sep } from "node:path";
import type { Workspace } from "../model/index.js";
import { confinedCommand } from "../sandbox/isolation/bwrap.js";
import { isolation } from "../sandbox/isolation/detect.js";
import { drawSandboxUid, grantToSandbox, makeRunFolder } from "../sandbox/isolation/run-folder.js";
import type { ConfineLimits, IsolationLevel } from "../sandbox/isolation/types.js";

/** OS limits of one agent trial: a coding agent runs tools, builds and tests; a fork bomb still stops. */
export const AGENT_CONFINE_LIMITS: ConfineLimits = Object.freeze({
  processes: 1024,
  fileSizeBytes: 256 * 1024 * 1024,
  tmpBytes: 256 * 1024 * 1024,
  openFiles: 8192,
});

export interface AgentConfinement {
  workspace: Workspace;
  /** The repository: never bound; a program file inside it is bound alone, not its folder. */
  repoDir: string;
  /** From the trusted config only. */
  readOnly?: readonly string[];
  writable?: readonly string[];
}

/** Reads `agent.options.sandbox` of the trusted config: lists of absolute paths, anything else ignored. */
export function sandboxOptions(options: Record<string, unknown> | undefined): {
  readOnly: string[];
  writable: string[];
} {
  const s = (options?.sandbox ?? {}) as Record<string, unknown>;
  const paths = (v: unknown) =>
    Array.isArray(v) ? v.filter((p): p is string => typeof p === "string" && p.startsWith("/")) : [];
  return { readOnly: paths(s.readOnly), writable: paths(s.writable) };
}

function within(path: string, folder: string): boolean {
  const rel = relative(folder, path);
  return rel === "" || (!rel.startsWith(`..${sep}`) && rel !== "..");
}

function onPath(name: string, env: Record<string, string>): string | undefined {
  for (const dir of (env.PATH ?? process.env.PATH ?? "").split(delimiter)) {
    if (!dir.startsWith("/")) continue;
    if (existsSync(join(dir, name))) return join(dir, name);
  }
  return undefined;
}

/**
 * What the program needs to be read: for each command word naming a file (the program, found on PATH when bare;
 * a script argument), the outermost `node_modules` holding it (an npm-installed CLI and its dependencies), else
 * its folder, or the file alone when its folder holds the repository or is closed to others.
 */
export function programPaths(
  words: readonly string[],
  repoDir: string,
  env: Record<string, string>,
): string[] {
  const out = new Set<string>();
  const repo = existsSync(repoDir) ? realpathSync(repoDir) : repoDir;
  for (const [i, word] of words.entries()) {
    const path = word.startsWith("/") ? word : i === 0 && !word.includes("/") ? onPath(word, env) : undefined;
    if (!path || !existsSync(path)) continue;
    for (const p of new Set([path, realpathSync(path)])) {
      const parts = p.split(sep);
      const top = parts.indexOf("node_modules");
      if (top > 0) out.add(parts.slice(0, top + 1).join(sep));
      else if (statSync(p).isDirectory()) out.add(p);
      // A folder holding the repository, or one closed to others (a bound folder keeps its mode, which would
      // keep the sandbox uid out): the file alone.
      else if (within(repo, dirname(p)) || (statSync(dirname(p)).mode & 0o005) !== 0o005) out.add(p);
      else out.add(dirname(p));
    }
  }
  return [...out];
}

export interface ConfinedAgent {
  file: string;
  args: string[];
  env: Record<string, string>;
  cwd: string;
  level: IsolationLevel;
  /** After the run: removes the run's own folder. */
  done(): void;
}

/** The agent's command wrapped in the machine's isolation (as given when it has none). */
export async function confineAgent(
  file: string,
  args: string[],
  opts: { cwd: string; env: Record<string, string> },
  c: AgentConfinement,
): Promise<ConfinedAgent> {
  const iso = await isolation();
  if (iso.level === "none") return { file, args, ...opts, level: "none", done: () => {} };
  const uid = iso.level === "uid+namespaces" ? drawSandboxUid() : (process.getuid?.() ?? 0);
  const runFolder = makeRunFolder({ uid });
  try {
    if (iso.level === "uid+namespaces") {
      grantToSandbox(c.workspace.dir, uid);
      grantToSandbox(c.workspace.home, uid);
    }
    const node = realpathSync(process.execPath);
    const cmd = confinedCommand(
      {
        command: file,
        args,
        cwd: opts.cwd,
        env: opts.env,
        readOnly: [
          ...programPaths([file, ...args], c.repoDir, opts.env),
          dirname(node),
          ...(c.readOnly ?? []),
        ],
        writable: [c.workspace.dir, c.workspace.home, ...(c.writable ?? [])],
        files: runFolder.files,
        limits: AGENT_CONFINE_LIMITS,
        uid,
      },
      iso,
    );
    return {
      file: cmd.command,
      args: cmd.args,
      env: cmd.env,
      cwd: "/",
      level: iso.level,
      done: runFolder.remove,
    };
  } catch (err) {
    runFolder.remove();
    throw err;
  }
}
