import type { Verdict } from "../model/index.js";

/** Exit codes of DESIGN.md § Outputs. */
export const EXIT = { pass: 0, fail: 1, usage: 2, error: 3 } as const;

export function exitCodeFor(verdict: Verdict): number {
  return verdict === "pass" ? EXIT.pass : verdict === "fail" ? EXIT.fail : EXIT.error;
}
