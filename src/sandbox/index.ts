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
import { ResultChannel } from "./channel.js";
import { preloadFile } from "./child-build.mjs";
import { CODE_EXTENSIONS, childAssets, childScript, compileModule } from "./compile.js";
import { redactSecrets, scrubbedEnv, secretValues } from "./env.js";
import { isolation } from "./isolation/detect.js";
import type { ConfineLimits } from "./isolation/types.js";
import { MIB, spawnLimited } from "./process.js";
import { type ChildEnvelope, MAC_KEY_BYTES, type ProbeAnswer } from "./protocol.js";
import { inputJson } from "./tagged.js";
import type { CommandOutcome, SandboxFailure, SandboxLimits, SandboxOutcome, SandboxTask } from "./types.js";

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

/** A live sandbox child, for the caller to talk to while it runs (see `runSandboxSession`). */
export interface LiveChild {
  /** Resolves once the module loaded and its export was found. */
  loaded: Promise<{ export?: string; fnName?: string }>;
  /** Sends one batch of probes; resolves with the collector's answers, in order. */
  request(probes: unknown[]): Promise<ProbeAnswer[]>;
  /** A predicate's value. */
  result: Promise<unknown>;
}

/** Thrown into the caller's work when the child ended, failed or was tampered with before answering. */
export class ChildGone extends Error {}

/**
 * Runs untrusted code in a fresh child process and lets `use` talk to it: the child loads the module, then
 * answers requests until `use` settles (its stdin is closed then and it exits). Never throws for anything the
 * module does; `ok: false` says what happened and in which phase. A result channel carrying a line the child
 * did not sign fails the run as `tamper`, even when `use` finished.
 */
export async function runSandboxSession<T>(
  task: SandboxTask,
  limits: SandboxLimits,
  opts: {
    cwd?: string;
    priority?: number;
    /** The folder the module may import from (default: its own folder); nothing outside it is bundled. */
    root?: string;
  },
  use: (child: LiveChild) => Promise<T>,
): Promise<SandboxOutcome<T>> {
  const secrets = secretValues();
  const modulePath = resolve(opts.cwd ?? process.cwd(), task.module);
  if (!existsSync(modulePath) || !statSync(modulePath).isFile()) {
    return fail("load", `${task.module}: module not found`, "", "load");
  }
  // The gate's id names its child file: the caller (gates/registry.ts) knows the gates, the sandbox only the shape.
  if (task.kind !== "predicate" && !GATE_ID_SHAPE.test(task.gate))
    return fail("load", `unknown gate '${task.gate}'`, "", "load");
  // Locating (from source: building) the child script and compiling the module proceed together.
  const childReady = childScript(task.kind === "predicate" ? undefined : task.gate);
  childReady.catch(() => {}); // awaited below, after the compile
  let compiled: ChildEnvelope["compiled"];
  if (CODE_EXTENSIONS.test(modulePath)) {
    const out = await compileModule(modulePath, opts.root ? resolve(opts.root) : dirname(modulePath));
    if (!out.ok) return fail("load", redactSecrets(out.message, secrets), "", "load");
    compiled = { file: out.file, format: out.format };
  }
  const key = randomBytes(MAC_KEY_BYTES);
  const envelope: ChildEnvelope = { task, modulePath, compiled, assets: childAssets() };

  // The conversation: messages from the child settle these; the child's end rejects whatever is still open.
  let loadedInfo: { export?: string; fnName?: string } | undefined;
  let failed: { failure: "load" | "crash"; message: string } | undefined;
  let gone: ((err: ChildGone) => void)[] = [];
  const settleOnEnd = <V>(executor: (resolve: (v: V) => void) => void): Promise<V> =>
    new Promise<V>((res, rej) => {
      gone.push(rej);
      executor(res);
    });
  let resolveLoaded!: (v: { export?: string; fnName?: string }) => void;
  let resolveResult!: (v: unknown) => void;
  const loaded = settleOnEnd<{ export?: string; fnName?: string }>((r) => {
    resolveLoaded = r;
  });
  const result = settleOnEnd<unknown>((r) => {
    resolveResult = r;
  });
  loaded.catch(() => {});
  result.catch(() => {});
  const waiting = new Map<number, (answers: ProbeAnswer[]) => void>();
  let nextId = 1;
  let stdin: NodeJS.WritableStream | undefined;
  const channel = new ResultChannel(key, (msg) => {
    if (msg.type === "loaded" && !loadedInfo) {
      loadedInfo = { export: msg.export, fnName: msg.fnName };
      resolveLoaded(loadedInfo);
    } else if (msg.type === "observed" && waiting.has(msg.id)) {
      const answer = waiting.get(msg.id) as (a: ProbeAnswer[]) => void;
      waiting.delete(msg.id);
      answer(msg.answers);
    } else if (msg.type === "result") resolveResult(msg.value);
    else if (msg.type === "failed") failed ??= { failure: msg.failure, message: msg.message };
    else return; // a signed message we did not ask for: ignored (the child never sends one)
    if (msg.type === "failed") endConversation(`the child failed: ${msg.message}`);
  });
  const endConversation = (why: string) => {
    const rejects = gone;
    gone = [];
    for (const r of rejects) r(new ChildGone(why));
    for (const [id] of waiting) waiting.delete(id);
  };
  const live: LiveChild = {
    loaded,
    result,
    request(probes) {
      if (channel.tampered || !stdin) return Promise.reject(new ChildGone("the child is not running"));
      const id = nextId++;
      return settleOnEnd<ProbeAnswer[]>((res) => {
        waiting.set(id, res);
        // Probe inputs may hold NaN, −0 or undefined: written tagged (decodeInput reads them back).
        (stdin as NodeJS.WritableStream).write(`${inputJson({ id, probes })}\n`);
      });
    },
  };

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
      stdin = s;
      s.on("error", () => {}); // the child may exit before reading everything
      s.write(key);
      s.write(`${JSON.stringify(envelope)}\n`);
      work = use(live).then(
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
      channel.push(chunk);
      // Nothing more from this child is believed: stop asking, so it reads end-of-file and exits.
      if (channel.tampered) endConversation("the result channel was tampered with");
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
  channel.close();
  endConversation("the child ended");
  const done = work ? await work : undefined;
  const stderr = redactSecrets(out.stderr, secrets);
  const phase = loadedInfo ? "run" : "load";
  const where = loadedInfo ? "while probing" : "while loading the module";

  if (channel.tampered)
    return fail(
      "tamper",
      `the result channel was tampered with ${where}: ${channel.tampered}`,
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
