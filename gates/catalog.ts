/**
 * Gate implementations by id (loaded inside the sandbox child only). One folder per gate. Each entry loads its
 * gate on demand, so a child evaluates only the code (and the dependencies: fast-check, sql.js, the parser,
 * postcss) of the gate it runs: child start-up is paid once per gate run.
 */
import type { GateId } from "./ids.js";
import type { Gate } from "./types.js";

export const catalog: Record<GateId, () => Promise<Gate>> = {
  analytics: async () => (await import("./analytics/index.js")).analytics,
  boundary: async () => (await import("./boundary/index.js")).boundary,
  complexity: async () => (await import("./complexity/index.js")).complexity,
  conservation: async () => (await import("./conservation/index.js")).conservation,
  contrast: async () => (await import("./contrast/index.js")).contrast,
  leakage: async () => (await import("./leakage/index.js")).leakage,
  queue: async () => (await import("./queue/index.js")).queue,
  "tenant-isolation": async () => (await import("./tenant-isolation/index.js")).tenantIsolation,
};

/**
 * V8 flags of a gate's child, set before the gate or the module loads (`v8.setFlagsFromString`, which
 * ignores a flag this Node does not know). The property gates run hundreds of short probes in a child that
 * lives for well under a second: V8's optimising tier (TurboFan) would spend more CPU compiling than it
 * saves, so their code stops at Maglev (Sparkplug where Node has no Maglev). tenant-isolation also keeps
 * sql.js's WebAssembly on the baseline tier (Liftoff): optimising SQLite's huge interpreter loop costs
 * more than all its queries. Complexity times the module and keeps the full JIT, as its wall-clock rule
 * and the stability figures of `npm run bench` assume.
 */
export const CHILD_V8_FLAGS: Readonly<Record<GateId, readonly string[]>> = {
  analytics: ["--max-opt=2"],
  boundary: ["--max-opt=2"],
  complexity: [],
  conservation: ["--max-opt=2"],
  contrast: ["--max-opt=2"],
  leakage: ["--max-opt=2"],
  queue: ["--max-opt=2"],
  "tenant-isolation": ["--max-opt=2", "--liftoff-only"],
};
