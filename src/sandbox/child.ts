/**
 * The sandbox child process. Reads one task from stdin, loads the untrusted module, runs the gate or predicate
 * and answers on fd 3. Everything it needs to answer honestly (the nonce, fs.writeSync, JSON.stringify,
 * process.exit) is captured before any untrusted code runs. Built once per gate (`child-build.mjs`): each
 * built file calls `serveChild` with its gate, or with none for predicates.
 */
import { readFileSync, writeSync } from "node:fs";
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import v8 from "node:v8";
import { CHILD_V8_FLAGS } from "../../gates/catalog.js";
import { type GateId, isGateId } from "../../gates/ids.js";
import { runtimeEvents } from "../../gates/shared/runtime.js";
import type { Gate, GateContext, GateInput, GateResult } from "../../gates/types.js";
import { type ChildEnvelope, type ChildMessage, RESULT_FD } from "./protocol.js";

const stringify = JSON.stringify;
const writeFd = writeSync;
const exitNow = process.exit.bind(process);
let envelope: ChildEnvelope;
let nonce: string;
const sleepCell = new Int32Array(new SharedArrayBuffer(4));

function send(msg: ChildMessage): void {
  const buf = Buffer.from(`${nonce} ${stringify(msg)}\n`, "utf8");
  let off = 0;
  while (off < buf.length) {
    try {
      off += writeFd(RESULT_FD, buf, off);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EAGAIN") throw err;
      Atomics.wait(sleepCell, 0, 0, 2); // the parent is draining the pipe
    }
  }
}

class LoadError extends Error {}

/** Errors thrown by untrusted code may be anything (even a getter that throws); describe them safely. */
export function describeError(err: unknown): string {
  try {
    if (err instanceof Error) return `${err.name}: ${err.message}`;
    return `non-Error value thrown: ${String(err)}`;
  } catch {
    return "an unprintable value was thrown";
  }
}

async function loadModule(
  compiled: NonNullable<ChildEnvelope["compiled"]>,
): Promise<Record<string, unknown>> {
  try {
    if (compiled.format === "cjs")
      return createRequire(compiled.file)(compiled.file) as Record<string, unknown>;
    return (await import(pathToFileURL(compiled.file).href)) as Record<string, unknown>;
  } catch (err) {
    throw new LoadError(`the module threw while being imported: ${describeError(err)}`);
  }
}

function listExports(mod: Record<string, unknown>): string {
  const names = Object.keys(mod).filter((k) => k !== "__esModule");
  return names.length ? names.join(", ") : "none";
}

/** The requested export, or the gate's conventional names, the default export, a CJS function, a lone function. */
export function resolveExport(
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

/** The gate its module exports (the one exported object whose `id` is the gate's). */
export function pickGate(mod: Record<string, unknown>, id: GateId): Gate {
  const gates = Object.values(mod).filter(
    (v): v is Gate =>
      typeof v === "object" && v !== null && (v as Gate).id === id && typeof (v as Gate).run === "function",
  );
  if (gates.length !== 1)
    throw new Error(`gates/${id}/index.ts exports ${gates.length} gates with id '${id}'`);
  return gates[0] as Gate;
}

/** Imports the module of the gate this child was built for. */
type GateLoader = () => Promise<Record<string, unknown>>;
/** The gate this child file serves (none: the predicate child) and its loader. */
interface Served {
  id: string | undefined;
  load: GateLoader | undefined;
}

async function runGateTask(
  task: Extract<ChildEnvelope["task"], { kind: "gate" | "gate-batch" }>,
  served: Served,
) {
  if (!isGateId(task.gate)) throw new LoadError(`unknown gate '${task.gate}'`);
  if (task.gate !== served.id || !served.load)
    throw new LoadError(`this sandbox child runs gate '${served.id ?? "none"}', not '${task.gate}'`);
  const id = task.gate;
  for (const flag of CHILD_V8_FLAGS[id]) v8.setFlagsFromString(flag);
  const gate = pickGate(await served.load(), id);
  gate.prepare?.({ assets: envelope.assets, options: task.options ?? {} });
  const sourceText = readFileSync(envelope.modulePath, "utf8");
  let input: GateInput;
  if (gate.fileInput?.test(envelope.modulePath) || !envelope.compiled) {
    if (!gate.fileInput?.test(envelope.modulePath))
      throw new LoadError(`gate '${gate.id}' cannot read this file type`);
    input = { kind: "file", path: envelope.modulePath, text: sourceText };
  } else {
    const mod = await loadModule(envelope.compiled);
    const picked = resolveExport(mod, task.export, gate.defaultExports);
    input = { kind: "export", ...picked, module: mod };
  }
  send({ type: "loaded" });
  const seeds = task.kind === "gate" ? [task.seed ?? 0] : task.seeds;
  const results: GateResult[] = [];
  for (const seed of seeds) {
    const ctx: GateContext = {
      seed,
      options: task.options ?? {},
      modulePath: envelope.modulePath,
      sourceText,
      assets: envelope.assets,
    };
    runtimeEvents.reset();
    let out: Awaited<ReturnType<typeof gate.run>>;
    try {
      out = await gate.run(input, ctx);
    } catch (err) {
      out = {
        checks: [{ id: "probe", passed: false, message: `the probe could not run: ${describeError(err)}` }],
      };
    }
    const checks = out.checks.length
      ? out.checks
      : [{ id: "probe", passed: false, message: "no check was run (nothing to probe)" }];
    results.push({
      gate: gate.id,
      passed: checks.every((c) => c.passed),
      seed,
      checks,
      metrics: out.metrics ?? {},
    });
  }
  return task.kind === "gate" ? results[0] : results;
}

async function runPredicateTask(task: Extract<ChildEnvelope["task"], { kind: "predicate" }>) {
  if (!envelope.compiled) throw new LoadError("a predicate must be a JavaScript or TypeScript module");
  const mod = await loadModule(envelope.compiled);
  const picked = resolveExport(mod, task.export ?? "default", []);
  if (typeof picked.value !== "function") throw new LoadError(`export '${picked.name}' is not a function`);
  send({ type: "loaded" });
  const value = await (picked.value as (...a: unknown[]) => unknown)(...task.args);
  return value === undefined ? null : value;
}

async function main(served: Served): Promise<void> {
  runtimeEvents.install();
  try {
    const task = envelope.task;
    const value = task.kind === "predicate" ? await runPredicateTask(task) : await runGateTask(task, served);
    let ok = true;
    try {
      stringify(value);
    } catch {
      ok = false;
    }
    send(
      ok
        ? { type: "result", ok: true, value }
        : { type: "result", ok: false, failure: "crash", message: "the result is not JSON-serialisable" },
    );
  } catch (err) {
    const failure = err instanceof LoadError ? "load" : "crash";
    const message = err instanceof LoadError ? err.message : `threw: ${describeError(err)}`;
    send({ type: "result", ok: false, failure, message });
  }
  // Timers or sockets the module left open must not keep the child alive.
  exitNow(0);
}

/** The child's entry: `gate` is the gate this file was built for (undefined: predicates only). */
export function serveChild(gate: string | undefined, load: GateLoader | undefined): void {
  envelope = JSON.parse(readFileSync(0, "utf8")) as ChildEnvelope;
  nonce = envelope.nonce;
  void main({ id: gate, load });
}
