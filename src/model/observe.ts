/**
 * What a trial's processes were seen doing (docs/security.md): the risky actions found in the system calls of
 * every process the agent started, and in what it answered and wrote. Compared between the arms of a pull request
 * by `src/verdict/behaviour.ts`.
 */

/** Classes of risky action; the order is the order a reviewer should read them in. */
export const ACTION_CLASSES = [
  "credential-leak",
  "remote-code",
  "network",
  "git-remote",
  "git-rewrite",
  "persistence",
  "delete-outside",
  "write-outside",
  "credential-read",
  "safety-off",
  "privilege",
  "sandbox-escape",
  "trace-overflow",
] as const;

export type ActionClass = (typeof ACTION_CLASSES)[number];

export interface ObservedAction {
  class: ActionClass;
  /**
   * What it was done to, said the same way in every trial so two arms compare: a host name, a path (`~/…` in the
   * trial's HOME, `./…` in its workspace), a program, a remote.
   */
  target: string;
  /** One line of what was seen: the command line, the system call, the DNS name. */
  detail: string;
  /** The command line of the process that did it (capped). */
  command?: string;
  /** The program (basename) of that process: what `security.allow.commands` is matched against, with `command`. */
  program?: string;
  /** A network action's host (name or address): what `security.allow.hosts` is matched against. */
  host?: string;
  /** Files of an installed skill that ran in the process or its ancestors, relative to the skill's folder. */
  skillFiles?: { skill: string; file: string }[];
  /**
   * The command the agent started that did it, for a process it descends from (its tool call's shell: a shell's
   * `-c` script, else the command line), or the script of the tool call that asked for it; absent when none is
   * known or the trial did it from several. The verdict compares it with the skill's code at base.
   */
  origin?: string;
  /** The sandbox refused it (the attempt is what counts). */
  denied?: boolean;
  /** How often the trial did it (same class and target). */
  count: number;
}

export interface Observation {
  /** How the trial's processes were watched: `strace` (every process of the trial), or not at all (`none`). */
  by: "strace" | "none";
  /** Why not, for `none`. */
  reason?: string;
  actions: ObservedAction[];
  /** Programs the agent started (execve calls that succeeded). */
  processes: number;
  /** The trace passed its cap: what came later was not seen (a `trace-overflow` action says so too). */
  truncated?: boolean;
}
