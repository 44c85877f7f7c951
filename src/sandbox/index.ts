/**
 * The sandbox for untrusted code: every probe of an agent-written module, every `javascript` predicate and
 * every suite oracle runs in a child process with a timeout (SIGKILL of its whole process group), a memory
 * cap (V8 heap flag plus a resident-memory watch over the group) and a scrubbed environment. Secrets of the
 * parent's environment are also redacted from everything we return, in case a child found them elsewhere.
 */
import { randomBytes } from "node:crypto";
import { existsSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { Redactor } from "../util/redact.js";
import { preloadFile } from "./child-build.mjs";
import { CODE_EXTENSIONS, childAssets, childScript, compileModule } from "./compile.js";
import { ChildGone, Conversation, type LiveChild } from "./conversation.js";
import { redactSecrets, scrubbedEnv, secretValues } from "./env.js";
import { isolation } from "./isolation/detect.js";
import type { ConfineLimits } from "./isolation/types.js";
import { MIB, spawnLimited } from "./process.js";
import { type ChildEnvelope, MAC_KEY_BYTES } from "./protocol.js";
import type { CommandOutcome, SandboxFailure, SandboxLimits, SandboxOutcome, SandboxTask } from "./types.js";

export { ChildGone, type LiveChild } from "./conversation.js";
export { isSecretName, redactSecrets, scrubbedEnv } from "./env.js";
export type * from "./types.js";

/** What Node throws when the OS refuses memory (the run's RLIMIT_DATA, or its cgroup's cap). */
const ALLOCATION_REFUSED = /Array buffer allocation failed|Cannot allocate memory|ENOMEM/;

/** A gate id as a child file's name may hold it (`gate-<id>.cjs`): nothing that could leave its folder. */
const GATE_ID_SHAPE = /^[a-z][a-z0-9-]*$/;

/** Resident memory a Node child needs beyond its JS heap (code, wasm, buffers). */
const RSS_OVERHEAD_MB = 160;
/** Resident-memory cap of a sandboxed shell command (whole process group) when the caller sets none. */
const DEFAULT_COMMAND_MEMORY_MB = 1024;

/**
 * OS limits of a gate child, predicate or oracle inside bubblewrap. Processes count threads too: a Node child
 * runs about a dozen, and an oracle may start a few programs; a fork bomb stops at the cap.
 */
export const CHILD_CONFINE_LIMITS: ConfineLimits = Object.freeze({
  processes: 256,
  fileSizeBytes: 16 * 1024 * 1024,
  /** The private /tmp, the only writable place unless the caller binds one: RAM, so kept small. */
  tmpBytes: 64 * 1024 * 1024,
  openFiles: 1024,
  // Each run's own memory cap (its rssLimitMb) replaces these two (process.ts).
  dataBytes: DEFAULT_COMMAND_MEMORY_MB * MIB,
  memoryBytes: DEFAULT_COMMAND_MEMORY_MB * MIB,
});

/**
 * Node's permission model, where this Node has it: the child may read only its own script and assets, the
 * module and the working directory — not `/proc/<parent>/environ` (the parent's secrets), not the rest of
 * the disk — and may not write files, spawn processes or start workers. Node 20 spells it
 * `--experimental-permission`; 22.13+ and 24 `--permission`.
 */
function permissionFlags(readable: readonly string[], version = process.versions.node): string[] {
  const [major = 0, minor = 0] = version.split(".").map(Number);
  const flag =
    major >= 23 || (major === 22 && minor >= 13)
      ? "--permission"
      : major >= 20
        ? "--experimental-permission"
        : undefined;
  if (!flag) return [];
  return [flag, "--disable-warning=ExperimentalWarning", ...readable.map((p) => `--allow-fs-read=${p}`)];
}

/**
 * Flags of every sandbox child: no native addons. (The built-ins are frozen by the child itself before the
 * module loads, src/sandbox/harden.ts, which says why not with `--frozen-intrinsics`.)
 */
const CHILD_HARDENING_FLAGS = ["--no-addons"] as const;

/** Preloaded before the intrinsics freeze: a gate's instruments on built-ins (complexity's counters). */
function childPreloads(task: SandboxTask, child: string): string[] {
  if (task.kind !== "gate" || !task.child.preload) return [];
  return ["--require", join(dirname(child), preloadFile(task.gate))];
}

function redactDeep<T>(value: T, secrets: readonly string[]): T {
  if (secrets.length === 0 || value === undefined) return value;
  return new Redactor(secrets).redactDeep(value);
}

function fail<T>(
  failure: SandboxFailure,
  message: string,
  stderr: string,
  phase: "load" | "run",
): SandboxOutcome<T> {
  return { ok: false, failure, message, stderr, phase };
}

/**
 * Runs untrusted code in a fresh child process and lets `use` talk to it: the child loads the module, then
 * answers requests until `use` settles (its stdin is closed then and it exits). Never throws for anything the
 * module does; `ok: false` says what happened and in which phase. A result channel carrying a line the child
 * did not sign fails the run as `tamper`, even when `use` finished.
 */
export async function runSandboxSession<T>(
  task: SandboxTask,
  limits: SandboxLimits,
  opts: SessionOptions,
  use: (child: LiveChild) => Promise<T>,
): Promise<SandboxOutcome<T>> {
  const secrets = secretValues();
  const prepared = await prepareModule(task, opts, secrets);
  if ("fail" in prepared) return prepared.fail;
  const { modulePath, compiled, childReady } = prepared;
  const key = randomBytes(MAC_KEY_BYTES);
  const envelope: ChildEnvelope = { task, modulePath, compiled, assets: childAssets() };
  const talk = new Conversation(key);
  const child = await childReady;
  if (!existsSync(child)) return fail("crash", `the sandbox child is missing: ${child}`, "", "load");
  const readable = [
    dirname(child),
    envelope.assets.sqlWasm,
    modulePath,
    ...(compiled ? [dirname(compiled.file)] : []),
  ];
  if (opts.cwd) readable.push(opts.cwd);
  let work: Promise<{ ok: true; value: T } | { ok: false; error: unknown }> | undefined;
  // Confined, only the module's own folder exists as a working folder (it holds the module alone).
  const cwd = (await isolation()).level === "none" ? (opts.cwd ?? dirname(modulePath)) : dirname(modulePath);
  const out = await spawnLimited({
    command: process.execPath,
    args: [
      `--max-old-space-size=${limits.memoryMb}`,
      "--expose-gc",
      "--stack-size=4000",
      ...CHILD_HARDENING_FLAGS,
      ...permissionFlags(readable),
      ...childPreloads(task, child),
      child,
    ],
    cwd,
    env: scrubbedEnv(),
    onStdin: (s) => {
      talk.stdin = s;
      s.on("error", () => {}); // the child may exit before reading everything
      s.write(key);
      s.write(`${JSON.stringify(envelope)}\n`);
      work = use(talk.live).then(
        (value) => ({ ok: true as const, value }),
        (error: unknown) => ({ ok: false as const, error }),
      );
      // Done talking: the child reads end-of-file and exits.
      void work.finally(() => s.end());
    },
    timeoutMs: limits.timeoutMs,
    rssLimitMb: limits.memoryMb + RSS_OVERHEAD_MB,
    resultChannel: true,
    onResultChunk: (chunk) => {
      talk.channel.push(chunk);
      // Nothing more from this child is believed: stop asking, so it reads end-of-file and exits.
      if (talk.channel.tampered) talk.end("the result channel was tampered with");
    },
    priority: opts.priority,
    // Inside bubblewrap: Node, the child's own files (entry, preloads), the compiled module and a copy of the
    // module's source (its folder stays out of sight: relative imports are bundled), read-only; no network.
    confine: {
      readOnly: [
        process.execPath,
        dirname(child),
        envelope.assets.sqlWasm,
        ...(compiled ? [compiled.file] : []),
      ],
      copies: { [modulePath]: modulePath },
      limits: CHILD_CONFINE_LIMITS,
    },
  });
  talk.channel.close();
  talk.end("the child ended");
  return sessionOutcome(talk, out, work ? await work : undefined, limits, secrets);
}

interface SessionOptions {
  cwd?: string;
  priority?: number;
  /** The folder the module may import from (default: its own folder); nothing outside it is bundled. */
  root?: string;
}

/** The module found and compiled while the child script is located (from source: built). */
async function prepareModule(
  task: SandboxTask,
  opts: SessionOptions,
  secrets: readonly string[],
): Promise<
  | { modulePath: string; compiled: ChildEnvelope["compiled"]; childReady: Promise<string> }
  | { fail: SandboxOutcome<never> }
> {
  const modulePath = resolve(opts.cwd ?? process.cwd(), task.module);
  if (!existsSync(modulePath) || !statSync(modulePath).isFile())
    return { fail: fail("load", `${task.module}: module not found`, "", "load") };
  // The gate's id names its child file: the caller (gates/registry.ts) knows the gates, the sandbox only the shape.
  if (task.kind !== "predicate" && !GATE_ID_SHAPE.test(task.gate))
    return { fail: fail("load", `unknown gate '${task.gate}'`, "", "load") };
  const childReady = childScript(task.kind === "predicate" ? undefined : task.gate);
  childReady.catch(() => {}); // awaited by the caller, after the compile
  let compiled: ChildEnvelope["compiled"];
  if (CODE_EXTENSIONS.test(modulePath)) {
    const out = await compileModule(modulePath, opts.root ? resolve(opts.root) : dirname(modulePath));
    if (!out.ok) return { fail: fail("load", redactSecrets(out.message, secrets), "", "load") };
    compiled = { file: out.file, format: out.format };
  }
  return { modulePath, compiled, childReady };
}

/** What the session came to: the caller's value, or what the module did (tamper first, then its own report, then how it ended). */
function sessionOutcome<T>(
  talk: Conversation,
  out: Awaited<ReturnType<typeof spawnLimited>>,
  done: { ok: true; value: T } | { ok: false; error: unknown } | undefined,
  limits: SandboxLimits,
  secrets: readonly string[],
): SandboxOutcome<T> {
  const stderr = redactSecrets(out.stderr, secrets);
  const phase = talk.loadedInfo ? "run" : "load";
  const where = talk.loadedInfo ? "while probing" : "while loading the module";
  const failed = talk.failed;
  if (talk.channel.tampered)
    return fail(
      "tamper",
      `the result channel was tampered with ${where}: ${talk.channel.tampered}`,
      stderr,
      phase,
    );
  if (done?.ok) return { ok: true, value: redactDeep(done.value, secrets), stderr };
  if (done && !(done.error instanceof ChildGone)) throw done.error; // our own code failed: not the module's doing
  // An allocation refused by the run's data limit (RLIMIT_DATA, bwrap.ts) surfaces as a thrown RangeError.
  if (failed && out.isolation !== "none" && ALLOCATION_REFUSED.test(failed.message))
    return fail(
      "memory",
      `exceeded the memory cap of ${limits.memoryMb} MiB ${where} (an allocation was refused: ${redactSecrets(failed.message, secrets).slice(0, 200)})`,
      stderr,
      phase,
    );
  if (failed) return fail(failed.failure, redactSecrets(failed.message, secrets), stderr, phase);
  if (out.spawnError) return fail("crash", `could not start the sandbox: ${out.spawnError}`, stderr, phase);
  if (out.killedFor === "timeout")
    return fail("timeout", `timed out after ${limits.timeoutMs} ms ${where} (killed)`, stderr, phase);
  const heapOom = /heap out of memory|Allocation failed|Reached heap limit/i.test(out.stderr);
  if (out.killedFor === "memory" || heapOom)
    return fail(
      "memory",
      `exceeded the memory cap of ${limits.memoryMb} MiB ${where} (killed)`,
      stderr,
      phase,
    );
  if (out.signal) return fail("crash", `sandbox child killed by ${out.signal} ${where}`, stderr, phase);
  return fail(
    "exit",
    `the process exited with code ${out.exitCode} ${where} before reporting a result (process.exit in the module?)`,
    stderr,
    phase,
  );
}

/** Runs a predicate on an untrusted module in a fresh child process: its JSON value, or what went wrong. */
export function runSandboxed<T>(
  task: Extract<SandboxTask, { kind: "predicate" }>,
  limits: SandboxLimits,
  opts: { cwd?: string; priority?: number; root?: string } = {},
): Promise<SandboxOutcome<T>> {
  return runSandboxSession(task, limits, opts, async (child) => (await child.result) as T);
}

/**
 * Runs a shell command (e.g. a suite's oracle) under the same limits: scrubbed env (plus `opts.env`), own
 * process group killed on timeout, resident-memory cap over the group, capped and redacted output.
 */
export async function runSandboxedCommand(
  command: string,
  opts: {
    cwd: string;
    timeoutMs: number;
    memoryMb?: number;
    stdin?: string;
    env?: Record<string, string>;
    /**
     * Folders the command may write (bound read-write as they are: their ownership and modes are never changed,
     * so the sandbox uid writes only where their modes let anyone write). Default: none but its private /tmp.
     */
    writable?: readonly string[];
  },
): Promise<CommandOutcome> {
  const secrets = secretValues();
  const memoryMb = opts.memoryMb ?? DEFAULT_COMMAND_MEMORY_MB;
  const shell = process.platform === "win32" ? "cmd.exe" : "/bin/sh";
  const args = process.platform === "win32" ? ["/d", "/s", "/c", command] : ["-c", command];
  const out = await spawnLimited({
    command: shell,
    args,
    cwd: opts.cwd,
    env: scrubbedEnv(opts.env),
    stdin: opts.stdin,
    timeoutMs: opts.timeoutMs,
    rssLimitMb: memoryMb,
    // Its working folder read-only, and the folder of the Node running skillgate (an oracle may be a Node script).
    confine: {
      readOnly: [opts.cwd, dirname(process.execPath)],
      writable: opts.writable,
      limits: CHILD_CONFINE_LIMITS,
    },
  });
  const base = {
    exitCode: out.exitCode,
    stdout: redactSecrets(out.stdout, secrets),
    stderr: redactSecrets(out.stderr, secrets),
  };
  if (out.spawnError)
    return { ...base, ok: false, failure: "crash", message: `could not start: ${out.spawnError}` };
  if (out.killedFor === "timeout")
    return {
      ...base,
      ok: false,
      failure: "timeout",
      message: `timed out after ${opts.timeoutMs} ms (killed)`,
    };
  if (out.killedFor === "memory")
    return {
      ...base,
      ok: false,
      failure: "memory",
      message: `exceeded the memory cap of ${memoryMb} MiB (killed)`,
    };
  if (out.signal) return { ...base, ok: false, failure: "crash", message: `killed by ${out.signal}` };
  if (out.exitCode !== 0)
    return { ...base, ok: false, failure: "exit", message: `exited with code ${out.exitCode}` };
  return { ...base, ok: true };
}
