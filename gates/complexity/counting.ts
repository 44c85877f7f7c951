/**
 * Operation counters. The input and every object reachable from it are wrapped in Proxies that count property
 * reads, writes, `in` checks and key listings — so work on elements is counted even after the array was copied
 * (`slice`, spread, `map`: the copies hold the same counted element proxies). Built-ins that hide work on
 * copied primitives are counted too while the probe runs: comparator calls of sort/toSorted, callback calls of
 * the iteration methods, elements scanned by indexOf/includes, Map and Set operations. Counts are
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

type AnyFn = (...a: unknown[]) => unknown;
const CALLBACK_METHODS = [
  "map",
  "filter",
  "forEach",
  "reduce",
  "reduceRight",
  "find",
  "findIndex",
  "findLast",
  "findLastIndex",
  "some",
  "every",
  "flatMap",
] as const;
const SCAN_METHODS = ["indexOf", "lastIndexOf", "includes"] as const;
const MAP_METHODS = ["get", "set", "has", "delete"] as const;
const SET_METHODS = ["add", "has", "delete"] as const;

/** Installs counting versions of the built-ins above; returns the function that restores the originals. */
export function instrumentBuiltins(counter: OpCounter): () => void {
  const restores: (() => void)[] = [];
  const patch = (proto: object, name: string, make: (orig: AnyFn) => AnyFn) => {
    const desc = Object.getOwnPropertyDescriptor(proto, name);
    if (!desc || typeof desc.value !== "function") return;
    const orig = desc.value as AnyFn;
    Object.defineProperty(proto, name, { ...desc, value: make(orig) });
    restores.push(() => Object.defineProperty(proto, name, desc));
  };
  const countingComparator = (cmp: unknown): AnyFn =>
    typeof cmp === "function"
      ? (a, b) => {
          counter.add();
          return (cmp as AnyFn)(a, b);
        }
      : (a, b) => {
          // The default order: string comparison (undefined never reaches a comparator).
          counter.add();
          const x = String(a);
          const y = String(b);
          return x < y ? -1 : x > y ? 1 : 0;
        };
  for (const name of ["sort", "toSorted"]) {
    patch(
      Array.prototype,
      name,
      (orig) =>
        function (this: unknown, cmp?: unknown) {
          return orig.call(this, countingComparator(cmp));
        },
    );
  }
  for (const name of CALLBACK_METHODS) {
    patch(
      Array.prototype,
      name,
      (orig) =>
        function (this: unknown, cb: unknown, ...rest: unknown[]) {
          if (typeof cb !== "function") return orig.call(this, cb, ...rest);
          const wrapped = function (this: unknown, ...args: unknown[]) {
            counter.add();
            return (cb as AnyFn).apply(this, args);
          };
          return orig.call(this, wrapped, ...rest);
        },
    );
  }
  for (const name of SCAN_METHODS) {
    patch(
      Array.prototype,
      name,
      (orig) =>
        function (this: unknown[], ...args: unknown[]) {
          const result = orig.apply(this, args);
          const len = (this as { length: number }).length;
          counter.add(typeof result === "number" && result >= 0 && name === "indexOf" ? result + 1 : len);
          return result;
        },
    );
  }
  for (const name of MAP_METHODS)
    patch(
      Map.prototype,
      name,
      (orig) =>
        function (this: unknown, ...args: unknown[]) {
          counter.add();
          return orig.apply(this, args);
        },
    );
  for (const name of SET_METHODS)
    patch(
      Set.prototype,
      name,
      (orig) =>
        function (this: unknown, ...args: unknown[]) {
          counter.add();
          return orig.apply(this, args);
        },
    );
  return () => {
    for (const r of restores.reverse()) r();
  };
}
