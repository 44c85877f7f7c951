/** Input builders for the complexity gate: deterministic (seeded) inputs of size n, as the argument list. */

export type Builder = (n: number, seed: number) => unknown[];

/** xorshift32: small, fast, seeded; never Math.random (runs must replay). */
function prng(seed: number): () => number {
  let s = seed >>> 0 || 0x9e3779b9;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 4294967296;
  };
}

export const BUILDERS: Record<string, Builder> = {
  /** `fn(events: [{id, userId, ts}], users: [{id, name}])`: n events over n users. */
  "events-users": (n, seed) => {
    const r = prng(seed ^ n);
    const users = Array.from({ length: n }, (_, i) => ({ id: `u${i}`, name: `user ${i}` }));
    const events = Array.from({ length: n }, (_, i) => ({
      id: `e${i}`,
      userId: `u${Math.floor(r() * n)}`,
      ts: Math.floor(r() * 1e9),
    }));
    return [events, users];
  },
  /** `fn(number[])` */
  numbers: (n, seed) => {
    const r = prng(seed ^ n);
    return [Array.from({ length: n }, () => Math.floor(r() * 1e6))];
  },
  /** `fn(string[])` */
  strings: (n, seed) => {
    const r = prng(seed ^ n);
    return [Array.from({ length: n }, () => Math.floor(r() * 36 ** 6).toString(36))];
  },
  /** `fn([{id, group, value}])`, about ten rows per group. */
  records: (n, seed) => {
    const r = prng(seed ^ n);
    const groups = Math.max(1, Math.floor(n / 10));
    return [
      Array.from({ length: n }, (_, i) => ({
        id: `r${i}`,
        group: `g${Math.floor(r() * groups)}`,
        value: Math.floor(r() * 1000),
      })),
    ];
  },
};
