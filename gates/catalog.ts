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
