/** Contract of the sandbox for untrusted code (agent-written modules, javascript assertions, oracles). */

/** What to run inside the sandboxed child process. */
export type SandboxTask =
  /** Run one gate on a module. */
  | {
      kind: "gate";
      gate: string;
      module: string;
      export?: string;
      options?: Record<string, unknown>;
      seed?: number;
    }
  /** `javascript` assertion: call the module's export (default export if unset) with `args`; JSON-serialisable result. */
  | { kind: "predicate"; module: string; export?: string; args: unknown[] }
  /** One gate on one module for several seeds in one child (tests, benches): the value is one GateResult per seed. */
  | {
      kind: "gate-batch";
      gate: string;
      module: string;
      export?: string;
      options?: Record<string, unknown>;
      seeds: number[];
    };

export interface SandboxLimits {
  timeoutMs: number;
  memoryMb: number;
}

export type SandboxFailure = "timeout" | "memory" | "exit" | "crash" | "load";

export type SandboxOutcome<T = unknown> =
  | { ok: true; value: T; stderr: string }
  | {
      ok: false;
      failure: SandboxFailure;
      message: string;
      stderr: string;
      /** Whether it failed while loading the module (import, top-level code, export lookup) or afterwards. */
      phase?: "load" | "run";
    };

export interface CommandOutcome {
  ok: boolean;
  exitCode: number | null;
  stdout: string;
  stderr: string;
  failure?: SandboxFailure;
  message?: string;
}
