/** Splits a configured command (`"node agent.mjs --fast"`) into words: POSIX-style quotes and backslashes, no expansion. */
import { existsSync } from "node:fs";
import { isAbsolute, relative, resolve } from "node:path";
import { InputError } from "../model/index.js";

export function splitShellWords(command: string): string[] {
  const words: string[] = [];
  let word = "";
  let inWord = false;
  let quote: '"' | "'" | null = null;
  for (let i = 0; i < command.length; i++) {
    const c = command[i]!;
    if (quote === "'") {
      if (c === "'") quote = null;
      else word += c;
      continue;
    }
    if (quote === '"') {
      if (c === '"') quote = null;
      else if (c === "\\" && i + 1 < command.length && '"\\$`'.includes(command[i + 1]!))
        word += command[++i];
      else word += c;
      continue;
    }
    if (c === "'" || c === '"') {
      quote = c;
      inWord = true;
    } else if (c === "\\" && i + 1 < command.length) {
      word += command[++i];
      inWord = true;
    } else if (/\s/.test(c)) {
      if (inWord) words.push(word);
      word = "";
      inWord = false;
    } else {
      word += c;
      inWord = true;
    }
  }
  if (quote) throw new InputError(`agent command has an unterminated ${quote} quote: ${command}`);
  if (inWord) words.push(word);
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
