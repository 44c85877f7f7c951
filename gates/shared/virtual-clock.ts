/**
 * A virtual clock for probes of modules whose contract involves time (a queue's per-job timeout, back-off between
 * retries, idle restarts), in the sandbox child. A module's own timer of any length (its default 10 s, an option
 * the probes do not know the name of) fires during a probe without the probe waiting for it: while a probe runs
 * `virtual`, every timer the module sets runs on a fake clock (`@sinonjs/fake-timers`) that the probe advances
 * from one timer to the next. Outside it, the same functions are the real timers, so the wall-clock probes keep
 * real time.
 *
 * The child pins the global bindings before the module loads (src/sandbox/harden.ts), so the switch is installed
 * first, by the collector's `prepare`: the global timer functions, those of `node:timers` and
 * `node:timers/promises`, `Date.now` and `performance.now` become dispatchers. What the child itself needs keeps
 * the real ones (`real`, captured when this file loads, before any of that). `new Date()` without arguments stays
 * real.
 */
import timers from "node:timers";
import timersPromises from "node:timers/promises";
import FakeTimers from "@sinonjs/fake-timers";

type Callback = (...args: unknown[]) => void;
type TimerFn = (cb: Callback, ms?: number, ...args: unknown[]) => unknown;

/** The real timers and clocks, as they were before the switch: what the probes' own waiting uses. */
export const real = {
  setTimeout: timers.setTimeout,
  clearTimeout: timers.clearTimeout,
  setImmediate: timers.setImmediate,
  now: Date.now,
};

/** Real timer functions by name, captured now (the module may not change them before `prepare` either). */
const ORIGINAL = {
  setTimeout: globalThis.setTimeout,
  clearTimeout: globalThis.clearTimeout,
  setInterval: globalThis.setInterval,
  clearInterval: globalThis.clearInterval,
  setImmediate: globalThis.setImmediate,
  clearImmediate: globalThis.clearImmediate,
} as unknown as Record<string, Callback>;
const ORIGINAL_PROMISES = {
  setTimeout: timersPromises.setTimeout,
  setImmediate: timersPromises.setImmediate,
};
const originalPerformanceNow = performance.now.bind(performance);

const clock = FakeTimers.withGlobal(globalThis).createClock(0, 1_000_000);
let virtual = false;
/** Timers made on the fake clock (their handles), so a clear reaches the clock that made them. */
const fakeHandles = new WeakSet<object>();

const onClock = (name: "setTimeout" | "setInterval" | "setImmediate"): TimerFn =>
  function (this: unknown, cb: Callback, ms?: number, ...args: unknown[]) {
    if (!virtual) return (ORIGINAL[name] as unknown as TimerFn).call(this, cb, ms, ...args);
    const handle =
      name === "setImmediate"
        ? clock.setImmediate(cb, ...(ms === undefined ? [] : [ms]), ...args)
        : clock[name](cb, ms, ...args);
    if (handle && typeof handle === "object") fakeHandles.add(handle);
    return handle;
  };
const clearOn = (name: "clearTimeout" | "clearInterval" | "clearImmediate") =>
  function (this: unknown, handle: unknown) {
    // fake-timers numbers its timers from 1e12: far above Node's own ids
    const fake =
      (handle !== null && typeof handle === "object" && fakeHandles.has(handle)) ||
      (typeof handle === "number" && handle >= 1e12);
    if (fake) (clock[name] as (h: unknown) => void)(handle);
    else ORIGINAL[name]!.call(this, handle);
  };

const SWITCHED = {
  setTimeout: onClock("setTimeout"),
  setInterval: onClock("setInterval"),
  setImmediate: onClock("setImmediate"),
  clearTimeout: clearOn("clearTimeout"),
  clearInterval: clearOn("clearInterval"),
  clearImmediate: clearOn("clearImmediate"),
};

let installed = false;

/** Puts the dispatchers in place of the timers (once; before the realm is hardened). Never throws. */
export function installVirtualClock(): void {
  if (installed) return;
  installed = true;
  try {
    for (const [name, fn] of Object.entries(SWITCHED)) {
      (globalThis as Record<string, unknown>)[name] = fn;
      (timers as unknown as Record<string, unknown>)[name] = fn;
    }
    const promised = timersPromises as unknown as Record<string, unknown>;
    promised.setTimeout = (ms?: number, value?: unknown, options?: object) =>
      virtual
        ? new Promise((resolve) => SWITCHED.setTimeout(() => resolve(value), ms))
        : ORIGINAL_PROMISES.setTimeout(ms, value, options);
    promised.setImmediate = (value?: unknown, options?: object) =>
      virtual
        ? new Promise((resolve) => SWITCHED.setImmediate(() => resolve(value)))
        : ORIGINAL_PROMISES.setImmediate(value, options);
    const realNow = real.now;
    Date.now = () => (virtual ? clock.now : realNow());
    performance.now = () => (virtual ? clock.now : originalPerformanceNow());
  } catch {
    // a realm that refuses the switch keeps real time: the virtual probes then see real timers (and say so)
    installed = false;
  }
}

/** A sleep on the fake clock (a virtual probe's slow attempts). */
export const virtualSleep = (ms: number): Promise<void> =>
  new Promise((resolve) => {
    clock.setTimeout(() => resolve(), ms);
  });

/** Drives the fake clock until `settled()` holds (see `withVirtualClock`). */
export type Drive = (
  settled: () => boolean,
  o: { horizonMs: number; turns: number },
) => Promise<"settled" | "horizon" | "turns">;

/**
 * Runs `scenario` with the module's timers on a fresh fake clock; fake timers left pending are dropped afterwards.
 * Its `drive` advances that clock: between turns of the real event loop (so promise chains and real immediates
 * run) it fires the next fake timer, until `settled()` holds, virtual time passes `horizonMs` from the call, or
 * `turns` turns of the real loop pass. Counted in turns, not in real time: a process the OS leaves waiting (a
 * loaded runner) gets the same number of turns, so the outcome does not depend on the machine's load.
 */
export async function withVirtualClock<T>(scenario: (drive: Drive) => Promise<T>): Promise<T> {
  clock.reset();
  virtual = true;
  const drive: Drive = async (settled, o) => {
    const horizon = clock.now + o.horizonMs;
    for (let turn = 0; ; turn++) {
      await new Promise<void>((r) => real.setImmediate(r));
      if (settled()) return "settled";
      if (turn >= o.turns) return "turns";
      if (clock.countTimers() === 0) continue; // waiting on real turns (a handler's ticks)
      if (clock.next() > horizon) return "horizon";
    }
  };
  try {
    return await scenario(drive);
  } finally {
    virtual = false;
    clock.reset();
  }
}

/**
 * Resolves once `ms` of the process's own time have passed: counted in ticks of TICK_MS on the real timers, each
 * tick waiting for the one before it. A process the OS did not run for a while (a loaded runner) sees its ticks
 * late, so it is not judged as if it had run all along; an idle wait still ends after about `ms`.
 */
export function loopDeadline(ms: number): { done: Promise<void>; cancel(): void } {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let cancelled = false;
  let left = Math.max(1, Math.ceil(ms / TICK_MS));
  const done = new Promise<void>((resolve) => {
    const tick = () => {
      if (cancelled) return;
      if (--left <= 0) resolve();
      else timer = real.setTimeout(tick, TICK_MS) as ReturnType<typeof setTimeout>;
    };
    timer = real.setTimeout(tick, TICK_MS) as ReturnType<typeof setTimeout>;
  });
  return {
    done,
    cancel: () => {
      cancelled = true;
      real.clearTimeout(timer);
    },
  };
}

/** One tick of `loopDeadline`. */
const TICK_MS = 10;
