/** Contract shared by the eight deterministic gates (run inside the sandbox child). */

export interface GateCheck {
  id: string;
  passed: boolean;
  message: string;
}

/** What `skillgate gate … --json` prints and `runGate` returns. */
export interface GateResult {
  gate: string;
  passed: boolean;
  seed: number;
  checks: GateCheck[];
  metrics: Record<string, unknown>;
}

/** What a gate probes: an export of the module, or (for gates that read files, e.g. `.css`) its text. */
export type GateInput =
  | {
      kind: "export";
      name: string;
      value: unknown /** All exports (e.g. a custom input builder). */;
      module: Record<string, unknown>;
    }
  | { kind: "file"; path: string; text: string };

export interface GateContext {
  seed: number;
  options: Record<string, unknown>;
  /** Absolute path of the module as given (its source feeds static checks). */
  modulePath: string;
  /** Source text of the module as given. */
  sourceText: string;
  assets: { sqlWasm: string };
}

export interface GateOutput {
  checks: GateCheck[];
  metrics?: Record<string, unknown>;
}

export interface Gate {
  id: string;
  /** Export names tried in order when `--export` is not given (then the default export, then a lone function). */
  defaultExports: readonly string[];
  /** Files this gate reads as text instead of loading as code (e.g. `/\.css$/i` for contrast). */
  fileInput?: RegExp;
  /**
   * Optional: start slow set-up that does not depend on the module (e.g. compiling a WebAssembly database)
   * while the child loads the module; called before any untrusted code runs. Must not throw.
   */
  prepare?(ctx: Pick<GateContext, "assets" | "options">): void;
  run(input: GateInput, ctx: GateContext): Promise<GateOutput>;
}
