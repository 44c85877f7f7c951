import { createHash } from "node:crypto";
import { chmod, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { GateResult, GradeServices } from "../ports.js";
import { errorOutcome, missingValue, outcome } from "./common.js";
import type { AssertionType } from "./registry.js";

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

/**
 * Runs a deterministic gate on a module the agent wrote: the trial's files are written into a fresh temp folder
 * and `runGate(gate, <tmp>/<module>, {export, options, seed})` probes the export in the sandbox.
 */
export const gate: AssertionType = {
  type: "gate",
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
        details: { gate: result, module },
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
