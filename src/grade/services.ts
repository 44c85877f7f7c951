/**
 * The real `GradeServices`: the sandbox (`src/sandbox/index.ts`) and the gate registry (`gates/registry.ts`),
 * loaded on first use so grading output and trace assertions never pays for them.
 */
import type { GradeServices } from "./ports.js";

export const defaultServices: GradeServices = {
  async runPredicate(task, limits, opts) {
    const { runSandboxed } = await import("../sandbox/index.js");
    return runSandboxed<unknown>({ kind: "predicate", ...task }, limits, opts);
  },
  async runGate(gate, modulePath, opts) {
    const { runGate } = await import("../../gates/registry.js");
    return runGate(gate, modulePath, opts);
  },
  async runCommand(command, opts) {
    const { runSandboxedCommand } = await import("../sandbox/index.js");
    return runSandboxedCommand(command, opts);
  },
};
