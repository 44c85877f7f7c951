/**
 * The runner's cancellation (SIGINT, then SIGTERM 7.5 s later) while the main step runs: the open check run is
 * completed at once (interruption.ts says as what), so a required check never stays pending.
 */
import type { Verdict } from "../model/report.js";
import type { SignalSource } from "./action-deps.js";
import type { CheckRun } from "./check-run.js";
import { httpStatus } from "./client.js";
import { interruptedConclusion, interruptedOutput, STATE } from "./interruption.js";
import type { ActionIO } from "./io.js";

/** How far the run got: what an interruption leaves the check run as. */
export interface RunProgress {
  verdict?: Verdict;
  completed: boolean;
  /** A signal arrived: its handler owns the check run and the exit from here on. */
  interrupted?: NodeJS.Signals;
}

/** Exit codes of a step ended by a signal, as a shell reports them (128 + the signal's number). */
export const SIGNAL_EXIT: Record<string, number> = { SIGINT: 130, SIGTERM: 143 };

interface SignalWatch {
  io: ActionIO;
  check: CheckRun | undefined;
  progress: RunProgress;
  startedAt: Date;
  /** Settles once the check run was created (or not): a signal that arrives meanwhile waits for it. */
  started: Promise<unknown>;
  timeoutMinutes: () => number;
  runUrl?: string;
  signals?: SignalSource;
  exit?(code: number): void;
  now?(): Date;
}

/**
 * Completes the open check run when the runner cancels the step: `cancelled`, or `timed_out` when the job ran
 * about as long as its timeout-minutes, or the verdict already reached. Returns the function that stops
 * watching. A second signal while the first is handled changes nothing.
 */
export function watchSignals(w: SignalWatch): () => void {
  const signals = w.signals ?? process;
  const exit = w.exit ?? ((code: number) => process.exit(code));
  let handling = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (handling) return;
    handling = true;
    w.progress.interrupted = signal;
    w.io.info(`skillgate: ${signal} received: the job is being cancelled or ran out of time`);
    void concludeInterrupted(w, signal).finally(() => exit(SIGNAL_EXIT[signal] ?? 1));
  };
  signals.on("SIGINT", onSignal);
  signals.on("SIGTERM", onSignal);
  return () => {
    signals.off("SIGINT", onSignal);
    signals.off("SIGTERM", onSignal);
  };
}

/** The check run completed as the interruption leaves it (nothing when none is open or it was completed). */
async function concludeInterrupted(w: SignalWatch, signal: NodeJS.Signals): Promise<void> {
  const now = w.now ?? (() => new Date());
  await w.started.catch(() => {});
  const check = w.check;
  if (check?.id === undefined || w.progress.completed) return;
  const timeoutMinutes = w.timeoutMinutes();
  const output = interruptedOutput({
    conclusion: interruptedConclusion({ startedAt: w.startedAt, now: now(), timeoutMinutes }),
    reason: `the step received ${signal}`,
    verdict: w.progress.verdict,
    timeoutMinutes,
    runUrl: w.runUrl,
  });
  try {
    await check.conclude(output, now());
    w.io.saveState(STATE.completed, "true");
    w.io.info(`check run ${check.id} completed: ${output.conclusion}`);
  } catch (e) {
    w.io.info(
      `warning: could not complete the check run (${httpStatus(e) ?? "network"}); the post step will try again`,
    );
  }
}
