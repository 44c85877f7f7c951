/**
 * `skillgate gate <gate-id> <module> [--export NAME] [--options JSON] [--seed N] [--json]
 *  [--timeout MS] [--memory MB]` — runs one deterministic gate on one module in the sandbox.
 * Exit 0 pass, 1 fail (a module that does not load or lacks the export fails), 2 usage error.
 */
import { parseArgs } from "node:util";
import { validateGateOptions } from "../../../gates/options.js";
import { GATE_IDS, isGateId, runGate } from "../../../gates/registry.js";

export interface CommandIo {
  stdout: (s: string) => void;
  stderr: (s: string) => void;
}

export const GATE_USAGE = `usage: skillgate gate <gate-id> <module> [--export NAME] [--options JSON] [--seed N] [--json] [--timeout MS] [--memory MB]
gates: ${GATE_IDS.join(", ")}`;

function usage(io: CommandIo, message: string): number {
  io.stderr(`skillgate gate: ${message.split("\n")[0]}\n${GATE_USAGE}\n`);
  return 2;
}

function positiveInt(raw: string | undefined, name: string, max: number): number | string | undefined {
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(n) || n > max)
    return `--${name} must be an integer from 0 to ${max} (got '${raw}')`;
  return n;
}

export async function gateCommand(argv: string[], io: CommandIo): Promise<number> {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (err) {
    return usage(io, (err as Error).message);
  }
  const { values, positionals } = parsed;
  if (values.help) {
    io.stdout(`${GATE_USAGE}\n`);
    return 0;
  }
  const [gate, modulePath, ...extra] = positionals;
  if (!gate || !modulePath) return usage(io, "expected a gate id and a module path");
  if (extra.length) return usage(io, `unexpected argument '${extra[0]}'`);
  if (!isGateId(gate)) return usage(io, `unknown gate '${gate}'`);
  let options: Record<string, unknown> | undefined;
  if (values.options !== undefined) {
    try {
      options = JSON.parse(values.options) as Record<string, unknown>;
    } catch (err) {
      return usage(io, `--options is not valid JSON: ${(err as Error).message}`);
    }
    if (options === null || typeof options !== "object" || Array.isArray(options))
      return usage(io, "--options must be a JSON object");
    // Checked against the gate's own schema before anything runs.
    const problems = validateGateOptions(gate, options);
    if (problems.length)
      return usage(
        io,
        `--options for gate ${gate}: ${problems.map((p) => `${p.path || "(options)"}: ${p.message}`).join("; ")}`,
      );
  }
  const seed = positiveInt(values.seed, "seed", 2 ** 31 - 1);
  const timeoutMs = positiveInt(values.timeout, "timeout", 3_600_000);
  const memoryMb = positiveInt(values.memory, "memory", 65_536);
  for (const v of [seed, timeoutMs, memoryMb]) if (typeof v === "string") return usage(io, v);

  const result = await runGate(gate, modulePath, {
    export: values.export,
    options,
    seed: seed as number | undefined,
    timeoutMs: timeoutMs as number | undefined,
    memoryMb: memoryMb as number | undefined,
  });
  if (values.json) io.stdout(`${JSON.stringify(result, null, 2)}\n`);
  else {
    io.stdout(`${result.passed ? "PASS" : "FAIL"} ${result.gate} ${modulePath} (seed ${result.seed})\n`);
    for (const c of result.checks) io.stdout(`  ${c.passed ? "✓" : "✗"} ${c.id}: ${c.message}\n`);
    if (!result.passed)
      io.stdout(
        `replay: skillgate gate ${gate} ${modulePath} --seed ${result.seed}${values.export ? ` --export ${values.export}` : ""}${values.options ? ` --options '${values.options}'` : ""}\n`,
      );
  }
  return result.passed ? 0 : 1;
}

function parse(argv: string[]) {
  return parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      export: { type: "string" },
      options: { type: "string" },
      seed: { type: "string" },
      json: { type: "boolean" },
      timeout: { type: "string" },
      memory: { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  });
}
