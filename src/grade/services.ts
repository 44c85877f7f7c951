/**
 * The real `GradeServices`: the sandbox (`src/sandbox/index.ts`) and the gate registry (`gates/registry.ts`),
 * loaded on first use so grading output and trace assertions never pays for them.
 */
import type { CommandOutcome, SandboxLimits, SandboxOutcome, SandboxTask } from "../sandbox/types.js";
import type { GateResult, GradeServices } from "./ports.js";

interface SandboxModule {
  runSandboxed<T>(
    task: SandboxTask,
    limits: SandboxLimits,
    opts?: { cwd?: string },
  ): Promise<SandboxOutcome<T>>;
  runSandboxedCommand(
    command: string,
    opts: { cwd: string; timeoutMs: number; memoryMb?: number; stdin?: string; env?: Record<string, string> },
  ): Promise<CommandOutcome>;
}
interface GateModule {
  runGate(
    gate: string,
    modulePath: string,
    opts?: {
      export?: string;
      options?: Record<string, unknown>;
      seed?: number;
      timeoutMs?: number;
      memoryMb?: number;
    },
  ): Promise<GateResult>;
}

// Specifiers held in variables: these modules are written on another branch; the lead's merge brings them in.
const SANDBOX_MODULE = "../sandbox/index.js";
const GATES_MODULE = "../../gates/registry.js";

async function load<T>(specifier: string): Promise<T> {
  return (await import(/* @vite-ignore */ new URL(specifier, import.meta.url).href)) as T;
}

export const defaultServices: GradeServices = {
  async runPredicate(task, limits, opts) {
    const { runSandboxed } = await load<SandboxModule>(SANDBOX_MODULE);
    return runSandboxed<unknown>({ kind: "predicate", ...task }, limits, opts);
  },
  async runGate(gate, modulePath, opts) {
    const { runGate } = await load<GateModule>(GATES_MODULE);
    return runGate(gate, modulePath, opts);
  },
  async runCommand(command, opts) {
    const { runSandboxedCommand } = await load<SandboxModule>(SANDBOX_MODULE);
    return runSandboxedCommand(command, opts);
  },
};
