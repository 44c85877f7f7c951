/**
 * What a new user sees when an agent cannot start: the flag or setting to use, never a bare system error. The
 * config keys named here are those of `.skillgate.yml` (docs/configuration.md).
 */
import { InputError } from "../model/index.js";

/** How to install each agent CLI, as its own documentation says. */
const INSTALL: Record<string, string> = {
  "claude-code": "npm install -g @anthropic-ai/claude-code (Claude Code needs Node ≥ 22)",
  codex: "npm install -g @openai/codex",
};

/** `claude --version` (or codex's) failed: a missing program says how to install it or where to name it. */
export function agentCliError(adapter: string, file: string, error: Error & { code?: unknown }): InputError {
  if (error.code === "ENOENT")
    return new InputError(
      `${adapter}: \`${file}\` was not found on PATH. Install it: ${INSTALL[adapter] ?? "see its documentation"}; or name where it is with \`command:\` under \`agent:\` in .skillgate.yml (agent: {adapter: ${adapter}, command: /path/to/${file.split("/").pop()}})`,
    );
  return new InputError(`${adapter}: cannot run \`${file} --version\`: ${error.message.split("\n")[0]}`);
}

/** An HTTP agent adapter configured without a model. */
export function modelMissing(adapter: string, example: string, note = ""): InputError {
  return new InputError(
    `agent adapter "${adapter}" needs a model${note}: \`--model NAME\` on the command line, or \`model:\` under \`agent:\` in .skillgate.yml (agent: {adapter: ${adapter}, model: ${example}})`,
  );
}

/** The default agent (recorded trials) with no recordings: how to choose a live agent. */
export function recordingsMissing(folder: string): InputError {
  return new InputError(
    `replay: recordings folder ${folder} does not exist. The replay agent serves trials recorded earlier (\`skillgate run --record DIR\`), and it is the default when no agent is chosen. To run a live agent choose one: \`--agent claude-code\` (or codex, anthropic --model NAME, openai --model NAME) on the command line, or in .skillgate.yml \`agent: { adapter: claude-code }\`; your own program: \`agent: { adapter: command, command: node agent.mjs }\` (docs/agent-protocol.md)`,
  );
}
