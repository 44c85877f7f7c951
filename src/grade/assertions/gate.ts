import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { errorOutcome, missingValue, outcome } from "./common.js";
import type { AssertionType } from "./registry.js";

const MAX_FAILED_CHECKS_SHOWN = 3;

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
    const dir = await mkdtemp(path.join(os.tmpdir(), "skillgate-gate-"));
    const modulePath = path.resolve(dir, module);
    if (!modulePath.startsWith(dir + path.sep)) {
      await rm(dir, { recursive: true, force: true });
      return errorOutcome(`gate module path ${JSON.stringify(module)} leaves the workspace`, { expected });
    }
    try {
      for (const [rel, content] of Object.entries(ctx.trial.files)) {
        const target = path.resolve(dir, rel);
        // A written path escaping the folder is ignored: the agent's file names are untrusted.
        if (!target.startsWith(dir + path.sep)) continue;
        await mkdir(path.dirname(target), { recursive: true });
        await writeFile(target, content);
      }
      const result = await ctx.services.runGate(gateId, modulePath, {
        ...(exportName ? { export: exportName } : {}),
        ...(a.params.options ? { options: a.params.options as Record<string, unknown> } : {}),
        seed: ctx.gateSeed,
      });
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
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  },
};
