import { join } from "node:path";
import fc from "fast-check";
import { FuzzHarness } from "../test/fuzz/harness.js";
import { FUZZ_KINDS, fuzzInput } from "../test/support/fuzz-arbitraries.js";
import type { BenchContext } from "./types.js";

/**
 * `fuzz.{inputs, crashes, unlocated}`: ≥ 10,000 fast-check inputs (structure-aware mutations of valid documents
 * and raw bytes) through the real parsers of suites, configs, SKILL.md and transcripts. Goal 0 and 0.
 * `--fuzz-runs N` and `--fuzz-seed S` override the defaults; the seed is reported.
 */
const DEFAULT_RUNS = 10_000;
const DEFAULT_SEED = 20261129;
/** Failing inputs described in the JSON, at most. */
const MAX_EXAMPLES = 10;

export async function bench(ctx: BenchContext): Promise<Record<string, unknown>> {
  const runs = Number(ctx.flags.fuzzRuns ?? DEFAULT_RUNS);
  const seed = Number(ctx.flags.fuzzSeed ?? DEFAULT_SEED);
  const harness = new FuzzHarness(join(ctx.tmp, "fuzz-repo"));
  const perKind: Record<string, number> = Object.fromEntries(FUZZ_KINDS.map((k) => [k, 0]));
  let crashes = 0;
  let unlocated = 0;
  let invalid = 0;
  let diagnostics = 0;
  const examples: string[] = [];
  const started = performance.now();
  // Generated in chunks: fc.sample materialises its whole array.
  const CHUNK = 1_000;
  for (let done = 0; done < runs; done += CHUNK) {
    const inputs = fc.sample(fuzzInput(), { seed: seed + done, numRuns: Math.min(CHUNK, runs - done) });
    // Grouped by kind: the harness lays out a kind's companion files once per group.
    inputs.sort((a, b) => FUZZ_KINDS.indexOf(a.kind) - FUZZ_KINDS.indexOf(b.kind));
    for (const input of inputs) {
      perKind[input.kind]!++;
      const o = harness.run(input);
      diagnostics += o.diagnostics;
      if (o.crash) crashes++;
      if (o.unlocated.length) unlocated++;
      if (o.invalid.length) invalid++;
      const problem = o.crash ?? o.unlocated[0] ?? o.invalid[0];
      if (problem && examples.length < MAX_EXAMPLES) examples.push(`${input.how}: ${problem.split("\n")[0]}`);
    }
  }
  const seconds = (performance.now() - started) / 1000;
  ctx.log(
    `fuzz.inputs       ${runs} (seed ${seed}; ${Object.entries(perKind)
      .map(([k, n]) => `${k} ${n}`)
      .join(", ")})`,
  );
  ctx.log(`fuzz.crashes      ${crashes}   (goal 0)`);
  ctx.log(`fuzz.unlocated    ${unlocated}   (goal 0: inputs with a diagnostic outside its file)`);
  ctx.log(`fuzz.invalid      ${invalid}   (transcript parses breaking their types)`);
  ctx.log(`fuzz.seconds      ${seconds.toFixed(1)} (${diagnostics} diagnostics checked)`);
  for (const e of examples) ctx.log(`  ! ${e}`);
  return {
    fuzz: {
      inputs: runs,
      crashes,
      unlocated,
      invalid,
      seed,
      perKind,
      diagnostics,
      seconds: round(seconds),
      examples,
    },
  };
}

const round = (x: number) => Math.round(x * 10) / 10;
