import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Report } from "../../src/model/index.js";
import { writeRepo } from "../support/repo-files.js";
import { runCli } from "../support/run-cli.js";

/** A one-skill repository whose command agent is `fault-agent.mjs <mode>`, and a `skillgate run` of it. */
const AGENT = join(import.meta.dirname, "fault-agent.mjs");

const SKILL =
  "---\nname: calc\ndescription: Adds numbers exactly. Use for sums and totals.\n---\nAdd the numbers.\n";

export function faultRepo(mode: string, timeoutSeconds = 1): string {
  const files: Record<string, string> = {
    ".claude/skills/calc/SKILL.md": SKILL,
    ".agent/evals/calc/meta.json": '{"trials": 1}\n',
    ".agent/evals/calc/prompts/sum.yaml":
      "id: sum\nprompt: What is 2 + 2?\nassertions:\n  - id: D:four\n    type: contains\n    value: '4'\n",
    ".agent/evals/calc/trigger-eval.json": JSON.stringify({
      shouldFire: ["add 2 and 2"],
      shouldNotFire: ["write a poem"],
    }),
    ".skillgate.yml": [
      "agent:",
      "  adapter: command",
      `  command: ${JSON.stringify(`${JSON.stringify(process.execPath)} ${JSON.stringify(AGENT)} ${mode}`)}`,
      "trials: 1",
      "triggerRuns: 1",
      `timeoutSeconds: ${timeoutSeconds}`,
      "verdict:",
      "  maxConfirmationTrials: 0",
      "",
    ].join("\n"),
  };
  return writeRepo(files, `sg-fault-${mode}-`);
}

export async function runFault(mode: string, timeoutSeconds = 1) {
  const repo = faultRepo(mode, timeoutSeconds);
  const json = join(repo, "out", "report.json");
  const r = await runCli(["run", "--repo", repo, "--json", json, "--quiet", "--no-cache"]);
  const report = JSON.parse(readFileSync(json, "utf8")) as Report;
  return { ...r, report, repo, jsonBytes: readFileSync(json).length };
}
