/** Every gate's judge, by id (loaded by the registry when a gate first runs: fast-check, the parser, postcss). */
import { analytics } from "./analytics/index.js";
import { boundary } from "./boundary/index.js";
import { complexity } from "./complexity/index.js";
import { conservation } from "./conservation/index.js";
import { contrast } from "./contrast/index.js";
import type { GateId } from "./ids.js";
import { leakage } from "./leakage/index.js";
import { queue } from "./queue/index.js";
import { tenantIsolation } from "./tenant-isolation/index.js";
import type { GateJudge } from "./types.js";

export const JUDGES: Readonly<Record<GateId, GateJudge>> = {
  analytics,
  boundary,
  complexity,
  conservation,
  contrast,
  leakage,
  queue,
  "tenant-isolation": tenantIsolation,
};
