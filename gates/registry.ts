/**
 * The gate registry seen by the rest of skillgate: ids, and `runGate`, which runs one gate on one module in the
 * sandbox. A module that does not load never throws here: it is a failed result with a `load` check.
 */
import { randomInt } from "node:crypto";
import { runSandboxed } from "../src/sandbox/index.js";
import type { SandboxFailure, SandboxOutcome } from "../src/sandbox/types.js";
import { GATE_RUN_COST_MS } from "./catalog.js";
import { GATE_IDS, isGateId } from "./ids.js";
import type { GateCheck, GateResult } from "./types.js";

export type { GateCheck, GateResult };
export { GATE_IDS, isGateId };

/** Limits per gate run unless the caller sets them. Complexity times several sizes; the rest are quick. */
export const DEFAULT_GATE_TIMEOUT_MS = 30_000;
export const DEFAULT_GATE_MEMORY_MB = 512;

export interface RunGateOptions {
  export?: string;
  options?: Record<string, unknown>;
  /** Seed of every randomised probe; a fresh one is drawn (and reported) when absent. */
  seed?: number;
  timeoutMs?: number;
  memoryMb?: number;
  /** Working directory of the child (default: the module's folder). */
  cwd?: string;
  /** The folder the module may import from (default: its own folder). */
  root?: string;
}

/** A 31-bit seed, the range fast-check replays. */
export function freshSeed(): number {
  return randomInt(0, 2 ** 31 - 1);
}

function failureCheck(
  failure: SandboxFailure,
  phase: "load" | "run" | undefined,
  message: string,
): GateCheck {
  return { id: phase === "run" ? `sandbox-${failure}` : "load", passed: false, message };
}

function fromOutcome(
  gate: string,
  seeds: number[],
  outcome: SandboxOutcome<unknown>,
  batch: boolean,
): GateResult[] {
  if (outcome.ok) return (batch ? outcome.value : [outcome.value]) as GateResult[];
  const check = failureCheck(outcome.failure, outcome.phase, outcome.message);
  const result = (s: number): GateResult => ({
    gate,
    passed: false,
    seed: s,
    checks: [check],
    metrics: { failure: outcome.failure, ...(outcome.stderr ? { stderr: outcome.stderr.slice(-2000) } : {}) },
  });
  return seeds.map(result);
}

export async function runGate(
  gate: string,
  modulePath: string,
  opts: RunGateOptions = {},
): Promise<GateResult> {
  const seed = opts.seed ?? freshSeed();
  if (!isGateId(gate)) {
    return {
      gate,
      passed: false,
      seed,
      checks: [
        { id: "gate", passed: false, message: `unknown gate '${gate}' (known: ${GATE_IDS.join(", ")})` },
      ],
      metrics: {},
    };
  }
  const outcome = await runSandboxed(
    { kind: "gate", gate, module: modulePath, export: opts.export, options: opts.options, seed },
    {
      timeoutMs: opts.timeoutMs ?? DEFAULT_GATE_TIMEOUT_MS,
      memoryMb: opts.memoryMb ?? DEFAULT_GATE_MEMORY_MB,
    },
    { cwd: opts.cwd, root: opts.root, priority: GATE_RUN_COST_MS[gate] },
  );
  return fromOutcome(gate, [seed], outcome, false)[0] as GateResult;
}

/** One gate on one module for several seeds in a single child (tests and benches). */
export async function runGateSeeds(
  gate: string,
  modulePath: string,
  seeds: number[],
  opts: Omit<RunGateOptions, "seed"> = {},
): Promise<GateResult[]> {
  const outcome = await runSandboxed(
    { kind: "gate-batch", gate, module: modulePath, export: opts.export, options: opts.options, seeds },
    {
      timeoutMs: opts.timeoutMs ?? DEFAULT_GATE_TIMEOUT_MS * 4,
      memoryMb: opts.memoryMb ?? DEFAULT_GATE_MEMORY_MB,
    },
    { cwd: opts.cwd, root: opts.root, priority: isGateId(gate) ? GATE_RUN_COST_MS[gate] * seeds.length : 0 },
  );
  return fromOutcome(gate, seeds, outcome, true);
}
