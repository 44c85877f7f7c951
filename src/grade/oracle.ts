/**
 * Suite variables: `meta.json` `vars` merged with the JSON object the suite's `oracle` command prints. The oracle
 * runs sandboxed in the suite folder; a non-zero exit, a timeout or anything but one JSON object on stdout is an
 * error (reported with the oracle's location), never an empty set of variables that lets assertions pass.
 */
import path from "node:path";
import type { Suite } from "../model/suite.js";
import { type GradeServices, ORACLE_MEMORY_MB, ORACLE_TIMEOUT_MS } from "./ports.js";
import { defaultServices } from "./services.js";

const MAX_STDERR_SHOWN = 500;

export async function resolveVars(
  suite: Suite,
  repoDir: string,
  services: GradeServices = defaultServices,
): Promise<{ vars: Record<string, unknown>; error?: string }> {
  const vars = { ...suite.meta.vars };
  const oracle = suite.meta.oracle;
  if (!oracle) return { vars };
  const at = `${oracle.loc.file}:${oracle.loc.line}:${oracle.loc.column}`;
  let res: Awaited<ReturnType<GradeServices["runCommand"]>>;
  try {
    res = await services.runCommand(oracle.command, {
      cwd: path.resolve(repoDir, suite.root),
      timeoutMs: oracle.timeoutMs ?? ORACLE_TIMEOUT_MS,
      memoryMb: ORACLE_MEMORY_MB,
    });
  } catch (e) {
    return {
      vars,
      error: `${at}: oracle ${JSON.stringify(oracle.command)} could not run: ${(e as Error).message}`,
    };
  }
  if (!res.ok) {
    const why =
      res.failure === "timeout"
        ? "timed out"
        : `failed (exit ${res.exitCode ?? "none"}${res.failure ? `, ${res.failure}` : ""})`;
    const stderr = res.stderr.trim().slice(0, MAX_STDERR_SHOWN);
    return {
      vars,
      error: `${at}: oracle ${JSON.stringify(oracle.command)} ${why}${stderr ? `: ${stderr}` : ""}`,
    };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(res.stdout);
  } catch {
    return {
      vars,
      error: `${at}: oracle ${JSON.stringify(oracle.command)} printed no JSON object on stdout (got ${JSON.stringify(res.stdout.slice(0, 200))})`,
    };
  }
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) {
    return {
      vars,
      error: `${at}: oracle ${JSON.stringify(oracle.command)} must print one JSON object of variables`,
    };
  }
  return { vars: { ...vars, ...(parsed as Record<string, unknown>) } };
}
