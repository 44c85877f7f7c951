/** The risky actions of one trial, each kept once per class and target with how often it was seen. */
import type { ActionClass, ObservedAction } from "../model/index.js";

/** Longest command line kept per action. */
const COMMAND_CHARS = 500;

export const capText = (s: string, n = COMMAND_CHARS): string => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

export interface ActionInput {
  class: ActionClass;
  target: string;
  detail: string;
  argv?: readonly string[];
  host?: string;
  skillFiles?: { skill: string; file: string }[];
  /** The command the agent started that did it (a tool call's script): see ObservedAction.origin. */
  origin?: string;
  denied?: boolean;
}

/** Longest origin kept: a longer one is cut, and a cut one never matches a skill's code. */
const ORIGIN_CHARS = 8_000;

export class ActionSet {
  private readonly byKey = new Map<string, ObservedAction>();

  add(a: ActionInput): void {
    const key = `${a.class}\0${a.target}`;
    const seen = this.byKey.get(key);
    if (seen) {
      seen.count++;
      // Denied only while every attempt was; an attempt that got through is what counts.
      if (!a.denied) delete seen.denied;
      if (!seen.skillFiles?.length && a.skillFiles?.length) seen.skillFiles = a.skillFiles;
      // Done from more than one origin: none (no one command the agent ran did it every time); never set again.
      if (seen.origin !== (a.origin === undefined ? undefined : capText(a.origin, ORIGIN_CHARS)))
        delete seen.origin;
      return;
    }
    const argv = a.argv ?? [];
    this.byKey.set(key, {
      class: a.class,
      target: a.target,
      detail: capText(a.detail),
      ...(argv.length ? { command: capText(argv.join(" ")), program: programOf(argv) } : {}),
      ...(a.host ? { host: a.host } : {}),
      ...(a.skillFiles?.length ? { skillFiles: a.skillFiles } : {}),
      ...(a.origin !== undefined ? { origin: capText(a.origin, ORIGIN_CHARS) } : {}),
      ...(a.denied ? { denied: true } : {}),
      count: 1,
    });
  }

  get size(): number {
    return this.byKey.size;
  }

  list(): ObservedAction[] {
    return [...this.byKey.values()];
  }
}

/** The program of an argv: its basename. */
export function programOf(argv: readonly string[]): string {
  const first = argv[0] ?? "";
  return first.slice(first.lastIndexOf("/") + 1);
}
