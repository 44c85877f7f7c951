import type { CliIO } from "../io.js";
import { GATE_USAGE, gateCommand } from "./gate.js";
import { HARVEST_USAGE, harvestCommand } from "./harvest.js";
import { INIT_USAGE, initCommand } from "./init.js";
import { MERGE_USAGE, mergeCommand } from "./merge.js";
import { PLAN_USAGE, planCommand } from "./plan.js";
import { RUN_USAGE, runCommand } from "./run.js";
import { VALIDATE_USAGE, validateCommand } from "./validate.js";

export type Command = (argv: string[], io: CliIO) => Promise<number>;

/** Every CLI command, one file each, with the usage printed for `--help` and on every usage error. */
export const COMMANDS: Record<string, { run: Command; usage: string }> = {
  run: { run: runCommand, usage: RUN_USAGE },
  plan: { run: planCommand, usage: PLAN_USAGE },
  validate: { run: validateCommand, usage: VALIDATE_USAGE },
  init: { run: initCommand, usage: INIT_USAGE },
  merge: { run: mergeCommand, usage: MERGE_USAGE },
  gate: { run: gateCommand, usage: GATE_USAGE },
  harvest: { run: harvestCommand, usage: HARVEST_USAGE },
};
