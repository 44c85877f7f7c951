/**
 * Risky actions an agent asked for in its tool calls, read from their input. The trace shows what ran; an agent's
 * own permission checks may refuse a call before any process starts (Claude Code refuses to edit `~/.bashrc` or a
 * git hook unless its user says yes, which a user running it unattended has said), so the request is what a skill
 * made the agent do. Each is an attempt: `denied` unless the trace saw it done (ActionSet keeps one per class and
 * target).
 */
import { isAbsolute, join, normalize } from "node:path";
import { parse as parseShell } from "shell-quote";
import type { AgentResult, ToolCall } from "../model/index.js";
import { type ActionInput, ActionSet } from "./actions.js";
import { commandFindings, scriptCommands } from "./commands.js";
import { deleteClass, displayPath, type PathContext, writeClass } from "./paths.js";

/** The shell script of a tool call: Claude Code's `Bash` `{command}`, Codex's `{cmd}` or `{command: [argv]}`. */
function scriptOf(call: ToolCall): string | undefined {
  const input = call.input as Record<string, unknown> | null;
  if (!input || typeof input !== "object") return undefined;
  if (typeof input.command === "string") return input.command;
  if (typeof input.cmd === "string") return input.cmd;
  const argv = input.command;
  if (Array.isArray(argv) && argv.every((w) => typeof w === "string"))
    return argv.length >= 3 && /(?:^|\/)(?:ba|z|da)?sh$/.test(argv[0]!) && /^-\w*c$/.test(argv[1]!)
      ? argv[2]
      : argv.join(" ");
  return undefined;
}

/** The file a write tool (`Write`, `Edit`, `MultiEdit`, `NotebookEdit`) changes. */
function writtenFile(call: ToolCall): string | undefined {
  if (!/^(?:Write|Edit|MultiEdit|NotebookEdit|write_file|edit_file)$/.test(call.name)) return undefined;
  const input = call.input as Record<string, unknown> | null;
  const path = input?.file_path ?? input?.notebook_path ?? input?.path;
  return typeof path === "string" ? path : undefined;
}

/** `~/x`, `$HOME/x`, a workspace-relative or an absolute path, as the agent's shell would read it. */
function resolvePath(word: string, ctx: PathContext): string | undefined {
  const home = /^(?:~|\$HOME|\$\{HOME\})(\/.*)?$/.exec(word);
  if (home) return normalize(join(ctx.home, home[1] ?? ""));
  if (word.includes("$") || word === "") return undefined;
  return isAbsolute(word) ? normalize(word) : normalize(join(ctx.workspace, word));
}

/** The files a script's redirections write (`> f`, `>> f`, `>| f`, `&> f`). */
function redirectTargets(script: string): string[] {
  const out: string[] = [];
  for (const line of script.split("\n")) {
    let tokens: ReturnType<typeof parseShell>;
    try {
      tokens = parseShell(line, (name) => `$${name}`);
    } catch {
      continue;
    }
    tokens.forEach((t, i) => {
      const next = tokens[i + 1];
      if (
        typeof t === "object" &&
        "op" in t &&
        /^(?:>|>>|>\||&>|&>>)$/.test(t.op) &&
        typeof next === "string"
      )
        out.push(next);
    });
  }
  return out;
}

function scriptActions(script: string, ctx: PathContext): ActionInput[] {
  const out: ActionInput[] = [];
  const shown = script.trim().split("\n")[0]!;
  for (const f of commandFindings(["sh", "-c", script]))
    out.push({ ...f, argv: f.argv ?? ["sh", "-c", script], origin: script });
  const change = (cls: ActionInput["class"] | undefined, path: string, argv: readonly string[]) => {
    if (cls)
      out.push({ class: cls, target: displayPath(path, ctx), detail: argv.join(" "), argv, origin: script });
  };
  for (const word of redirectTargets(script)) {
    const path = resolvePath(word, ctx);
    if (path) change(writeClass(path, ctx), path, [shown]);
  }
  for (const words of scriptCommands(script)) {
    if (words[0] !== "rm" && words[0] !== "rmdir") continue;
    for (const w of words.slice(1).filter((x) => !x.startsWith("-"))) {
      const path = resolvePath(w, ctx);
      if (path && path !== "/") change(deleteClass(path, ctx), path, words);
    }
  }
  return out;
}

/** The risky actions the tool calls of a result asked for. */
export function toolCallActions(calls: readonly ToolCall[], ctx: PathContext): ActionInput[] {
  const out: ActionInput[] = [];
  for (const call of calls) {
    const script = scriptOf(call);
    const file = writtenFile(call);
    const found = script ? scriptActions(script, ctx) : [];
    const path = file ? resolvePath(file, ctx) : undefined;
    const cls = path ? writeClass(path, ctx) : undefined;
    if (path && cls)
      found.push({
        class: cls,
        target: displayPath(path, ctx),
        detail: `${call.name} ${file}`,
        argv: [call.name, file!],
      });
    out.push(...found.map((a) => ({ ...a, denied: true })));
  }
  return out;
}

/** The result with what its tool calls asked for among its observed actions (those seen done stay as seen). */
export function withToolCallActions(result: AgentResult, ctx: PathContext): AgentResult {
  const asked = toolCallActions(result.toolCalls, ctx);
  if (asked.length === 0) return result;
  const observed = result.observed ?? {
    by: "none" as const,
    reason: "no process observed",
    actions: [],
    processes: 0,
  };
  const seen = new Set(observed.actions.map((a) => `${a.class}\0${a.target}`));
  const extra = new ActionSet();
  for (const a of asked) if (!seen.has(`${a.class}\0${a.target}`)) extra.add(a);
  if (extra.size === 0) return result;
  return { ...result, observed: { ...observed, actions: [...observed.actions, ...extra.list()] } };
}
