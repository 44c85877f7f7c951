/**
 * Suite variables: `meta.json` `vars` merged with the JSON object the suite's `oracle` command prints. The oracle
 * runs sandboxed in the suite folder; a non-zero exit, a timeout or anything but one JSON object on stdout is an
 * error (reported with the oracle's location), never an empty set of variables that lets assertions pass.
 */
import path from "node:path";
import type { OracleSpec, Suite } from "../model/suite.js";
import { type GradeServices, ORACLE_MEMORY_MB, ORACLE_TIMEOUT_MS } from "./ports.js";
import { defaultServices } from "./services.js";

const MAX_STDERR_SHOWN = 500;

export async function resolveVars(
  suite: Suite,
  repoDir: string,
  services: GradeServices = defaultServices,
): Promise<{ vars: Record<string, unknown>; error?: string }> {
  const vars = { ...suite.meta.vars };
  if (!suite.meta.oracle) return { vars };
  const out = await runOracle(suite.meta.oracle, path.resolve(repoDir, suite.root), services);
  return out.error !== undefined ? { vars, error: out.error } : { vars: { ...vars, ...out.vars } };
}

/**
 * Per-case oracles (`oracle:` in a case file): each case's variables, by case id, and one located error per oracle
 * that failed. A case whose oracle failed has no entry: its placeholders then stay unresolved (error checks).
 */
export async function resolveCaseVars(
  suite: Suite,
  repoDir: string,
  services: GradeServices = defaultServices,
): Promise<{ vars: Map<string, Record<string, unknown>>; errors: string[] }> {
  const vars = new Map<string, Record<string, unknown>>();
  const errors: string[] = [];
  for (const c of suite.cases) {
    if (!c.oracle) continue;
    const out = await runOracle(c.oracle, path.resolve(repoDir, suite.root), services);
    if (out.error !== undefined) errors.push(`case ${c.id}: ${out.error}`);
    else vars.set(c.id, out.vars);
  }
  return { vars, errors };
}

/** Runs one oracle sandboxed in `cwd`; its stdout must be one JSON object of variables. */
async function runOracle(
  oracle: OracleSpec,
  cwd: string,
  services: GradeServices,
): Promise<{ vars: Record<string, unknown>; error?: undefined } | { error: string }> {
  const at = `${oracle.loc.file}:${oracle.loc.line}:${oracle.loc.column}`;
  const said = `oracle ${JSON.stringify(oracle.command)}`;
  let res: Awaited<ReturnType<GradeServices["runCommand"]>>;
  try {
    res = await services.runCommand(oracle.command, {
      cwd,
      timeoutMs: oracle.timeoutMs ?? ORACLE_TIMEOUT_MS,
      memoryMb: ORACLE_MEMORY_MB,
    });
  } catch (e) {
    return { error: `${at}: ${said} could not run: ${(e as Error).message}` };
  }
  if (!res.ok) {
    const why =
      res.failure === "timeout"
        ? "timed out"
        : `failed (exit ${res.exitCode ?? "none"}${res.failure ? `, ${res.failure}` : ""})`;
    const stderr = res.stderr.trim().slice(0, MAX_STDERR_SHOWN);
    return { error: `${at}: ${said} ${why}${stderr ? `: ${stderr}` : ""}` };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(res.stdout);
  } catch {
    return {
      error: `${at}: ${said} printed no JSON object on stdout (got ${JSON.stringify(res.stdout.slice(0, 200))})`,
    };
  }
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed))
    return { error: `${at}: ${said} must print one JSON object of variables` };
  return { vars: parsed as Record<string, unknown> };
}
