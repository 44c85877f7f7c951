/** A position in a repository file. `file` is relative to the repository root, POSIX separators. */
export interface SourceLocation {
  file: string;
  /** 1-based */
  line: number;
  /** 1-based */
  column: number;
}

export type Severity = "error" | "warning" | "notice";

/** One problem found in an input file. Every error skillgate prints is one of these: never a stack trace. */
export interface Diagnostic extends SourceLocation {
  severity: Severity;
  message: string;
  /** Stable machine code, e.g. `skill/name-pattern`, `suite/unknown-assertion-type`. */
  code: string;
}

export function formatDiagnostic(d: Diagnostic): string {
  return `${d.file}:${d.line}:${d.column}: ${d.severity}: ${d.message}`;
}

/** Thrown for bad input (usage or configuration); the CLI maps it to exit code 2 with the located messages. */
export class InputError extends Error {
  constructor(
    message: string,
    readonly diagnostics: Diagnostic[] = [],
  ) {
    super(message);
    this.name = "InputError";
  }
}

/** A wrong command-line option or input value (unknown option, missing argument, a value out of range). */
export class UsageError extends InputError {
  override name = "UsageError";
}
