/** `ActionIO`: what the action needs of `@actions/core` (inputs, outputs, state, log, summary) behind one interface. */
import * as core from "@actions/core";
import type { Logger } from "../model/settings.js";
import { progressLine } from "../run/progress.js";
import { logSafe } from "../util/log-text.js";
import { credentialsOfEnvironment, encodingsOf, outputRedactor } from "../util/redact.js";
import type { CommandAnnotation } from "./workflow-commands.js";

/** The runner-facing side effects of the action, behind one small interface (tests record them). */
export interface ActionIO {
  /** Input value as the runner passes it (`INPUT_<NAME>`), trimmed; "" when unset. */
  getInput(name: string): string;
  setOutput(name: string, value: string): void;
  /** Appends Markdown to the job summary (no-op without `GITHUB_STEP_SUMMARY`). */
  appendSummary(markdown: string): Promise<void>;
  /** A workflow-command annotation (`::error file=…::`). */
  annotate(a: CommandAnnotation): void;
  /** A plain log line. */
  info(line: string): void;
  debug(line: string): void;
  group<T>(name: string, fn: () => Promise<T>): Promise<T>;
  /** State handed from the main step to the `post:` step (`GITHUB_STATE` / `STATE_<name>`). */
  saveState(name: string, value: string): void;
  getState(name: string): string;
}

const ANNOTATE = { error: core.error, warning: core.warning, notice: core.notice };

/**
 * The real runner, through `@actions/core` (escaping, file commands and output delimiters are its job; plain log
 * lines are made safe here, `logSafe`). Every
 * line, output, annotation and summary passes the redactor, and every form of every secret is also registered
 * with the runner (`::add-mask::`), so its own log masking covers what skillgate did not print itself.
 */
export function coreActionIO(): ActionIO {
  const redactor = outputRedactor();
  for (const secret of credentialsOfEnvironment())
    for (const form of encodingsOf(secret)) core.setSecret(form);
  const r = (s: string) => redactor.redact(s);
  return {
    getInput: (name) => core.getInput(name),
    setOutput: (name, value) => core.setOutput(name, r(value)),
    appendSummary: async (markdown) => {
      if (!process.env.GITHUB_STEP_SUMMARY) return;
      await core.summary.addRaw(r(markdown), true).write();
    },
    annotate: (a) =>
      ANNOTATE[a.level](r(a.message), { file: a.file, startLine: a.line, title: a.title && r(a.title) }),
    // A plain line is printed as is by core: names and answers in it could start a runner command (log-text.ts).
    info: (line) => core.info(logSafe(r(line))),
    debug: (line) => core.debug(r(line)),
    group: (name, fn) => core.group(r(name), fn),
    saveState: (name, value) => core.saveState(name, value),
    getState: (name) => core.getState(name),
  };
}

/**
 * The pipeline's Logger on top of ActionIO. Warnings are plain log lines, not `::warning::` commands: those are
 * capped at 10 per step and are kept for the roots.
 */
export function actionLogger(io: ActionIO): Logger {
  let lastProgress = 0;
  let lastLabel: string | undefined;
  let lastDone = 0;
  return {
    info: (m) => io.info(m),
    warn: (m) => io.info(`warning: ${m}`),
    error: (m) => io.info(`error: ${m}`),
    debug: (m) => io.debug(m),
    group: (name, fn) => io.group(name, fn),
    progress: (p) => {
      // One line per 10 % keeps the log readable; each batch (first batch, confirmation rounds) starts anew.
      const step = Math.floor((p.done / Math.max(1, p.total)) * 10);
      if (p.label !== lastLabel || p.done < lastDone) lastProgress = -1;
      lastLabel = p.label;
      lastDone = p.done;
      if (step > lastProgress || p.done === p.total) {
        lastProgress = step;
        io.info(`progress: ${progressLine(p)}`);
      }
    },
  };
}
