/**
 * One voice for every command's command line: options parsed by one function, every mistake a UsageError that
 * `main` prints as `skillgate <command>: <what is wrong>` followed by the command's usage, exit 2.
 */
import { type ParseArgsConfig, parseArgs } from "node:util";
import { UsageError } from "../model/diagnostics.js";
import { didYouMean } from "../util/edit-distance.js";

/** A wrong command line (unknown option, missing argument, bad value): printed with the usage, exit 2. */
export { UsageError };

type Options = NonNullable<ParseArgsConfig["options"]>;

/** ` (did you mean X?)` when one of `known` is close to `given` (case counts; a prefix is one edit), else "". */
export function suggestion(given: string, known: readonly string[]): string {
  const best = didYouMean(given, known, { caseSensitive: true, prefixIsOneEdit: true });
  return best === undefined ? "" : ` (did you mean ${best}?)`;
}

/** Node's parseArgs message, said the way every other message is. */
function explain(e: Error & { code?: string }, options: Options): string {
  const flags = Object.entries(options).flatMap(([name, o]) => [
    `--${name}`,
    ...(o.short ? [`-${o.short}`] : []),
  ]);
  const quoted = /'([^']+)'/.exec(e.message)?.[1] ?? "";
  switch (e.code) {
    case "ERR_PARSE_ARGS_UNKNOWN_OPTION":
      return `unknown option ${quoted}${suggestion(quoted, flags)}`;
    case "ERR_PARSE_ARGS_INVALID_OPTION_VALUE": {
      const flag = /(--?[\w-]+)/.exec(e.message)?.[1] ?? quoted;
      return options[flag.replace(/^-+/, "")]?.type === "boolean"
        ? `option ${flag} takes no value`
        : `option ${flag} needs a value`;
    }
    case "ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL":
      return `unexpected argument ${quoted}`;
    default:
      return e.message;
  }
}

/** `parseArgs` (strict) whose every complaint is a UsageError. */
export function parseCommandLine<T extends { options: Options; allowPositionals?: boolean }>(
  argv: string[],
  config: T,
): ReturnType<typeof parseArgs<T & { args: string[]; strict: true }>> {
  try {
    return parseArgs({ ...config, args: argv, strict: true });
  } catch (e) {
    const err = e as Error & { code?: string };
    if (typeof err.code === "string" && err.code.startsWith("ERR_PARSE_ARGS"))
      throw new UsageError(explain(err, config.options));
    throw e;
  }
}
