/**
 * Helpers for the gates' reference-module tests, each module's seeds in one sandbox child: a good module across 20
 * seeds (a false failure is what a user pays for), a bad one across the first 5 (it must fail its check on each; a
 * failing property is shrunk per seed, which made 20 seeds of bad modules most of the gates' test time).
 */
import { join } from "node:path";
import { runGateSeeds } from "../registry.js";
import type { GateResult } from "../types.js";

/** 20 fixed seeds (reported in failures so a run can be replayed with --seed). */
export const TEST_SEEDS: readonly number[] = Array.from({ length: 20 }, (_, i) => 1_000_003 + i * 7_919);
/** The seeds a bad module must fail on. */
export const BAD_MODULE_SEEDS: readonly number[] = TEST_SEEDS.slice(0, 5);

export interface Reference {
  file: string;
  /** Check ids that must fail (bad modules) — the tempting wrong answer must be caught for the right reason. */
  fails?: string[];
  export?: string;
  options?: Record<string, unknown>;
}

export function fixture(gate: string, file: string): string {
  return join(import.meta.dirname, "..", gate, "fixtures", file);
}

/** Messages of the failed checks nobody expected (a crashed run says why). */
function unexpected(r: GateResult, fails: readonly string[]): string {
  const odd = r.checks.filter((c) => !c.passed && !fails.includes(c.id));
  return odd.length ? ` (${odd.map((c) => `${c.id}: ${c.message.slice(0, 300)}`).join(" | ")})` : "";
}

/** Runs the gate on a reference module for all seeds; returns a failure description or "" if as expected. */
export async function verdictProblems(
  gate: string,
  ref: Reference,
  seeds: readonly number[] = ref.fails ? BAD_MODULE_SEEDS : TEST_SEEDS,
): Promise<string> {
  const results: GateResult[] = await runGateSeeds(gate, fixture(gate, ref.file), [...seeds], {
    export: ref.export,
    options: ref.options,
  });
  const problems: string[] = [];
  for (const r of results) {
    if (!ref.fails) {
      if (!r.passed) {
        const failed = r.checks.filter((c) => !c.passed).map((c) => `${c.id}: ${c.message}`);
        problems.push(`seed ${r.seed}: expected pass, failed ${failed.join(" | ")}`);
      }
      continue;
    }
    for (const id of ref.fails) {
      const c = r.checks.find((x) => x.id === id);
      if (!c || c.passed) {
        problems.push(
          `seed ${r.seed}: expected check '${id}' to fail; checks: ${r.checks.map((x) => `${x.id}=${x.passed}`).join(", ")}${unexpected(r, ref.fails)}`,
        );
      }
    }
    if (r.passed) problems.push(`seed ${r.seed}: expected the gate to fail, it passed`);
  }
  return problems.slice(0, 3).join("\n");
}
