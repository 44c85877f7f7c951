/** Contract of the sandbox for untrusted code (agent-written modules, javascript assertions, oracles). */

/**
 * What a gate's child needs before the module loads, given by the gate as data (gates/catalog.ts `childSpec`):
 * the sandbox knows no gate, it serves whichever collector its child file was built with.
 */
export interface GateChildSpec {
  /** V8 flags set in the child before the collector and the module load (`v8.setFlagsFromString`). */
  v8Flags: readonly string[];
  /** Whether the child `--require`s the gate's preload (`preload-<id>.cjs`) before the built-ins freeze. */
  preload: boolean;
  /** Export names tried in order when no export is named (then the default export, then a lone function). */
  defaultExports: readonly string[];
}

/** Child side: what a collector probes, an export of the module or (for gates reading files) its text. */
export type GateInput =
  | {
      kind: "export";
      name: string;
      value: unknown;
      /** All exports (e.g. a custom input builder). */
      module: Record<string, unknown>;
    }
  | { kind: "file"; path: string; text: string };

export interface CollectContext {
  options: Record<string, unknown>;
  modulePath: string;
  assets: { sqlWasm: string };
}

/** Child side: runs one probe (as sent by the judge) and returns its observation (JSON-serialisable). */
export type ProbeRunner = (probe: unknown) => unknown;

/** Child side: a gate's collector, the one piece of a gate the child runs (`gates/<id>/probe.ts`). */
export interface ChildCollector {
  id: string;
  /**
   * Optional: start slow set-up that does not depend on the module (e.g. compiling a WebAssembly database)
   * while the child loads the module; called before any untrusted code runs. Must not throw.
   */
  prepare?(ctx: Pick<CollectContext, "assets" | "options">): void;
  /** Called once the module is loaded; returns the probe runner (which may be async). */
  start(input: GateInput, ctx: CollectContext): ProbeRunner | Promise<ProbeRunner>;
}

/** What to run inside the sandboxed child process. */
export type SandboxTask =
  /** Serve one gate's probes on a module (the parent judges; see gates/types.ts). */
  | {
      kind: "gate";
      gate: string;
      module: string;
      export?: string;
      options?: Record<string, unknown>;
      child: GateChildSpec;
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
