import { githubBlobBase } from "../../detect/repo-name.js";
import { buildCheckRunCompletion } from "../../github/check-run.js";
import { runCells } from "../../pipeline/matrix.js";
import { runPipeline } from "../../pipeline.js";
import { exitCodeFor } from "../../report/exit-codes.js";
import { renderHtml } from "../../report/html/index.js";
import { renderJUnit } from "../../report/junit.js";
import { renderSarif } from "../../report/sarif.js";
import { renderTerminal } from "../../report/terminal.js";
import { resolveSettings } from "../../settings/resolve.js";
import { redactOutput } from "../../util/redact.js";
import { writeFileNoFollow } from "../../util/write-no-follow.js";
import type { CliIO } from "../io.js";
import { cliLogger } from "../logger.js";
import { parseCommandLine } from "../usage.js";

export const RUN_USAGE = `Usage: skillgate run [options]

Runs the batteries of the skills a change touches (or every skill), compares with the base, prints the verdict.

  --repo DIR          repository (head) to evaluate (default .)
  --base REF          compare with this git ref (checked out in a temporary worktree)
  --base-dir DIR      compare with the base checked out in DIR
  --skills GLOB       only skills whose name or path matches
  --agent NAME        agent adapter (replay, claude-code, codex, command, openai, anthropic, lexical)
  --model NAME        the agent's model (agent.model), e.g. claude-sonnet-4-5 for --agent anthropic
  --cell NAMES        with an agents: matrix in the config, evaluate only these cells (comma separated)
  --trials N          trials per case and mode (default: meta.json, else the config's, else 5)
  --shard I/N         evaluate only shard I of N (deterministic, balanced by expected cost)
  --seed N            seed of every randomised step (default 42); reported, replayable
  --no-cache          do not read or write the trial cache
  --config FILE       configuration file, a path from --repo (default .skillgate.yml); one outside the
                      repository is the operator's own, and its relative command paths resolve from its folder
  --json FILE         write the JSON report (and skill-creator exports to FILE's name + .skill-creator/)
  --junit FILE        write JUnit XML
  --sarif FILE        write SARIF (new roots as results with locations)
  --html FILE         write the review report: one self-contained HTML page (roots, transcripts, every trial)
  --markdown FILE     write the Markdown summary the check run shows
  --record DIR        write replay recordings of every trial run to DIR
  --allow-weakening   accept a weakened suite or policy: you, the operator, approve it (reported)
  --quiet, --verbose, --no-color

Exit codes: 0 pass, 1 fail, 2 usage or configuration error, 3 agent or infrastructure error.`;

/** run's options; `plan` takes the same (a run's command line, `run` → `plan`, says what it would spend). */
export const RUN_OPTIONS = {
  repo: { type: "string" },
  base: { type: "string" },
  "base-dir": { type: "string" },
  skills: { type: "string" },
  agent: { type: "string" },
  model: { type: "string" },
  cell: { type: "string" },
  trials: { type: "string" },
  shard: { type: "string" },
  seed: { type: "string" },
  "no-cache": { type: "boolean" },
  config: { type: "string" },
  json: { type: "string" },
  junit: { type: "string" },
  sarif: { type: "string" },
  html: { type: "string" },
  markdown: { type: "string" },
  record: { type: "string" },
  "allow-weakening": { type: "boolean" },
  quiet: { type: "boolean", short: "q" },
  verbose: { type: "boolean" },
  "no-color": { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

export async function runCommand(argv: string[], io: CliIO): Promise<number> {
  const { values } = parseCommandLine(argv, { options: RUN_OPTIONS });
  if (values.help) {
    io.stdout(`${RUN_USAGE}\n`);
    return 0;
  }
  const logger = cliLogger({ quiet: values.quiet, verbose: values.verbose });
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
      json: values.json,
      junit: values.junit,
      sarif: values.sarif,
      html: values.html,
      markdown: values.markdown,
      record: values.record,
      ...(values["allow-weakening"]
        ? { allowWeakening: { by: "--allow-weakening, given by the operator" } }
        : {}),
    },
    logger,
  );
  const report = await runCells(settings, runPipeline);
  // Inside the checkout (the PR's files, in CI) no link is followed: see write-no-follow.ts.
  const write = async (file: string | undefined, text: string) => {
    if (!file) return;
    const r = writeFileNoFollow(settings.repoDir, file, redactOutput(text));
    if (r.replacedLink)
      logger.warn(
        `${r.replacedLink.at} was a symbolic link (to ${r.replacedLink.target}): replaced by the report, not written through`,
      );
  };
  await write(settings.outputs.json, `${JSON.stringify(report, null, 2)}\n`);
  await write(settings.outputs.junit, renderJUnit(report));
  await write(settings.outputs.sarif, renderSarif(report));
  if (settings.outputs.html)
    await write(
      settings.outputs.html,
      renderHtml(report, {
        blobBase: githubBlobBase(settings.repoDir, report.head.sha, process.env),
        redact: redactOutput,
      }),
    );
  if (settings.outputs.markdown)
    await write(
      settings.outputs.markdown,
      buildCheckRunCompletion(report, {
        checkName: "skillgate",
        fullReportHint: settings.outputs.json ?? settings.outputs.html ?? "the JSON report (--json FILE)",
      }).outputs[0]!.summary,
    );
  const color = !values["no-color"] && !process.env.NO_COLOR && Boolean(process.stdout.isTTY);
  io.stdout(renderTerminal(report, { color, verbose: values.verbose }));
  return exitCodeFor(report.verdict);
}
