import type { Logger } from "../model/index.js";
import { progressLine } from "../run/progress.js";
import { logSafe } from "../util/log-text.js";
import { redactOutput } from "../util/redact.js";

/** The CLI's logger: messages on stderr; progress redraws one line on a terminal, prints sparse lines otherwise. */
export function cliLogger(
  opts: { quiet?: boolean; verbose?: boolean; stream?: NodeJS.WriteStream } = {},
): Logger {
  const out = opts.stream ?? process.stderr;
  const tty = Boolean(out.isTTY);
  let progressShown = false;
  let lastPrinted = 0;
  const clear = () => {
    if (tty && progressShown) {
      out.write("\r\u001b[K");
      progressShown = false;
    }
  };
  const line = (s: string) => {
    clear();
    out.write(`${logSafe(redactOutput(s))}\n`);
  };
  return {
    info: (m) => !opts.quiet && line(m),
    warn: (m) => line(`warning: ${m}`),
    error: (m) => line(`error: ${m}`),
    debug: (m) => opts.verbose && line(m),
    group: async (_name, fn) => fn(),
    progress(p) {
      if (opts.quiet) return;
      const text = logSafe(redactOutput(progressLine(p)));
      if (tty) {
        out.write(`\r\u001b[K${text}`);
        progressShown = p.done < p.total;
        if (!progressShown) out.write("\n");
      } else if (p.done === p.total || Date.now() - lastPrinted > 5000) {
        lastPrinted = Date.now();
        out.write(`${text}\n`);
      }
    },
  };
}
