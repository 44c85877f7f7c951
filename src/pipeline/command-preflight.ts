/**
 * Before any trial: the `command` agent's (and judge's) program can start where it will run. A problem is a
 * configuration error located at the key of the policy's file (exit 2); `plan`, which runs nothing, only warns.
 */
import { checkCommand } from "../agents/command-check.js";
import type { AgentConfig, Settings } from "../model/index.js";
import { InputError } from "../model/index.js";
import type { Isolation } from "../sandbox/isolation/types.js";

/** The key path of `agent`'s command in the policy's file: `agent.command`, or a matrix cell's. */
function commandKey(settings: Settings, agent: AgentConfig, judge: boolean): (string | number)[] {
  if (judge) return ["judge", "command"];
  const cell = settings.config.agents?.findIndex((c) => c.command === agent.command) ?? -1;
  return cell >= 0 ? ["agents", cell, "command"] : ["agent", "command"];
}

export function checkCommands(
  settings: Settings,
  dir: string,
  isolation: Isolation,
  opts: { warnOnly: boolean },
): void {
  const commands = [
    { config: settings.agent, judge: false },
    ...(settings.judge ? [{ config: settings.judge, judge: true }] : []),
  ];
  for (const { config, judge } of commands) {
    if (config.adapter !== "command" || !config.command) continue;
    const path = commandKey(settings, config, judge);
    const found = checkCommand({
      command: config.command,
      key: path.join("."),
      dir,
      ...(config.options ? { options: config.options } : {}),
      env: process.env,
      isolation,
    });
    if (!found) continue;
    const at = settings.policy.file ? settings.policy.locateKey?.(path) : undefined;
    const where = settings.policy.file
      ? `${settings.policy.file}${at ? `:${at.line}:${at.column}` : ""}: `
      : "";
    const message = `${where}${found.problem}\nfix: ${found.fix}`;
    if (opts.warnOnly) settings.logger.warn(message);
    else throw new InputError(message);
  }
}
