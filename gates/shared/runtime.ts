/**
 * Asynchronous errors the probed module raises outside our awaits (a rejected promise nobody handles, a throw
 * inside a timer). In production they would crash the process; in the sandbox we record them so a gate can
 * report them as a failure instead of the whole child dying without a verdict.
 */
const MAX_RECORDED = 20;

class RuntimeEvents {
  unhandledRejections: string[] = [];
  uncaughtExceptions: string[] = [];
  private installed = false;

  install(): void {
    if (this.installed) return;
    this.installed = true;
    process.on("unhandledRejection", (reason) => {
      if (this.unhandledRejections.length < MAX_RECORDED) this.unhandledRejections.push(describe(reason));
    });
    process.on("uncaughtException", (err) => {
      if (this.uncaughtExceptions.length < MAX_RECORDED) this.uncaughtExceptions.push(describe(err));
    });
  }

  reset(): void {
    this.unhandledRejections = [];
    this.uncaughtExceptions = [];
  }
}

export function describe(err: unknown): string {
  try {
    if (err instanceof Error) return `${err.name}: ${err.message}`;
    return String(err);
  } catch {
    return "an unprintable value";
  }
}

export const runtimeEvents = new RuntimeEvents();
