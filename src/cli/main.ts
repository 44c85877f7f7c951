import { formatDiagnostic, InputError } from "../model/index.js";
import { EXIT } from "../report/exit-codes.js";
import { VERSION } from "../version.js";
import { COMMANDS } from "./commands/index.js";
import { type CliIO, processIO } from "./io.js";
import { suggestion, UsageError } from "./usage.js";

const USAGE = `skillgate ${VERSION} — gate pull requests that edit AI-agent skills

Usage: skillgate <command> [options]

Commands:
  run        run the batteries and gates, compare with the base, print the verdict
  plan       say what \`run\` would run and spend (trials, cache hits, agent calls, USD), running nothing
  validate   check SKILL.md files, eval suites and .skillgate.yml
  gate       run one deterministic gate on a module
  merge      combine shard reports into one
  init       scaffold an eval suite for a skill
  harvest    run baseline agents on a skill's tasks and propose discriminators from what they got wrong

Run \`skillgate <command> --help\` for a command's options.
Exit codes: 0 pass, 1 fail, 2 usage or configuration error, 3 agent or infrastructure error.`;

/** The CLI: dispatches to one command; every bad input ends as a located message and exit 2, never a stack trace. */
export async function main(argv: string[], io: CliIO = processIO): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === "help" || name === "--help" || name === "-h") {
    io.stdout(`${USAGE}\n`);
    return name ? EXIT.pass : EXIT.usage;
  }
  if (name === "--version" || name === "-v") {
    io.stdout(`${VERSION}\n`);
    return EXIT.pass;
  }
  const command = COMMANDS[name];
  if (!command) {
    const known = Object.keys(COMMANDS);
    io.stderr(
      `skillgate: unknown command \`${name}\`${name.startsWith("-") ? "" : suggestion(name, known)}\n\n${USAGE}\n`,
    );
    return EXIT.usage;
  }
  try {
    return await command.run(rest, io);
  } catch (e) {
    return reportError(e, io, { name, usage: command.usage });
  }
}

/**
 * Every error of a command, in one voice: `skillgate <command>: …`. A usage error is followed by the command's
 * usage; a configuration error by its located diagnostics (both exit 2); anything else is an error (exit 3).
 */
function reportError(e: unknown, io: CliIO, command: { name: string; usage: string }): number {
  const prefix = `skillgate ${command.name}:`;
  if (e instanceof UsageError) {
    io.stderr(`${prefix} ${e.message}\n\n${command.usage}\n`);
    return EXIT.usage;
  }
  if (e instanceof InputError) {
    io.stderr(`${prefix} ${e.message}\n`);
    for (const d of e.diagnostics) io.stderr(`${formatDiagnostic(d)}\n`);
    return EXIT.usage;
  }
  io.stderr(`${prefix} error: ${(e as Error)?.message ?? String(e)}\n`);
  if (process.env.SKILLGATE_DEBUG) io.stderr(`${(e as Error)?.stack ?? ""}\n`);
  return EXIT.error;
}
