/** Gate implementations by id (loaded inside the sandbox child only). One folder per gate. */
import { analytics } from "./analytics/index.js";
import { boundary } from "./boundary/index.js";
import { complexity } from "./complexity/index.js";
import { conservation } from "./conservation/index.js";
import { contrast } from "./contrast/index.js";
import { leakage } from "./leakage/index.js";
import { queue } from "./queue/index.js";
import { tenantIsolation } from "./tenant-isolation/index.js";
import type { Gate } from "./types.js";

export const catalog: Record<string, Gate> = {
  [analytics.id]: analytics,
  [boundary.id]: boundary,
  [complexity.id]: complexity,
  [conservation.id]: conservation,
  [contrast.id]: contrast,
  [leakage.id]: leakage,
  [queue.id]: queue,
  [tenantIsolation.id]: tenantIsolation,
};
