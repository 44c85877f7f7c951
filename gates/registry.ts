/**
 * The gate registry seen by the rest of skillgate: ids, and `runGate`, which runs one gate on one module: the
 * gate's collector probes it in a sandbox child, and the gate's judge (loaded here, in skillgate's process)
 * decides from what the child observed. A module that does not load never throws here: it is a failed result
 * with a `load` check.
 */
import { randomInt } from "node:crypto";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { ChildGone, runSandboxSession } from "../src/sandbox/index.js";
import type { SandboxFailure, SandboxOutcome } from "../src/sandbox/types.js";
import { calleeName, childSpec, GATE_CONTRACTS, GATE_RUN_COST_MS } from "./catalog.js";
import { GATE_IDS, type GateId, isGateId } from "./ids.js";
import { validateGateOptions } from "./options.js";
import type { GateCheck, GateJudge, GateOutput, GateResult, JudgeContext, ProbeSession } from "./types.js";

export type { GateCheck, GateResult };
export { GATE_IDS, isGateId };

/** Limits per gate run unless the caller sets them. Complexity times several sizes; the rest are quick. */
const DEFAULT_GATE_TIMEOUT_MS = 30_000;
const DEFAULT_GATE_MEMORY_MB = 512;

interface RunGateOptions {
  export?: string;
  options?: Record<string, unknown>;
  /** Seed of every randomised probe; a fresh one is drawn (and reported) when absent. */
  seed?: number;
  timeoutMs?: number;
  memoryMb?: number;
  /** Working directory of the child (default: the module's folder). */
  cwd?: string;
  /** The folder the module may import from (default: its own folder). */
  root?: string;
}

/** A 31-bit seed, the range fast-check replays. */
function freshSeed(): number {
  return randomInt(0, 2 ** 31 - 1);
}

function failed(
  gate: string,
  seed: number,
  check: GateCheck,
  metrics: Record<string, unknown> = {},
): GateResult {
  return { gate, passed: false, seed, checks: [check], metrics };
}

function failureCheck(
  failure: SandboxFailure,
  phase: "load" | "run" | undefined,
  message: string,
): GateCheck {
  return { id: phase === "run" ? `sandbox-${failure}` : "load", passed: false, message };
}

/** A judge's output as the result: no check at all is a failure too (nothing was verified). */
function toResult(gate: string, seed: number, out: GateOutput): GateResult {
  const checks = out.checks.length
    ? out.checks
    : [{ id: "probe", passed: false, message: "no check was run (nothing to probe)" }];
  return { gate, passed: checks.every((c) => c.passed === true), seed, checks, metrics: out.metrics ?? {} };
}

async function loadJudge(gate: GateId): Promise<GateJudge> {
  const { JUDGES } = await import("./judges.js");
  return JUDGES[gate];
}

/** Runs the judge for each seed; a judge that throws fails that seed's run with the reason. */
async function judgeSeeds(
  gate: GateId,
  judge: GateJudge,
  session: ProbeSession,
  base: Omit<JudgeContext, "seed">,
  seeds: readonly number[],
): Promise<GateResult[]> {
  const results: GateResult[] = [];
  for (const seed of seeds) {
    try {
      results.push(toResult(gate, seed, await judge.judge(session, { ...base, seed })));
    } catch (err) {
      if (err instanceof ChildGone) throw err;
      const { ObservationError } = await import("./judging.js");
      const check =
        err instanceof ObservationError
          ? { id: "observation", passed: false, message: err.message }
          : { id: "judge", passed: false, message: `could not judge: ${String(err)}` };
      results.push(failed(gate, seed, check));
    }
  }
  return results;
}

function readSource(path: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return "";
  }
}

export async function runGate(
  gate: string,
  modulePath: string,
  opts: RunGateOptions = {},
): Promise<GateResult> {
  const seed = opts.seed ?? freshSeed();
  return (await runGateSeeds(gate, modulePath, [seed], opts))[0] as GateResult;
}

/** One gate on one module for several seeds, in a single sandbox child (tests and benches). */
export async function runGateSeeds(
  gate: string,
  modulePath: string,
  seeds: number[],
  opts: Omit<RunGateOptions, "seed"> = {},
): Promise<GateResult[]> {
  if (!isGateId(gate)) {
    const check = {
      id: "gate",
      passed: false,
      message: `unknown gate '${gate}' (known: ${GATE_IDS.join(", ")})`,
    };
    return seeds.map((s) => failed(gate, s, check));
  }
  const options = opts.options ?? {};
  const problems = validateGateOptions(gate, options);
  if (problems.length) {
    const check = {
      id: "options",
      passed: false,
      message: problems.map((p) => `${p.path}: ${p.message}`).join("; "),
    };
    return seeds.map((s) => failed(gate, s, check));
  }
  const judge = await loadJudge(gate);
  const absPath = resolve(opts.cwd ?? process.cwd(), modulePath);
  const contract = GATE_CONTRACTS[gate];
  const limits = { timeoutMs: opts.timeoutMs, memoryMb: opts.memoryMb };
  const base = { options, modulePath: absPath, sourceText: readSource(absPath), limits };
  if (contract.fileInput?.test(absPath)) {
    // Read as a file here: the untrusted text is data, nothing of it runs in skillgate's process.
    const { NO_CHILD } = await import("./judging.js");
    return judgeSeeds(gate, judge, NO_CHILD, { ...base, callee: contract.placeholder }, seeds);
  }
  const timeoutMs = opts.timeoutMs ?? DEFAULT_GATE_TIMEOUT_MS * (seeds.length > 1 ? 4 : 1);
  const outcome: SandboxOutcome<GateResult[]> = await runSandboxSession(
    { kind: "gate", gate, module: modulePath, export: opts.export, options, child: childSpec(gate) },
    { timeoutMs, memoryMb: opts.memoryMb ?? DEFAULT_GATE_MEMORY_MB },
    { cwd: opts.cwd, root: opts.root, priority: GATE_RUN_COST_MS[gate] * seeds.length },
    async (child) => {
      const info = await child.loaded;
      const { probeSession } = await import("./judging.js");
      const callee = calleeName(gate, info.export, info.fnName);
      return judgeSeeds(gate, judge, probeSession(child, judge), { ...base, callee }, seeds);
    },
  );
  if (outcome.ok) return outcome.value;
  const check = failureCheck(outcome.failure, outcome.phase, outcome.message);
  const metrics = {
    failure: outcome.failure,
    ...(outcome.stderr ? { stderr: outcome.stderr.slice(-2000) } : {}),
  };
  return seeds.map((s) => failed(gate, s, check, metrics));
}
