import type { GateInput, GateOutput } from "../types.js";

/** The probed export as a function, or the failed output that says why it is not one. */
export function functionExport<F>(input: GateInput): { fn: F } | { failed: GateOutput } {
  if (input.kind === "export" && typeof input.value === "function") return { fn: input.value as F };
  const what =
    input.kind === "export" ? `export '${input.name}' is ${typeof input.value}` : `${input.path} is not code`;
  return { failed: { checks: [{ id: "export", passed: false, message: `${what}, not a function` }] } };
}
