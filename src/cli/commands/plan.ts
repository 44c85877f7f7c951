import { mkdir, writeFile } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { UsageError } from "../../model/diagnostics.js";
import { forecastPipeline } from "../../pipeline.js";
import { renderForecast } from "../../plan/forecast.js";
import { shardCount, shardMatrix } from "../../plan/shard.js";
import { EXIT } from "../../report/exit-codes.js";
import { noiseLines } from "../../report/noise-text.js";
import { resolveSettings } from "../../settings/resolve.js";
import {
  CASE_DROP,
  type PowerFigure,
  type PowerShape,
  QUERY_DROP,
  simulatePower,
} from "../../verdict/power.js";
import type { CliIO } from "../io.js";
import { cliLogger } from "../logger.js";
import { parseCommandLine } from "../usage.js";
import { RUN_OPTIONS } from "./run.js";

export const PLAN_USAGE = `Usage: skillgate plan [options]

Says what \`skillgate run\` with the same options would run and spend, without running any trial: per skill and
battery the trials of the first batch, the cache hits expected, the agent calls and their estimated cost (from the
usage recorded by earlier runs of the same agent), the confirmation allowance and the budget.

  --repo DIR          repository (head) to evaluate (default .)
  --base REF          compare with this git ref
  --base-dir DIR      compare with the base checked out in DIR
  --skills GLOB       only skills whose name or path matches
  --agent NAME        agent adapter
  --model NAME        the agent's model (agent.model), e.g. claude-sonnet-4-5 for --agent anthropic
  --trials N          trials per case and mode (overrides meta.json)
  --shard I/N         only shard I of N
  --seed N            seed of the run (default 42); recorded in the JSON forecast
  --no-cache          expect no cache hits
  --config FILE       configuration file, a path from --repo (default .skillgate.yml); one outside the
                      repository is the operator's own, and its relative command paths resolve from its folder
  --allow-weakening   as run: the operator accepts a weakened suite or policy
  --json FILE         write the forecast as JSON (seed, scope, forecast)
  --matrix FILE       write the job matrix this run needs as JSON ({"shard": ["1/n", …]}): enough shards that
                      each one's first batch takes about --rounds rounds of agent calls (default 4)
  --rounds N          rounds of agent calls per shard's first batch for --matrix
  --cell NAMES        with an agents: matrix, forecast the first of these cells (comma separated)
  --noise             also grade the default branch's stored trials (answers the trial cache holds; no agent
                      call) and print each skill's noise floor: flaky cases and queries, and those too flaky
                      to gate at this budget
  --junit FILE, --sarif FILE, --html FILE, --markdown FILE, --record DIR
                      accepted so that a run's command line plans unchanged: a plan runs no trial, so it writes
                      none of them
  --quiet, --verbose, --no-color
                      --verbose also prints the pipeline's own lines; the forecast has no colour

Exit codes: 0 within budget, 3 the first trials alone would exceed the budget (run would stop before spending),
2 usage or configuration error.`;

export async function planCommand(argv: string[], io: CliIO): Promise<number> {
  const { values } = parseCommandLine(argv, {
    options: {
      ...RUN_OPTIONS,
      matrix: { type: "string" },
      rounds: { type: "string" },
      noise: { type: "boolean" },
    },
  });
  if (values.help) {
    io.stdout(`${PLAN_USAGE}\n`);
    return EXIT.pass;
  }
  const settings = await resolveSettings(
    {
      repo: values.repo,
      base: values.base,
      baseDir: values["base-dir"],
      skills: values.skills,
      agent: values.agent,
      model: values.model,
      cells: values.cell,
      trials: values.trials,
      shard: values.shard,
      seed: values.seed,
      noCache: values["no-cache"],
      config: values.config,
      ...(values["allow-weakening"]
        ? { allowWeakening: { by: "--allow-weakening, given by the operator" } }
        : {}),
    },
    // The forecast is the output: progress and the pipeline's own lines stay quiet unless asked for.
    cliLogger({ quiet: !values.verbose, verbose: values.verbose }),
  );
  const { forecast, scope, shapes, noise } = await forecastPipeline(settings, { noise: !!values.noise });
  io.stdout(`${[scope.message, ...renderForecast(forecast)].join("\n")}\n`);
  const power = await powerLines(shapes, settings.verdict);
  io.stdout(power.lines.map((l) => `${l}\n`).join(""));
  if (noise)
    io.stdout(
      noiseLines(noise)
        .map((l) => `${l}\n`)
        .join(""),
    );
  if (values.matrix) {
    const rounds = values.rounds === undefined ? undefined : Number(values.rounds);
    if (rounds !== undefined && !(Number.isInteger(rounds) && rounds >= 1))
      throw new UsageError(`--rounds: expected a positive integer, got ${JSON.stringify(values.rounds)}`);
    const n = shardCount(forecast, { concurrency: settings.concurrency, rounds });
    io.stdout(
      `fan out over ${n} shard(s): ${forecast.total.agentCalls} agent call(s) at ${settings.concurrency} at once, about ${Math.ceil(forecast.total.agentCalls / n / settings.concurrency)} round(s) of agent calls per shard's first batch\n`,
    );
    const file = resolve(values.matrix);
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, `${JSON.stringify(shardMatrix(n))}\n`);
  }
  if (values.json) {
    const file = resolve(values.json);
    await mkdir(dirname(file), { recursive: true });
    await writeFile(
      file,
      `${JSON.stringify({ seed: settings.seed, scope, forecast, power: power.figures, ...(noise ? { noise } : {}) }, null, 2)}\n`,
    );
  }
  return forecast.overBudget ? EXIT.error : EXIT.pass;
}

/** The power goal of docs/verdict.md: a regression of either kind found in 90 % of PRs. */
const POWER_GOAL = 0.9;

/**
 * What this run can detect, per compared skill: the real decision simulated over the skill's numbers (seeded, so
 * the same suite prints the same figures), with the fix when a figure misses the goal.
 */
async function powerLines(
  shapes: Record<string, PowerShape>,
  policy: Parameters<typeof simulatePower>[1],
): Promise<{ lines: string[]; figures: Record<string, PowerShape & PowerFigure> }> {
  const lines: string[] = [];
  const figures: Record<string, PowerShape & PowerFigure> = {};
  const names = Object.keys(shapes).sort();
  if (names.length === 0) return { lines, figures };
  lines.push("power (simulated PRs of each skill's shape; its other cases assumed to pass 95 % of trials):");
  for (const name of names) {
    const shape = shapes[name]!;
    const f = await simulatePower(shape, policy);
    figures[name] = { ...shape, ...f };
    const pct = (x: number) => `${Math.round(x * 100)} %`;
    const base =
      shape.storedBase > 0 ? `${shape.storedBase} stored base trials` : "a cold base (none stored)";
    const parts = [
      f.caseDrop !== undefined
        ? `a case ${CASE_DROP.from} → ${CASE_DROP.to} found in ${pct(f.caseDrop)}`
        : undefined,
      f.queryDrop !== undefined
        ? `a should-fire query ${QUERY_DROP.from.toFixed(1)} → ${QUERY_DROP.to} in ${pct(f.queryDrop)}`
        : undefined,
    ].filter(Boolean);
    if (parts.length === 0) continue;
    lines.push(
      `  ${name}: ${shape.cases} case(s) × ${shape.trialsPerCase} trial(s), ${shape.queries} quer${shape.queries === 1 ? "y" : "ies"} × ${shape.triggerRuns} run(s), against ${base}: ${parts.join("; ")}`,
    );
    const low = [f.caseDrop, f.queryDrop].some((x) => x !== undefined && x < POWER_GOAL);
    if (low)
      lines.push(
        `    under ${pct(POWER_GOAL)}: more first-batch trials (meta.json trials: 5 or more), the default branch's stored trials (examples/workflows/skillgate-main.yml), or fewer flaky cases`,
      );
  }
  return { lines, figures };
}
