/**
 * A command (an agent's or a judge's) checked before any trial: a program that cannot start inside the sandbox
 * would fail every trial alike, and its crash would only say "exit 127" about a path the user never wrote (a
 * version manager's shim runs its manager from a folder the sandbox does not have). Each problem names the real
 * path and the fix. Only what can be known without running the program: it is found, every word that looks like
 * a file names one, and when agents run confined, what it starts (a shim's manager, a script's interpreter, an
 * interpreter's installation) lies where the sandbox can read.
 */
import { closeSync, existsSync, openSync, readFileSync, readSync, realpathSync, statSync } from "node:fs";
import { basename, delimiter, dirname, isAbsolute, join, resolve } from "node:path";
import type { Isolation } from "../sandbox/isolation/types.js";
import { programPaths, sandboxOptions } from "./confine.js";
import { resolveCommand, splitShellWords } from "./shell-words.js";

export interface CommandProblem {
  /** What is wrong, naming the real path. */
  problem: string;
  /** What to write instead. */
  fix: string;
}

/** Version managers whose shims hand over to the manager at run time, and how each says where a program is. */
const MANAGERS = [
  "pyenv",
  "rbenv",
  "nodenv",
  "goenv",
  "jenv",
  "plenv",
  "phpenv",
  "asdf",
  "mise",
  "rtx",
  "volta",
];
/** Interpreters whose standard library lives beside them (`<prefix>/bin/python3` needs `<prefix>/lib/`). */
const PREFIX_INTERPRETERS = /^(python|pypy|ruby|perl|php)[\d.]*$/;
/** A word that is meant as a file: a path with a slash, or a script's name. */
export const FILE_LIKE = /^[^-=\s][^=\s]*(\/[^=\s]*|\.(py|mjs|cjs|js|ts|rb|sh|pl|php))$/;
const HEAD_BYTES = 4096;

function head(file: string): string {
  const fd = openSync(file, "r");
  try {
    const buf = Buffer.alloc(HEAD_BYTES);
    return buf.subarray(0, readSync(fd, buf, 0, HEAD_BYTES, 0)).toString("latin1");
  } finally {
    closeSync(fd);
  }
}

function onPath(name: string, path: string): string | undefined {
  for (const dir of path.split(delimiter)) {
    if (dir.startsWith("/") && existsSync(join(dir, name)) && statSync(join(dir, name)).isFile())
      return join(dir, name);
  }
  return undefined;
}

function inside(path: string, folder: string): boolean {
  return path === folder || path.startsWith(folder.endsWith("/") ? folder : `${folder}/`);
}

/**
 * The manager a program file is a shim of: a link to the manager's own binary (mise, volta), or a script in a
 * `shims` folder that names its manager (pyenv, rbenv, asdf …).
 */
function shimOf(path: string, real: string, text: string): string | undefined {
  for (const m of MANAGERS) {
    if (basename(real).startsWith(m) && basename(real) !== basename(path)) return m;
    if (/\/shims\//.test(path) && text.startsWith("#!") && new RegExp(`\\b${m}\\b`).test(text)) return m;
  }
  return undefined;
}

/** The absolute paths a shell script hands over to (`exec "/root/.pyenv/libexec/pyenv" exec …`). */
function execTargets(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/\bexec\s+["']?(\/[^\s"']+)/g)) out.push(m[1]!);
  return out;
}

/** Where pyenv would find `name` (its version file), for the fix; undefined when it cannot tell. */
function pyenvInterpreter(shim: string, name: string, env: NodeJS.ProcessEnv): string | undefined {
  const root = env.PYENV_ROOT ?? dirname(dirname(shim));
  let version = env.PYENV_VERSION?.split(":")[0];
  try {
    version ??= readFileSync(join(root, "version"), "utf8").split(/\s+/)[0];
  } catch {
    // no global version file
  }
  const file = version ? join(root, "versions", version, "bin", name) : undefined;
  return file && existsSync(file) ? file : undefined;
}

/** The installation folder of an interpreter at `<prefix>/bin/<name>` with its library at `<prefix>/lib`. */
function installationOf(real: string): string | undefined {
  if (!PREFIX_INTERPRETERS.test(basename(real)) || basename(dirname(real)) !== "bin") return undefined;
  const prefix = dirname(dirname(real));
  return existsSync(join(prefix, "lib")) ? prefix : undefined;
}

export interface CommandCheckInput {
  /** The configured shell words, and the key they were read from (`agent.command`, `judge.command`). */
  command: string;
  key: string;
  /** Where relative words resolve (the trusted tree). */
  dir: string;
  /** The adapter's options (`sandbox.readOnly` adds readable paths). */
  options?: Record<string, unknown>;
  /** The environment the program gets its PATH from, and the version managers' variables. */
  env: NodeJS.ProcessEnv;
  /** This machine's isolation; level `none`: the program runs on the host, nothing to check about the sandbox. */
  isolation: Isolation;
}

/** The first problem of the command, or undefined when it can start. */
export function checkCommand(c: CommandCheckInput): CommandProblem | undefined {
  const written = `\`${c.command}\``;
  const { file, args } = resolveCommand(c.command, c.dir);
  const program = isAbsolute(file) ? file : onPath(file, c.env.PATH ?? "");
  if (!program || !existsSync(program))
    return {
      problem: `${c.key} ${written}: ${isAbsolute(file) ? `${file} does not exist` : `\`${file}\` is not on PATH (${c.env.PATH ?? ""})`}`,
      fix: `install it, or write its absolute path in ${c.key}`,
    };
  const words = splitShellWords(c.command).slice(1);
  for (const [i, word] of words.entries()) {
    if (!FILE_LIKE.test(word) || isAbsolute(word) || args[i] !== word) continue;
    if (!existsSync(resolve(c.dir, word)))
      return {
        problem: `${c.key} ${written}: \`${word}\` names no file of the repository (relative words resolve from its root, ${c.dir})`,
        fix: `write the path from the repository's root, or an absolute one`,
      };
  }
  if (c.isolation.level === "none") return undefined;
  return sandboxProblem(c, program, args);
}

/** What of the program the sandbox cannot read (see confine.ts for what it binds). */
function sandboxProblem(c: CommandCheckInput, program: string, args: string[]): CommandProblem | undefined {
  const real = realpathSync(program);
  const sandbox = sandboxOptions(c.options);
  const readable = [
    // A system entry that is a link (/bin → usr/bin on merged-/usr systems) is one inside too.
    ...(c.isolation.layout?.system ?? []).map((e) => e.path),
    ...programPaths([program, ...args], c.dir, { PATH: c.env.PATH ?? "" }),
    dirname(realpathSync(process.execPath)),
    ...sandbox.readOnly,
  ];
  const sees = (p: string) => readable.some((r) => inside(p, r));
  const readOnlyFix = (path: string) =>
    `${c.key.replace(/\.command$/, "")}.options.sandbox.readOnly: [${path}]`;
  const text = statSync(real).isFile() ? head(real) : "";
  const manager = shimOf(program, real, text);
  const hidden = execTargets(text).find((t) => !sees(t));
  if (manager || hidden) {
    const name = basename(program);
    const target = manager === "pyenv" ? pyenvInterpreter(program, name, c.env) : undefined;
    const install = target && installationOf(realpathSync(target));
    const rest = c.command.trim().split(/\s+/).slice(1).join(" ");
    return {
      problem: `${c.key} \`${c.command}\`: \`${name}\` is ${program}, ${manager ? `a ${manager} shim` : "a script"}${hidden ? ` that runs ${hidden}` : ""}, which the sandbox the agent runs in cannot ${hidden ? "see" : "use"} (it holds the system folders and the program's own folder, not ${manager ? `${manager}'s` : "that"} installation)`,
      fix: target
        ? `name the interpreter itself: \`${target}${rest ? ` ${rest}` : ""}\` (what \`${manager} which ${name}\` prints)${install && !sees(install) ? `, with its installation readable: ${readOnlyFix(install)}` : ""}`
        : `name the interpreter itself (${manager ? `\`${manager} which ${name}\`` : "`command -v` in that script"} prints it)${hidden ? `, or make ${dirname(hidden)} readable: ${readOnlyFix(dirname(hidden))}` : ""}`,
    };
  }
  const interpreter = /^#!\s*(\S+)/.exec(text)?.[1];
  if (interpreter && !sees(interpreter))
    return {
      problem: `${c.key} \`${c.command}\`: ${program} starts with \`#!${interpreter}\`, which the sandbox the agent runs in cannot see`,
      fix: `run it with an interpreter under /usr, or make ${dirname(interpreter)} readable: ${readOnlyFix(dirname(interpreter))}`,
    };
  const install = installationOf(real);
  if (install && !sees(install))
    return {
      problem: `${c.key} \`${c.command}\`: the interpreter ${real} needs its installation ${install} (its library), which the sandbox the agent runs in cannot see`,
      fix: `make it readable: ${readOnlyFix(install)}; or use an interpreter under /usr`,
    };
  return undefined;
}
