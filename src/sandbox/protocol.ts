/**
 * How the parent and the sandbox child talk.
 *
 * stdin (parent → child): `MAC_KEY_BYTES` raw random bytes (the key that signs the child's answers; read into
 * a byte array before any untrusted code runs, never turned into a string), then the envelope as one JSON
 * line, then, for gate tasks, one probe request per line (`ProbeRequest`); the parent closes stdin when it has
 * judged everything, and the child exits.
 *
 * fd 3 (child → parent): one answer per line, `<hex HMAC-SHA256 of the JSON> <JSON>`. The parent drops the
 * whole run as tampered when a line does not verify: only the child knows the key, so a line the module
 * wrote on fd 3 can only fail the run, never pass it.
 */
import type { SandboxTask } from "./types.js";

export { MAC_KEY_BYTES } from "./mac.js";

export interface ChildEnvelope {
  task: SandboxTask;
  /** Absolute path of the module as given (error messages). */
  modulePath: string;
  /** Compiled JS to load; absent when the gate reads the file itself (e.g. `.css`). */
  compiled?: { file: string; format: "cjs" | "esm" };
  assets: { sqlWasm: string };
}

/** One batch of probes for the gate's collector. */
export interface ProbeRequest {
  id: number;
  probes: unknown[];
}

/** The collector's answer to one probe: its observation, or why our own collecting code failed. */
export type ProbeAnswer = { ok: true; obs: unknown } | { ok: false; error: string };

export type ChildMessage =
  /** The module loaded and the export was found (`fnName`: the function's own name). */
  | { type: "loaded"; export?: string; fnName?: string }
  | { type: "observed"; id: number; answers: ProbeAnswer[] }
  /** A predicate's value. */
  | { type: "result"; value: unknown }
  | { type: "failed"; failure: "load" | "crash"; message: string };

/** fd of the result channel in the child. */
export const RESULT_FD = 3;
