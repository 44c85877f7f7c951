import { join } from "node:path";
import fc from "fast-check";
import { FuzzHarness } from "../test/fuzz/harness.js";
import { FUZZ_KINDS, fuzzInput } from "../test/support/fuzz-arbitraries.js";
import { countFlag, keepSampling } from "./budget.js";
import type { BenchContext } from "./types.js";

/**
 * `fuzz.{inputs, crashes, unlocated}`: fast-check inputs (structure-aware mutations of valid documents and raw
 * bytes) through the real parsers of suites, configs, SKILL.md and transcripts. Goal 0 and 0. As many as the
 * section's time allows, between `MIN_RUNS` and `DEFAULT_RUNS`, in chunks (the same seed gives the same inputs in
 * the same order, so a shorter run is a prefix of a longer one); `--fuzz-runs N` runs exactly N, `--fuzz-seed S`
 * changes the seed; both are reported.
 */
const DEFAULT_RUNS = 10_000;
const MIN_RUNS = 2_000;
const DEFAULT_SEED = 20261129;
/** Failing inputs described in the JSON, at most. */
const MAX_EXAMPLES = 10;

export async function bench(ctx: BenchContext): Promise<Record<string, unknown>> {
  const exact = countFlag(ctx, "fuzzRuns");
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
  const CHUNK = 500;
  const [min, max] = exact ? [exact, exact] : [MIN_RUNS, DEFAULT_RUNS];
  const t0 = Date.now();
  let runs = 0;
  while (keepSampling(ctx, runs / CHUNK, min / CHUNK, max / CHUNK, t0)) {
    const inputs = fc.sample(fuzzInput(), { seed: seed + runs, numRuns: Math.min(CHUNK, max - runs) });
    runs += inputs.length;
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
