/**
 * The sandbox for untrusted code: every probe of an agent-written module, every `javascript` predicate and
 * every suite oracle runs in a child process with a timeout (SIGKILL of its whole process group), a memory
 * cap (V8 heap flag plus a resident-memory watch over the group) and a scrubbed environment. Secrets of the
 * parent's environment are also redacted from everything we return, in case a child found them elsewhere.
 */
import { randomBytes } from "node:crypto";
import { existsSync, statSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { GATE_IDS, isGateId } from "../../gates/ids.js";
import { Redactor } from "../util/redact.js";
import { CODE_EXTENSIONS, childAssets, childScript, compileModule } from "./compile.js";
import { redactSecrets, scrubbedEnv, secretValues } from "./env.js";
import { isolation } from "./isolation/detect.js";
import type { ConfineLimits } from "./isolation/types.js";
import { spawnLimited } from "./process.js";
import type { ChildEnvelope, ChildMessage } from "./protocol.js";
import type { CommandOutcome, SandboxFailure, SandboxLimits, SandboxOutcome, SandboxTask } from "./types.js";

export { isSecretName, redactSecrets, scrubbedEnv } from "./env.js";
export type * from "./types.js";

/** Resident memory a Node child needs beyond its JS heap (code, wasm, buffers). */
export const RSS_OVERHEAD_MB = 160;
/** Resident-memory cap of a sandboxed shell command (whole process group) when the caller sets none. */
export const DEFAULT_COMMAND_MEMORY_MB = 1024;

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
});

/**
 * Node's permission model, where this Node has it: the child may read only its own script and assets, the
 * module and the working directory — not `/proc/<parent>/environ` (the parent's secrets), not the rest of
 * the disk — and may not write files, spawn processes or start workers. Node 20 spells it
 * `--experimental-permission`; 22.13+ and 24 `--permission`.
 */
export function permissionFlags(readable: readonly string[], version = process.versions.node): string[] {
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
 * Runs a gate or predicate task on an untrusted module in a fresh child process.
 * Never throws for anything the module does; `ok: false` says what happened and in which phase.
 */
export async function runSandboxed<T>(
  task: SandboxTask,
  limits: SandboxLimits,
  opts: {
    cwd?: string;
    priority?: number;
    /** The folder the module may import from (default: its own folder); nothing outside it is bundled. */
    root?: string;
  } = {},
): Promise<SandboxOutcome<T>> {
  const secrets = secretValues();
  const modulePath = resolve(opts.cwd ?? process.cwd(), task.module);
  if (!existsSync(modulePath) || !statSync(modulePath).isFile()) {
    return fail("load", `${task.module}: module not found`, "", "load");
  }
  if (task.kind !== "predicate" && !isGateId(task.gate))
    return fail("load", `unknown gate '${task.gate}' (known: ${GATE_IDS.join(", ")})`, "", "load");
  // Locating (from source: building) the child script and compiling the module proceed together.
  const childReady = childScript(task.kind === "predicate" ? undefined : task.gate);
  childReady.catch(() => {}); // awaited below, after the compile
  let compiled: ChildEnvelope["compiled"];
  if (CODE_EXTENSIONS.test(modulePath)) {
    const out = await compileModule(modulePath, opts.root ? resolve(opts.root) : dirname(modulePath));
    if (!out.ok) return fail("load", redactSecrets(out.message, secrets), "", "load");
    compiled = { file: out.file, format: out.format };
  }
  const nonce = randomBytes(16).toString("hex");
  const envelope: ChildEnvelope = { nonce, task, modulePath, compiled, assets: childAssets() };

  let loaded = false;
  let result: Extract<ChildMessage, { type: "result" }> | undefined;
  let pending = "";
  const onChunk = (chunk: string) => {
    pending += chunk;
    let nl = pending.indexOf("\n");
    while (nl >= 0) {
      const line = pending.slice(0, nl);
      pending = pending.slice(nl + 1);
      nl = pending.indexOf("\n");
      if (!line.startsWith(`${nonce} `)) continue; // forged or stray: ignore
      try {
        const msg = JSON.parse(line.slice(nonce.length + 1)) as ChildMessage;
        if (msg.type === "loaded") loaded = true;
        else if (msg.type === "result" && !result) result = msg;
      } catch {
        // a torn line cannot come from the child's own single write; ignore
      }
    }
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
  // Confined, only the module's own folder exists as a working folder (it holds the module alone).
  const cwd = (await isolation()).level === "none" ? (opts.cwd ?? dirname(modulePath)) : dirname(modulePath);
  const out = await spawnLimited({
    command: process.execPath,
    args: [
      `--max-old-space-size=${limits.memoryMb}`,
      "--expose-gc",
      "--stack-size=4000",
      ...permissionFlags(readable),
      child,
    ],
    cwd,
    env: scrubbedEnv(),
    stdin: JSON.stringify(envelope),
    timeoutMs: limits.timeoutMs,
    rssLimitMb: limits.memoryMb + RSS_OVERHEAD_MB,
    resultChannel: true,
    onResultChunk: onChunk,
    priority: opts.priority,
    // Inside bubblewrap: Node, the child's own files, the compiled module and a copy of the module's source
    // (its folder stays out of sight: relative imports are bundled), read-only; no network.
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
  const stderr = redactSecrets(out.stderr, secrets);
  const phase = loaded ? "run" : "load";
  const where = loaded ? "while probing" : "while loading the module";

  if (result?.ok) return { ok: true, value: redactDeep(result.value as T, secrets), stderr };
  if (result && !result.ok)
    return fail(result.failure, redactSecrets(result.message, secrets), stderr, phase);
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
