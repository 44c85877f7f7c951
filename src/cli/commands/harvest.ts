import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { runHarvest } from "../../harvest/harvest.js";
import { unifiedDiff } from "../../harvest/patch.js";
import { EXIT } from "../../report/exit-codes.js";
import { renderHarvest } from "../../report/harvest.js";
import { resolveSettings } from "../../settings/resolve.js";
import { redactOutput } from "../../util/redact.js";
import type { CliIO } from "../io.js";
import { cliLogger } from "../logger.js";
import { parseCommandLine, UsageError } from "../usage.js";

export const HARVEST_USAGE = `Usage: skillgate harvest [options]

Runs unguided baseline trials (no skill installed) and skill trials on a skill's tasks, clusters their answers
and proposes discriminator assertions from the wrong ones, each with its measured baseline failure rate and
skill pass rate, as a suite patch for you to review. Nothing in the repository is changed.

  --repo DIR                 repository (default .)
  --skills GLOB              the skill(s) to harvest for (default: every skill with a suite)
  --prompts FILE             tasks from this YAML/JSON list instead of the suite's cases (one skill)
  --baseline-only            run the baseline alone (by default skill trials run too: the answers the skill
                             avoids, and each proposal's pass rate with the skill)
  --with-skill               run skill trials too (the default; kept for older command lines)
  --trials N                 trials per case and mode (default 5)
  --min-baseline-failure R   keep a proposal the baseline fails at least this often (default 0.3)
  --min-skill-pass R         and the skill passes at least this often, when measured (default 0.8)
  --min-share R              a wrong answer must be at least this share of the baseline's (default 0.2)
  --patch FILE               write the proposals as a unified diff (apply with git apply FILE)
  --out DIR                  write the proposed files under DIR (their repository paths)
  --json FILE                write the harvest report (clusters, proposals, forecast) as JSON
  --agent NAME, --config FILE, --seed N, --no-cache, --quiet, --verbose

Exit codes: 0 harvested (with or without proposals), 2 usage or configuration error, 3 agent or budget error.`;

function ratio(v: string | undefined, flag: string, dflt: number): number {
  if (v === undefined) return dflt;
  const n = Number(v);
  if (!Number.isFinite(n) || n < 0 || n > 1)
    throw new UsageError(`${flag} must be a number from 0 to 1 (got \`${v}\`)`);
  return n;
}

export async function harvestCommand(argv: string[], io: CliIO): Promise<number> {
  const { values } = parseCommandLine(argv, {
    options: {
      repo: { type: "string" },
      skills: { type: "string" },
      prompts: { type: "string" },
      "with-skill": { type: "boolean" },
      "baseline-only": { type: "boolean" },
      trials: { type: "string" },
      "min-baseline-failure": { type: "string" },
      "min-skill-pass": { type: "string" },
      "min-share": { type: "string" },
      patch: { type: "string" },
      out: { type: "string" },
      json: { type: "string" },
      agent: { type: "string" },
      config: { type: "string" },
      seed: { type: "string" },
      "no-cache": { type: "boolean" },
      quiet: { type: "boolean", short: "q" },
      verbose: { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help) {
    io.stdout(`${HARVEST_USAGE}\n`);
    return EXIT.pass;
  }
  if (values["baseline-only"] && values["with-skill"])
    throw new UsageError("give only one of --baseline-only and --with-skill");
  const options = {
    withSkill: values["baseline-only"] !== true,
    minBaselineFailure: ratio(values["min-baseline-failure"], "--min-baseline-failure", 0.3),
    minSkillPass: ratio(values["min-skill-pass"], "--min-skill-pass", 0.8),
    minShare: ratio(values["min-share"], "--min-share", 0.2),
    defaultTrials: 5,
    ...(values.prompts ? { promptsFile: values.prompts } : {}),
  };
  const settings = await resolveSettings(
    {
      repo: values.repo,
      skills: values.skills,
      agent: values.agent,
      trials: values.trials,
      seed: values.seed,
      noCache: values["no-cache"],
      config: values.config,
    },
    cliLogger({ quiet: values.quiet, verbose: values.verbose }),
  );
  const { report, files } = await runHarvest(settings, options);
  const write = async (file: string, text: string) => {
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, redactOutput(text));
  };
  if (values.json) await write(resolve(values.json), `${JSON.stringify(report, null, 2)}\n`);
  if (values.patch) await write(resolve(values.patch), await unifiedDiff(settings.repoDir, files));
  if (values.out) for (const [rel, text] of files) await write(join(resolve(values.out), rel), text);
  io.stdout(renderHarvest(report, { patch: values.patch, out: values.out }));
  return report.errors.length > 0 ? EXIT.error : EXIT.pass;
}
