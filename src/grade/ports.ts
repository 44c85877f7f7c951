/**
 * The I/O the assertion engine needs from other stages, behind one small interface so every assertion type can
 * be driven in tests. The real implementation (`services.ts`) calls the sandbox and the gate registry.
 */
import type { CommandOutcome, SandboxLimits, SandboxOutcome } from "../sandbox/types.js";

/** Contract of `gates/registry.ts` `runGate`. */
export interface GateResult {
  gate: string;
  passed: boolean;
  seed: number;
  checks: { id: string; passed: boolean; message: string }[];
  metrics: Record<string, unknown>;
}

export interface GradeServices {
  /** `javascript` assertions: `runSandboxed({kind: "predicate", …})`. */
  runPredicate(
    task: { module: string; export?: string; args: unknown[] },
    limits: SandboxLimits,
    opts: { cwd: string },
  ): Promise<SandboxOutcome>;
  /** `gate` assertions: `runGate(gate, absModulePath, opts)`; never throws for a bad module. */
  runGate(
    gate: string,
    modulePath: string,
    opts: { export?: string; options?: Record<string, unknown>; seed?: number; root?: string },
  ): Promise<GateResult>;
  /** Suite oracles: `runSandboxedCommand`. */
  runCommand(
    command: string,
    opts: { cwd: string; timeoutMs: number; memoryMb?: number },
  ): Promise<CommandOutcome>;
}

/** Limits for a `javascript` predicate module. */
export const PREDICATE_LIMITS: SandboxLimits = Object.freeze({ timeoutMs: 10_000, memoryMb: 256 });
/** Default limits for a suite oracle command. */
export const ORACLE_TIMEOUT_MS = 60_000;
export const ORACLE_MEMORY_MB = 512;
