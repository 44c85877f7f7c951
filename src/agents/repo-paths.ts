/** The repository paths an agent configuration names, which a base read from git objects must hold (#42). */
import { posix } from "node:path";
import type { AgentConfig } from "../model/index.js";
import { FILE_LIKE } from "./command-check.js";
import { splitShellWords } from "./shell-words.js";

/**
 * Repository paths an agent configuration names: a relative program or script of its command (the folder it is
 * in, for the files it loads beside it), a replay's recordings folder.
 */
export function agentRepoPaths(a: AgentConfig): string[] {
  const out: string[] = [];
  if (a.recordings) out.push(a.recordings);
  let words: string[] = [];
  try {
    words = a.command ? splitShellWords(a.command) : [];
  } catch {
    words = [];
  }
  for (const w of words) {
    // A path, or a bare script name (`node agent.js`), as the command check reads them (command-check.ts).
    if (w.startsWith("/") || !(w.includes("/") || w.startsWith(".") || FILE_LIKE.test(w))) continue;
    const rel = posix.normalize(w);
    if (rel.startsWith("../") || rel === "..") continue;
    const dir = posix.dirname(rel);
    out.push(dir === "." ? rel : dir);
  }
  return out;
}
