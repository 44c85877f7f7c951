/**
 * Agent calls at once, adapted to what the model API accepts: additive increase, multiplicative decrease (AIMD, as
 * TCP does). A rate-limit answer halves the limit, once per burst (answers to calls started before the last cut say
 * nothing new); every `limit` calls that end without one raise it by one, never above the configured ceiling. Calls
 * beyond the limit wait in arrival order.
 */
export class AdaptiveLimit {
  private current: number;
  private running = 0;
  private readonly waiting: (() => void)[] = [];
  /** Calls ended without a rate limit since the last change. */
  private okSinceChange = 0;
  /** Incremented at each cut: a call started under an older generation cannot cut again. */
  private generation = 0;
  /** Lowest limit reached (for the report). */
  lowest: number;
  cuts = 0;

  constructor(readonly ceiling: number) {
    if (!Number.isInteger(ceiling) || ceiling < 1)
      throw new RangeError(`concurrency must be a positive integer, got ${ceiling}`);
    this.current = ceiling;
    this.lowest = ceiling;
  }

  get limit(): number {
    return this.current;
  }

  /** Runs `work` within the limit; `work` says whether its call was rate-limited. */
  async run<T>(work: () => Promise<{ value: T; rateLimited: boolean }>): Promise<T> {
    // A slot is taken here, or by `wake` on the waiter's behalf before it resumes.
    if (this.running < this.current) this.running++;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    const started = this.generation;
    try {
      const { value, rateLimited } = await work();
      this.settle(rateLimited, started);
      return value;
    } finally {
      this.running--;
      this.wake();
    }
  }

  private settle(rateLimited: boolean, startedIn: number): void {
    if (rateLimited) {
      if (startedIn !== this.generation) return;
      this.current = Math.max(1, Math.floor(this.current / 2));
      this.lowest = Math.min(this.lowest, this.current);
      this.generation++;
      this.cuts++;
      this.okSinceChange = 0;
      return;
    }
    if (this.current >= this.ceiling) return;
    if (++this.okSinceChange >= this.current) {
      this.current++;
      this.okSinceChange = 0;
    }
  }

  private wake(): void {
    while (this.running < this.current && this.waiting.length > 0) {
      this.running++;
      this.waiting.shift()!();
    }
  }
}
