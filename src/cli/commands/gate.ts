/**
 * `skillgate gate <gate-id> <module> [--export NAME] [--options JSON] [--seed N] [--json] [--timeout MS]
 *  [--memory MB]` — runs one deterministic gate on one module in the sandbox.
 * Exit 0 pass, 1 fail (a module that does not load or lacks the export fails), 2 usage error.
 */
import { existsSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { validateGateOptions } from "../../../gates/options.js";
import { GATE_IDS, isGateId, runGate } from "../../../gates/registry.js";
import type { CliIO } from "../io.js";
import { parseCommandLine, suggestion, UsageError } from "../usage.js";

/** The documented default: a gate run is replayable from its command line alone. */
const DEFAULT_GATE_SEED = 42;

export const GATE_USAGE = `Usage: skillgate gate <gate-id> <module> [options]

Runs one deterministic gate on the module an agent wrote, in the sandbox; prints each check.

  --export NAME     the function to test (default: the name the gate expects, e.g. allocate for conservation)
  --options JSON    the gate's options, a JSON object
  --seed N          seed of the property-based probes (default ${DEFAULT_GATE_SEED}); printed with a replay line
  --timeout MS      time limit of the sandboxed run
  --memory MB       memory limit of the sandboxed run
  --json            print the result as JSON

Gates: ${GATE_IDS.join(", ")}
Exit codes: 0 pass, 1 fail, 2 usage error.`;

function integer(raw: string | undefined, name: string, max: number): number | undefined {
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(n) || n > max)
    throw new UsageError(`--${name} must be an integer from 0 to ${max} (got '${raw}')`);
  return n;
}

export async function gateCommand(argv: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseCommandLine(argv, {
    allowPositionals: true,
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
  if (values.help) {
    io.stdout(`${GATE_USAGE}\n`);
    return 0;
  }
  const [gate, modulePath, ...extra] = positionals;
  if (!gate || !modulePath) throw new UsageError("expected a gate id and a module path");
  if (extra.length) throw new UsageError(`unexpected argument '${extra[0]}'`);
  if (!isGateId(gate)) throw new UsageError(`unknown gate '${gate}'${suggestion(gate, GATE_IDS)}`);
  const file = resolve(modulePath);
  if (!existsSync(file) || !statSync(file).isFile())
    throw new UsageError(`module ${modulePath}: no such file (${file})`);
  let options: Record<string, unknown> | undefined;
  if (values.options !== undefined) {
    try {
      options = JSON.parse(values.options) as Record<string, unknown>;
    } catch (err) {
      throw new UsageError(`--options is not valid JSON: ${(err as Error).message}`);
    }
    if (options === null || typeof options !== "object" || Array.isArray(options))
      throw new UsageError("--options must be a JSON object");
    // Checked against the gate's own schema before anything runs.
    const problems = validateGateOptions(gate, options);
    if (problems.length)
      throw new UsageError(
        `--options for gate ${gate}: ${problems.map((p) => `${p.path || "(options)"}: ${p.message}`).join("; ")}`,
      );
  }
  const seed = integer(values.seed, "seed", 2 ** 31 - 1) ?? DEFAULT_GATE_SEED;
  const timeoutMs = integer(values.timeout, "timeout", 3_600_000);
  const memoryMb = integer(values.memory, "memory", 65_536);

  const result = await runGate(gate, modulePath, {
    export: values.export,
    options,
    seed,
    timeoutMs,
    memoryMb,
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
