import { axisFormat } from "./axis.js";
import { pluginEvalFormat } from "./plugin-eval.js";
import { seedFormat } from "./seed.js";
import { skillCreatorFormat } from "./skill-creator.js";
import type { SuiteFormatLoader } from "./types.js";
import { wazaFormat } from "./waza.js";

/** Every suite format skillgate reads, in load order. */
export const SUITE_FORMATS: readonly SuiteFormatLoader[] = [
  seedFormat,
  skillCreatorFormat,
  wazaFormat,
  pluginEvalFormat,
  axisFormat,
];
export type { SuiteDraft, SuiteFormatLoader } from "./types.js";
