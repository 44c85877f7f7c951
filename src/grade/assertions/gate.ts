import { createHash } from "node:crypto";
import { chmod, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { GATE_IDS, isGateId } from "../../../gates/ids.js";
import { validateGateOptions } from "../../../gates/options.js";
import type { Assertion } from "../../model/suite.js";
import type { GateResult, GradeServices } from "../ports.js";
import { placeholderNames } from "../vars.js";
import { errorOutcome, missingValue, outcome } from "./common.js";
import { type AssertionProblem, type AssertionType, registerAssertionCheck } from "./registry.js";

const MAX_FAILED_CHECKS_SHOWN = 3;
/** Gates are deterministic for a seed: trials that wrote the same files share one sandboxed run. */
const MEMO_MAX = 2000;
/** One memo per services object, so test doubles never share results with the real sandbox. */
const memos = new WeakMap<GradeServices, Map<string, Promise<GateResult>>>();

function memoKey(parts: unknown[], files: Record<string, string>): string {
  const h = createHash("sha256").update(JSON.stringify(parts));
  for (const rel of Object.keys(files).sort()) h.update(`\0${rel}\0`).update(files[rel]!);
  return h.digest("hex");
}

/** A JSON Pointer as a path of keys and array indexes. */
function pointerPath(pointer: string): (string | number)[] {
  return pointer
    .split("/")
    .slice(1)
    .map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"))
    .map((s) => (/^\d+$/.test(s) ? Number(s) : s));
}

function valueAt(value: unknown, path: readonly (string | number)[]): unknown {
  let v = value;
  for (const k of path)
    v = v && typeof v === "object" ? (v as Record<string | number, unknown>)[k] : undefined;
  return v;
}

/**
 * Static check of a `gate` assertion (see `registerAssertionCheck`): its `options` against its gate's JSON Schema
 * (`gates/options.ts`), each problem located at the option it concerns. A value holding `$placeholders` is
 * checked once they resolve, when the assertion is graded; an unknown gate is reported by `static-checks.ts`.
 */
export function gateOptionProblems(a: Assertion): AssertionProblem[] {
  const id = a.params.gate;
  if (typeof id !== "string" || !isGateId(id)) return [];
  const options = a.params.options;
  return validateGateOptions(id, options)
    .map((p) => ({ ...p, at: pointerPath(p.path) }))
    .filter((p) => placeholderNames(valueAt(options, p.at)).length === 0)
    .map((p) => ({
      path: ["options", ...p.at],
      code: "suite/invalid-gate-options",
      message: `invalid options for gate ${id}: ${p.path || "(options)"}: ${p.message}`,
    }));
}

/**
 * Runs a deterministic gate on a module the agent wrote: the trial's files are written into a fresh temp folder
 * and `runGate(gate, <tmp>/<module>, {export, options, seed})` probes the export in the sandbox.
 */
export const gate: AssertionType = {
  type: "gate",
  level: "final-state",
  schema: {
    type: "object",
    required: ["gate", "module"],
    properties: {
      gate: { type: "string", minLength: 1 },
      module: { type: "string", minLength: 1 },
      export: { type: "string", minLength: 1 },
      options: { type: "object" },
    },
    additionalProperties: false,
  },
  async evaluate(a, ctx) {
    const gateId = String(a.params.gate);
    const module = String(a.params.module).replace(/^\.\//, "");
    const exportName = typeof a.params.export === "string" ? a.params.export : undefined;
    const expected = `gate ${gateId} to pass on ${module}${exportName ? `#${exportName}` : ""}`;
    // The suite's own mistakes (placeholders resolved) are errors, never the module's failure or a pass.
    if (!isGateId(gateId))
      return errorOutcome(`unknown gate \`${gateId}\`; known gates: ${GATE_IDS.join(", ")}`, { expected });
    const problems = validateGateOptions(gateId, a.params.options);
    if (problems.length)
      return errorOutcome(
        `invalid options for gate ${gateId}: ${problems.map((p) => `${p.path || "(options)"}: ${p.message}`).join("; ")}`,
        { expected },
      );
    if (!(module in ctx.trial.files)) {
      return missingValue(`the agent wrote no ${module}`, expected);
    }
    if (path.posix.normalize(module).startsWith("../") || path.isAbsolute(module)) {
      return errorOutcome(`gate module path ${JSON.stringify(module)} leaves the workspace`, { expected });
    }
    const opts = {
      ...(exportName ? { export: exportName } : {}),
      ...(a.params.options ? { options: a.params.options as Record<string, unknown> } : {}),
      seed: ctx.gateSeed,
    };
    const key = memoKey([gateId, module, opts], ctx.trial.files);
    let memo = memos.get(ctx.services);
    if (!memo) {
      memo = new Map();
      memos.set(ctx.services, memo);
    }
    try {
      let pending = memo.get(key);
      if (!pending) {
        pending = runInTempDir(ctx.trial.files, (dir) =>
          // The module may import the trial's other files, never anything outside them.
          ctx.services.runGate(gateId, path.join(dir, module), { ...opts, root: dir }),
        );
        if (memo.size >= MEMO_MAX) memo.delete(memo.keys().next().value!);
        memo.set(key, pending);
        const m = memo;
        pending.catch(() => m.delete(key));
      }
      const result = await pending;
      const failed = result.checks.filter((c) => !c.passed);
      const actual = result.passed
        ? `passed ${result.checks.length} checks (seed ${result.seed})`
        : `failed ${failed.length}/${result.checks.length} checks (seed ${result.seed}): ${failed
            .slice(0, MAX_FAILED_CHECKS_SHOWN)
            .map((c) => `${c.id}: ${c.message}`)
            .join("; ")}${failed.length > MAX_FAILED_CHECKS_SHOWN ? "; …" : ""}`;
      return outcome(result.passed, expected, actual, {
        evidence: failed.map((c) => c.id).join(", ") || undefined,
        // What a reviewer needs to replay the gate on the module (the report's replay line).
        details: {
          gate: result,
          module,
          ...(exportName ? { export: exportName } : {}),
          ...(opts.options ? { options: opts.options } : {}),
        },
      });
    } catch (e) {
      return errorOutcome(`gate ${gateId} could not run on ${module}: ${(e as Error).message}`, { expected });
    }
  },
};

/** Writes the trial's files into a fresh temp folder, runs `fn` there, and removes the folder. */
async function runInTempDir<T>(files: Record<string, string>, fn: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "skillgate-gate-"));
  try {
    // Made here for this run: the sandbox uid reads it (and only it) when bound, so it may not stay 0700.
    await chmod(dir, 0o755);
    for (const [rel, content] of Object.entries(files)) {
      const target = path.resolve(dir, rel);
      // A written path escaping the folder is ignored: the agent's file names are untrusted.
      if (!target.startsWith(dir + path.sep)) continue;
      await mkdir(path.dirname(target), { recursive: true });
      await writeFile(target, content, { mode: 0o644 });
    }
    return await fn(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

registerAssertionCheck("gate", gateOptionProblems);
