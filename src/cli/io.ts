import { logSafe } from "../util/log-text.js";
import { redactOutput } from "../util/redact.js";

/** Where a command writes; tests pass buffers. */
export interface CliIO {
  stdout: (s: string) => void;
  stderr: (s: string) => void;
}

export const processIO: CliIO = {
  // Every byte the CLI prints passes the redactor (secrets never reach a terminal or a CI log) and `logSafe`
  // (names and answers in it start no runner command and no terminal escape; colours only on a terminal).
  stdout: (s) =>
    process.stdout.write(logSafe(redactOutput(s), { keepColour: Boolean(process.stdout.isTTY) })),
  stderr: (s) =>
    process.stderr.write(logSafe(redactOutput(s), { keepColour: Boolean(process.stderr.isTTY) })),
};
