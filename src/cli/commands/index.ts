import type { CliIO } from "../io.js";
import { gateCommand } from "./gate.js";
import { initCommand } from "./init.js";
import { mergeCommand } from "./merge.js";
import { planCommand } from "./plan.js";
import { runCommand } from "./run.js";
import { validateCommand } from "./validate.js";

export type Command = (argv: string[], io: CliIO) => Promise<number>;

/** Every CLI command; one file each. */
export const COMMANDS: Record<string, Command> = {
  run: runCommand,
  plan: planCommand,
  validate: validateCommand,
  init: initCommand,
  merge: mergeCommand,
  gate: gateCommand,
};
