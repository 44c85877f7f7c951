/**
 * The sandbox child process. Reads the signing key and one task from stdin, hardens its realm, loads the
 * untrusted module and then, for a gate, serves the parent's probe requests with the gate's collector; for a
 * predicate, calls it once. Answers go to fd 3, each line signed (protocol.ts). The child never judges: a
 * gate's verdict is made in the parent from the observations sent here.
 *
 * Everything the child needs after the module loads is captured first (the fs calls, timers, the exit), the
 * ECMAScript built-ins are frozen (`--frozen-intrinsics`) and the global bindings and Node's introspection
 * pinned (harden.ts), so the module can neither change what this code computes nor sign a line itself.
 * Built once per gate (`child-build.mjs`): each built file calls `serveChild` with its gate's collector
 * loader, or with none for predicates.
 */
import { createHash } from "node:crypto";
import { readSync, writeSync } from "node:fs";
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import v8 from "node:v8";
import { hardenRealm } from "./harden.js";
import { MAC_KEY_BYTES, macSigner } from "./mac.js";
import type { ChildEnvelope, ChildMessage, ProbeAnswer, ProbeRequest } from "./protocol.js";
import { RESULT_FD } from "./protocol.js";
import { describeThrown } from "./tagged.js";
import type { ChildCollector, GateInput, ProbeRunner } from "./types.js";

// Captured before any untrusted code runs: the module may replace these on `fs`, `process` or the global.
const stringify = JSON.stringify;
const parseJson = JSON.parse;
const readFd = readSync;
const writeFd = writeSync;
const exitNow: (code: number) => void =
  typeof (process as { reallyExit?: unknown }).reallyExit === "function"
    ? (process as unknown as { reallyExit: (code: number) => void }).reallyExit.bind(process)
    : process.exit.bind(process);
const wait = Atomics.wait;
const sleepCell = new Int32Array(new SharedArrayBuffer(4));
const decoder = new TextDecoder("utf-8");
/** Bytes read from stdin per system call. */
const READ_CHUNK = 64 * 1024;

const hashOf = createHash;
let sign: (digest: Uint8Array) => string = () => {
  throw new Error("the signing key was not read");
};

/** A short sleep while a non-blocking pipe has nothing for us (or no room): the other side is busy. */
function pause(): void {
  wait(sleepCell, 0, 0, 2);
}

function send(msg: ChildMessage): void {
  const json = stringify(msg);
  // Signed: HMAC(key, SHA-256(json)) — see mac.ts for why the digest may come from node:crypto.
  const digest = new Uint8Array(hashOf("sha256").update(json, "utf8").digest());
  const line = `${sign(digest)} ${json}\n`;
  const bytes = Buffer.from(line, "utf8");
  let off = 0;
  while (off < bytes.length) {
    try {
      off += writeFd(RESULT_FD, bytes, off);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EAGAIN") throw err;
      pause();
    }
  }
}

/** Reads stdin: exactly `n` raw bytes, or one line; no string ever holds the key. */
class StdinReader {
  private buf = new Uint8Array(READ_CHUNK);
  private start = 0;
  private end = 0;
  private eof = false;

  private fill(): boolean {
    if (this.eof) return false;
    if (this.start > 0) {
      this.buf.copyWithin(0, this.start, this.end);
      this.end -= this.start;
      this.start = 0;
    }
    if (this.end === this.buf.length) {
      const bigger = new Uint8Array(this.buf.length * 2);
      bigger.set(this.buf.subarray(0, this.end));
      this.buf = bigger;
    }
    for (;;) {
      try {
        const n = readFd(0, this.buf, this.end, this.buf.length - this.end, null);
        if (n === 0) {
          this.eof = true;
          return false;
        }
        this.end += n;
        return true;
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (code === "EOF") {
          this.eof = true;
          return false;
        }
        if (code !== "EAGAIN") throw err;
        pause();
      }
    }
  }

  bytes(n: number): Uint8Array | undefined {
    while (this.end - this.start < n) if (!this.fill()) return undefined;
    const out = new Uint8Array(n);
    out.set(this.buf.subarray(this.start, this.start + n));
    this.buf.fill(0, this.start, this.start + n);
    this.start += n;
    return out;
  }

  line(): string | undefined {
    for (;;) {
      const nl = this.buf.subarray(this.start, this.end).indexOf(10);
      if (nl >= 0) {
        const text = decoder.decode(this.buf.subarray(this.start, this.start + nl));
        this.start += nl + 1;
        return text;
      }
      if (!this.fill()) return undefined;
    }
  }
}

class LoadError extends Error {}

async function loadModule(
  compiled: NonNullable<ChildEnvelope["compiled"]>,
): Promise<Record<string, unknown>> {
  try {
    if (compiled.format === "cjs")
      return createRequire(compiled.file)(compiled.file) as Record<string, unknown>;
    return (await import(pathToFileURL(compiled.file).href)) as Record<string, unknown>;
  } catch (err) {
    throw new LoadError(`the module threw while being imported: ${describeThrown(err)}`);
  }
}

function listExports(mod: Record<string, unknown>): string {
  const names = Object.keys(mod).filter((k) => k !== "__esModule");
  return names.length ? names.join(", ") : "none";
}

/** The requested export, or the gate's conventional names, the default export, a CJS function, a lone function. */
function resolveExport(
  mod: Record<string, unknown>,
  name: string | undefined,
  conventional: readonly string[],
): { name: string; value: unknown } {
  const dflt = mod.default as Record<string, unknown> | undefined;
  const lookup = (n: string): unknown =>
    n in mod ? mod[n] : dflt !== null && typeof dflt === "object" && n in dflt ? dflt[n] : undefined;
  if (name === "default" && typeof mod === "function") return { name: "module.exports", value: mod };
  if (name) {
    const v = lookup(name);
    if (v === undefined)
      throw new LoadError(`the module has no export '${name}' (exports: ${listExports(mod)})`);
    return { name, value: v };
  }
  for (const n of conventional) {
    const v = lookup(n);
    if (v !== undefined) return { name: n, value: v };
  }
  if (typeof mod === "function") return { name: "module.exports", value: mod };
  if (dflt !== undefined && dflt !== null) return { name: "default", value: dflt };
  // A lone function stands in only where the contract names no export (a differently named function is
  // more likely a helper than the implementation).
  const fns = Object.entries(mod).filter(([, v]) => typeof v === "function");
  if (conventional.length === 0 && fns.length === 1 && fns[0]) return { name: fns[0][0], value: fns[0][1] };
  const wanted = conventional.length ? `'${conventional.join("' or '")}', ` : "";
  throw new LoadError(
    `the module has no export ${wanted}no default export and not exactly one function (exports: ${listExports(mod)}); pass --export NAME`,
  );
}

/** The collector its module exports (the one exported object whose `id` is the gate's). */
export function pickCollector(mod: Record<string, unknown>, id: string): ChildCollector {
  const found = Object.values(mod).filter(
    (v): v is ChildCollector =>
      typeof v === "object" &&
      v !== null &&
      (v as ChildCollector).id === id &&
      typeof (v as ChildCollector).start === "function",
  );
  if (found.length !== 1)
    throw new Error(`gates/${id}/probe.ts exports ${found.length} collectors with id '${id}'`);
  return found[0] as ChildCollector;
}

/** Imports the collector module of the gate this child was built for. */
type CollectorLoader = () => Promise<Record<string, unknown>>;
/** The gate this child file serves (none: the predicate child) and its loader. */
interface Served {
  id: string | undefined;
  load: CollectorLoader | undefined;
}

function functionName(value: unknown): string | undefined {
  if (typeof value !== "function") return undefined;
  try {
    const n = (value as { name?: unknown }).name;
    return typeof n === "string" && n ? n : undefined;
  } catch {
    return undefined;
  }
}

async function serveGate(
  envelope: ChildEnvelope,
  task: Extract<ChildEnvelope["task"], { kind: "gate" }>,
  served: Served,
  stdin: StdinReader,
): Promise<void> {
  if (task.gate !== served.id || !served.load)
    throw new LoadError(`this sandbox child runs gate '${served.id ?? "none"}', not '${task.gate}'`);
  const id = task.gate;
  // The gate's child specification comes with the task (the parent's, read before any untrusted code).
  for (const flag of task.child.v8Flags) v8.setFlagsFromString(flag);
  const collector = pickCollector(await served.load(), id);
  const options = task.options ?? {};
  const ctx = { options, modulePath: envelope.modulePath, assets: envelope.assets };
  collector.prepare?.({ assets: envelope.assets, options });
  hardenRealm();
  if (!envelope.compiled) throw new LoadError(`gate '${id}' cannot load this file type`);
  const mod = await loadModule(envelope.compiled);
  const picked = resolveExport(mod, task.export, task.child.defaultExports);
  const input: GateInput = { kind: "export", ...picked, module: mod };
  const run: ProbeRunner = await collector.start(input, ctx);
  send({ type: "loaded", export: picked.name, fnName: functionName(picked.value) });
  for (;;) {
    const line = stdin.line();
    if (line === undefined) return;
    const request = parseJson(line) as ProbeRequest;
    const answers: ProbeAnswer[] = [];
    for (const probe of request.probes) {
      try {
        answers.push({ ok: true, obs: await run(probe) });
      } catch (err) {
        answers.push({ ok: false, error: describeThrown(err) });
      }
    }
    send({ type: "observed", id: request.id, answers });
  }
}

async function servePredicate(
  envelope: ChildEnvelope,
  task: Extract<ChildEnvelope["task"], { kind: "predicate" }>,
): Promise<void> {
  if (!envelope.compiled) throw new LoadError("a predicate must be a JavaScript or TypeScript module");
  hardenRealm();
  const mod = await loadModule(envelope.compiled);
  const picked = resolveExport(mod, task.export ?? "default", []);
  if (typeof picked.value !== "function") throw new LoadError(`export '${picked.name}' is not a function`);
  send({ type: "loaded" });
  const value = await (picked.value as (...a: unknown[]) => unknown)(...task.args);
  let json: string | undefined;
  try {
    json = stringify(value === undefined ? null : value);
  } catch {
    json = undefined;
  }
  if (json === undefined)
    send({ type: "failed", failure: "crash", message: "the result is not JSON-serialisable" });
  else send({ type: "result", value: parseJson(json) });
}

/** Asynchronous errors of the module outside our awaits must not end the child without an answer. */
function keepAlive(): void {
  process.on("unhandledRejection", () => {});
  process.on("uncaughtException", () => {});
}

/** The child's entry: `gate` is the gate this file was built for (undefined: predicates only). */
export function serveChild(gate: string | undefined, load: CollectorLoader | undefined): void {
  const stdin = new StdinReader();
  const key = stdin.bytes(MAC_KEY_BYTES);
  const line = key ? stdin.line() : undefined;
  if (!key || line === undefined) {
    exitNow(70); // no task: nothing to answer, and no key to answer with
    return;
  }
  sign = macSigner(key);
  const envelope = parseJson(line) as ChildEnvelope;
  keepAlive();
  const task = envelope.task;
  const work =
    task.kind === "predicate"
      ? servePredicate(envelope, task)
      : task.kind === "gate"
        ? serveGate(envelope, task, { id: gate, load }, stdin)
        : Promise.reject(new LoadError(`unknown task '${(task as { kind: string }).kind}'`));
  work.then(
    () => exitNow(0),
    (err: unknown) => {
      const failure = err instanceof LoadError ? "load" : "crash";
      const message = err instanceof LoadError ? err.message : `threw: ${describeThrown(err)}`;
      send({ type: "failed", failure, message });
      // Timers or sockets the module left open must not keep the child alive.
      exitNow(0);
    },
  );
}
