/** What the parent sends the sandbox child on stdin, and what the child answers on its private fd 3. */
import type { SandboxTask } from "./types.js";

export interface ChildEnvelope {
  /**
   * Random per run. The child reads it from stdin before any untrusted code runs and prefixes every answer
   * with it, so a module writing to fd 3 cannot forge a result.
   */
  nonce: string;
  task: SandboxTask;
  /** Absolute path of the module as given (static checks, error messages). */
  modulePath: string;
  /** Compiled JS to load; absent when the gate reads the file itself (e.g. `.css`). */
  compiled?: { file: string; format: "cjs" | "esm" };
  assets: { sqlWasm: string };
}

export type ChildMessage =
  | { type: "loaded" }
  | { type: "result"; ok: true; value: unknown }
  | { type: "result"; ok: false; failure: "load" | "crash"; message: string };

/** fd of the result channel in the child. */
export const RESULT_FD = 3;
