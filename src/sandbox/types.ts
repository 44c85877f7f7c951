/** Contract of the sandbox for untrusted code (agent-written modules, javascript assertions, oracles). */

/** What to run inside the sandboxed child process. */
export type SandboxTask =
  /** Serve one gate's probes on a module (the parent judges; see gates/types.ts). */
  | {
      kind: "gate";
      gate: string;
      module: string;
      export?: string;
      options?: Record<string, unknown>;
    }
  /** `javascript` assertion: call the module's export (default export if unset) with `args`; JSON-serialisable result. */
  | { kind: "predicate"; module: string; export?: string; args: unknown[] };

export interface SandboxLimits {
  timeoutMs: number;
  memoryMb: number;
}

/** `tamper`: the result channel carried a line the child did not sign. */
export type SandboxFailure = "timeout" | "memory" | "exit" | "crash" | "load" | "tamper";

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
