/** The complexity gate's instruments on built-ins, as the child sees them (installed by preload.ts). */

/** What the wrappers report work to. `add` may throw (the counter's cap) to stop a runaway call. */
interface WorkSink {
  add(k: number): void;
}

export interface Instruments {
  /** Counts into `sink` until `detach()`; one sink at a time. */
  attach(sink: WorkSink): void;
  detach(): void;
}

/** Name of the one-shot global the child reads the instruments from. */
export const INSTRUMENTS_GLOBAL = "__skillgateComplexityInstruments";

/** The instruments, once (the child takes them before the module loads); undefined without the preload. */
export function takeInstruments(): Instruments | undefined {
  return (globalThis as Record<string, unknown>)[INSTRUMENTS_GLOBAL] as Instruments | undefined;
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

function lengthOf(a: unknown): number {
  const n = (a as { length?: unknown } | null)?.length;
  return typeof n === "number" && n > 0 ? n : 0;
}

/**
 * Installs the counting wrappers on Array, Map and Set methods; `restore` puts the originals back (for the
 * bench and tests, which run in-process; the child never restores: its preload installs them for good).
 */
export function installInstruments(): { instruments: Instruments; restore(): void } {
  let sink: WorkSink | undefined;
  const restores: (() => void)[] = [];
  const patch = (proto: object, name: string, make: (orig: AnyFn) => AnyFn) => {
    const desc = Object.getOwnPropertyDescriptor(proto, name);
    if (!desc || typeof desc.value !== "function") return;
    Object.defineProperty(proto, name, { ...desc, value: make(desc.value as AnyFn) });
    restores.push(() => Object.defineProperty(proto, name, desc));
  };
  const countingComparator = (s: WorkSink, cmp: unknown): AnyFn =>
    typeof cmp === "function"
      ? (a, b) => {
          s.add(1);
          return (cmp as AnyFn)(a, b);
        }
      : (a, b) => {
          // The default order: string comparison (undefined never reaches a comparator).
          s.add(1);
          const x = String(a);
          const y = String(b);
          return x < y ? -1 : x > y ? 1 : 0;
        };
  for (const name of ["sort", "toSorted"])
    patch(
      Array.prototype,
      name,
      (orig) =>
        function (this: unknown, cmp?: unknown) {
          const s = sink;
          return s ? orig.call(this, countingComparator(s, cmp)) : orig.call(this, cmp);
        },
    );
  for (const name of CALLBACK_METHODS)
    patch(
      Array.prototype,
      name,
      (orig) =>
        function (this: unknown, cb: unknown, ...rest: unknown[]) {
          const s = sink;
          if (!s || typeof cb !== "function") return orig.call(this, cb, ...rest);
          const wrapped = function (this: unknown, ...args: unknown[]) {
            s.add(1);
            return (cb as AnyFn).apply(this, args);
          };
          return orig.call(this, wrapped, ...rest);
        },
    );
  for (const name of SCAN_METHODS)
    patch(
      Array.prototype,
      name,
      (orig) =>
        function (this: unknown, ...args: unknown[]) {
          const result = orig.apply(this, args);
          const s = sink;
          if (s) {
            const len = lengthOf(this);
            s.add(typeof result === "number" && result >= 0 && name === "indexOf" ? result + 1 : len);
          }
          return result;
        },
    );
  // Work proportional to the array: elements moved (unshift, splice) or copied (concat, slice).
  patch(
    Array.prototype,
    "unshift",
    (orig) =>
      function (this: unknown, ...items: unknown[]) {
        sink?.add(lengthOf(this) + items.length);
        return orig.apply(this, items);
      },
  );
  patch(
    Array.prototype,
    "splice",
    (orig) =>
      function (this: unknown, ...args: unknown[]) {
        const s = sink;
        if (s) {
          const len = lengthOf(this);
          const raw = Number(args[0]);
          const start = Number.isFinite(raw) ? (raw < 0 ? Math.max(0, len + raw) : Math.min(raw, len)) : 0;
          s.add(1 + Math.max(0, len - start) + Math.max(0, args.length - 2));
        }
        return orig.apply(this, args);
      },
  );
  patch(
    Array.prototype,
    "concat",
    (orig) =>
      function (this: unknown, ...args: unknown[]) {
        const result = orig.apply(this, args);
        sink?.add(lengthOf(result));
        return result;
      },
  );
  for (const name of MAP_METHODS)
    patch(
      Map.prototype,
      name,
      (orig) =>
        function (this: unknown, ...args: unknown[]) {
          sink?.add(1);
          return orig.apply(this, args);
        },
    );
  for (const name of SET_METHODS)
    patch(
      Set.prototype,
      name,
      (orig) =>
        function (this: unknown, ...args: unknown[]) {
          sink?.add(1);
          return orig.apply(this, args);
        },
    );
  return {
    instruments: {
      attach(s) {
        sink = s;
      },
      detach() {
        sink = undefined;
      },
    },
    restore() {
      for (const r of restores.reverse()) r();
    },
  };
}
