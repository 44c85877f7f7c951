import { redactOutput } from "../util/redact.js";

/** Where a command writes; tests pass buffers. */
export interface CliIO {
  stdout: (s: string) => void;
  stderr: (s: string) => void;
}

export const processIO: CliIO = {
  // Every byte the CLI prints passes the redactor: secrets never reach a terminal or a CI log.
  stdout: (s) => process.stdout.write(redactOutput(s)),
  stderr: (s) => process.stderr.write(redactOutput(s)),
};
