/** Exponential backoff with seeded jitter, for transient faults only. */

export { seededRandom } from "../util/random.js";

export const DEFAULT_MAX_RETRIES = 2;
export const DEFAULT_RETRY_BASE_MS = 1000;
const MAX_RETRY_DELAY_MS = 30_000;

/** Delay before retry `attempt` (1-based): base·2^(attempt−1), "full jitter" between half and all of it. */
export function backoffDelay(attempt: number, baseMs: number, random: () => number): number {
  const ceiling = Math.min(MAX_RETRY_DELAY_MS, baseMs * 2 ** (attempt - 1));
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const t = setTimeout(done, ms);
    function done() {
      clearTimeout(t);
      signal?.removeEventListener("abort", done);
      resolve();
    }
    signal?.addEventListener("abort", done, { once: true });
  });
}
