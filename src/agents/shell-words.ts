/** Splits a configured command (`"node agent.mjs --fast"`) into words: POSIX-style quotes and backslashes, no expansion. */
import { isAbsolute, resolve } from "node:path";
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

/** A command word with a slash is a path, relative to the repository; a bare name is looked up on PATH. */
export function resolveCommand(command: string, repoDir: string): { file: string; args: string[] } {
  const [file, ...args] = splitShellWords(command);
  const resolved = file!.includes("/") && !isAbsolute(file!) ? resolve(repoDir, file!) : file!;
  return { file: resolved, args };
}
