/** Splits a configured command (`"node agent.mjs --fast"`) into words: POSIX-style quotes and backslashes, no expansion. */
import { existsSync } from "node:fs";
import { isAbsolute, relative, resolve } from "node:path";
import { parse } from "shell-quote";
import { InputError } from "../model/index.js";

/** Every quote closed and no backslash left at the end (shell-quote reads an unclosed quote as if closed). */
const BALANCED = /^(?:[^'"\\]|\\[\s\S]|'[^']*'|"(?:[^"\\]|\\[\s\S])*")*$/;

/**
 * The command's words as a POSIX shell splits them (`shell-quote`), with nothing expanded: `$X` and `*.md` stay
 * as written. A shell operator (`|`, `>`, `;` …) is refused: no shell runs the command, so it would be an argument.
 */
export function splitShellWords(command: string): string[] {
  if (!BALANCED.test(command))
    throw new InputError(`agent command has an unterminated quote (or a trailing \\): ${command}`);
  const parsed = parse(command, (name) => `$${name}`);
  const words = parsed.map((entry) => {
    if (typeof entry === "string") return entry;
    if ("pattern" in entry) return entry.pattern;
    const what = "op" in entry ? `the shell operator \`${entry.op}\`` : "a #comment";
    throw new InputError(
      `agent command holds ${what}, and no shell runs it: quote it or leave it out (${command})`,
    );
  });
  if (words.length === 0) throw new InputError("agent command is empty");
  return words;
}

/** `path` lies strictly inside `dir` (not `dir` itself, nor above it). */
function strictlyInside(path: string, dir: string): boolean {
  const rel = relative(dir, path);
  return rel !== "" && !rel.startsWith("..") && !isAbsolute(rel);
}

/**
 * The words as a shell started in `dir` (the trusted tree: the repository, or the folder of an operator's config
 * file) would hand them over, for a program that runs elsewhere (the trial workspace): the program word with a
 * slash is a path from `dir`, a bare one is looked up on PATH; every other relative word naming a file or folder
 * inside `dir` (`node agent/agent.mjs`, `python3 agent.py`) becomes its absolute path. Flags and words naming
 * nothing there are passed as they are.
 */
export function resolveCommand(command: string, dir: string): { file: string; args: string[] } {
  const [file, ...args] = splitShellWords(command);
  const fromDir = (word: string) => {
    if (isAbsolute(word) || word.startsWith("-")) return word;
    const path = resolve(dir, word);
    return strictlyInside(path, dir) && existsSync(path) ? path : word;
  };
  const program = file!.includes("/") && !isAbsolute(file!) ? resolve(dir, file!) : file!;
  return { file: program, args: args.map(fromDir) };
}
