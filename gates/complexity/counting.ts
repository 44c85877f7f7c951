/**
 * Operation counters. The input and every object reachable from it are wrapped in Proxies that count property
 * reads, writes, `in` checks and key listings — so work on elements is counted even after the array was copied
 * (`slice`, spread, `map`: the copies hold the same counted element proxies). Built-ins that hide work on
 * copied primitives are counted by the instruments (instruments.ts) while a counter is attached. Counts are
 * deterministic: the same code on the same input gives the same number, under any CPU load.
 */

export class CountCapReached extends Error {}

export class OpCounter {
  ops = 0;
  capped = false;
  constructor(readonly cap: number) {}
  add(k = 1): void {
    this.ops += k;
    if (this.ops > this.cap && !this.capped) {
      this.capped = true;
      throw new CountCapReached(`more than ${this.cap} operations`);
    }
  }
}

/** Wraps objects and arrays (deeply, lazily) so every access through them is counted. */
export function counted<T>(value: T, counter: OpCounter): T {
  const proxies = new WeakMap<object, object>();
  const wrap = (v: unknown): unknown => {
    if (v === null || typeof v !== "object") return v;
    let p = proxies.get(v);
    if (!p) {
      p = new Proxy(v, {
        get(target, key, receiver) {
          counter.add();
          return wrap(Reflect.get(target, key, receiver));
        },
        set(target, key, val, receiver) {
          counter.add();
          return Reflect.set(target, key, val, receiver);
        },
        has(target, key) {
          counter.add();
          return Reflect.has(target, key);
        },
        deleteProperty(target, key) {
          counter.add();
          return Reflect.deleteProperty(target, key);
        },
        ownKeys(target) {
          const keys = Reflect.ownKeys(target);
          counter.add(keys.length);
          return keys;
        },
      });
      proxies.set(v, p);
    }
    return p;
  };
  return wrap(value) as T;
}
