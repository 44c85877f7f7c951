import { availableParallelism, totalmem } from "node:os";

/**
 * Agent calls at once when the configuration sets none. An agent trial mostly waits on a model API, so the CPU
 * allows many per core (`AGENTS_PER_CPU`); what bounds them is memory (a Claude Code or Codex CLI process tree takes
 * a few hundred MiB: `MIB_PER_AGENT`) and the model API's rate limits, which the runner's AIMD limit follows. The
 * cap keeps one runner's burst within what a single API key usually accepts. Gates, predicates and oracles are
 * CPU-bound and keep their own limit (one per core, `SANDBOX_CONCURRENCY`).
 */
const AGENTS_PER_CPU = 16;
const MIB_PER_AGENT = 384;
const MAX_DEFAULT_CONCURRENCY = 32;
const MIN_DEFAULT_CONCURRENCY = 2;

export function defaultAgentConcurrency(
  machine: { cpus: number; memoryBytes: number } = { cpus: availableParallelism(), memoryBytes: totalmem() },
): number {
  const byCpu = machine.cpus * AGENTS_PER_CPU;
  const byMemory = Math.floor(machine.memoryBytes / (MIB_PER_AGENT * 1024 * 1024));
  return Math.max(MIN_DEFAULT_CONCURRENCY, Math.min(MAX_DEFAULT_CONCURRENCY, byCpu, byMemory));
}
