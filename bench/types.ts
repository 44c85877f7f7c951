/** Each `bench/<section>.ts` exports `bench(ctx)`; `scripts/bench.mjs` runs them in one process and merges JSON. */
export interface BenchContext {
  /** Repository root (absolute). */
  root: string;
  /** Print one line of the human table. */
  log(line: string): void;
  /** Scratch directory for this run. */
  tmp: string;
  /** Options from the command line, e.g. `withPromptfoo`. */
  flags: Record<string, boolean | string>;
  /**
   * When this section should be done (a `Date.now()` time), from the bench's time allotment (`--seconds`): sections
   * that repeat samples stop starting new ones after it (`keepSampling`), each above its own minimum. Infinity when
   * the allotment is off (`--seconds 0`).
   */
  deadline: number;
}

export type BenchSection = (ctx: BenchContext) => Promise<Record<string, unknown>>;
