interface Waiter {
  priority: number;
  resolve: () => void;
}

/**
 * At most `size` holders at once; the rest wait, highest `priority` first and in arrival order among equals.
 * `run` holds a slot for the whole of `work`.
 */
export class Slots {
  private free: number;
  /** Sorted: highest priority first, arrival order within a priority. */
  private readonly waiting: Waiter[] = [];

  constructor(readonly size: number) {
    if (!Number.isInteger(size) || size < 1)
      throw new RangeError(`slots: size must be a positive integer, got ${size}`);
    this.free = size;
  }

  async run<T>(work: () => Promise<T>, priority = 0): Promise<T> {
    if (this.free > 0) this.free--;
    else
      await new Promise<void>((resolve) => {
        let at = this.waiting.length;
        while (at > 0 && (this.waiting[at - 1] as Waiter).priority < priority) at--;
        this.waiting.splice(at, 0, { priority, resolve });
      });
    try {
      return await work();
    } finally {
      // The slot passes straight to the next waiter, so a newcomer cannot take it in between.
      const next = this.waiting.shift();
      if (next) next.resolve();
      else this.free++;
    }
  }

  /** Holders right now (for tests and progress lines). */
  get busy(): number {
    return this.size - this.free;
  }
}

/** Runs `fn` over `items` with at most `limit` at once; results in the order of `items`. */
export async function mapLimited<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!, i);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  return out;
}
