import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  type ScriptedRequest,
  startScriptedAnthropic,
  text,
  toolUse,
} from "../test/support/scripted-anthropic.js";
import {
  type ResponsesRequest,
  respCall,
  respText,
  startScriptedResponses,
} from "../test/support/scripted-responses.js";
import { countFlag } from "./budget.js";
import type { BenchContext } from "./types.js";

/**
 * What stopping trigger trials at the routing decision saves (#19 item 4), by whole `skillgate run` processes of
 * dist/cli.js with the real Claude Code and Codex CLIs against a scripted model on loopback. The model behaves
 * like a real one: after loading the skill it works on (reads a file, runs a command, writes, answers: 5 model
 * requests in all); a should-not-fire prompt gets another tool first and then an answer (3), or a plain answer (1).
 * One trigger battery (3 should-fire, 3 should-not-fire prompts, `DEFAULT_RUNS` runs each), run with `triggerStop: off`
 * (the full run) and with the default (`first-action`), alternating which goes first, ROUNDS times (one: on the
 * 2-core machine a full Claude Code run of it takes ~100 s when the machine is busy). One run per query: the
 * scripted model answers a prompt the same way each time, so more runs repeat the same per-trial figures (three
 * runs gave the same ones, 18 trials, at four times the section's time); `--trigger-stop-runs N` for more.
 * Per trigger trial: model requests the server saw (the CLI's main loop; Claude Code's tool-less side requests
 * apart), bytes it sent (what input tokens are billed on, ≈ 4 bytes a token), the tokens the CLI reported (in the
 * report's cost), and wall time (the whole process over its trials). The trigger figures (precision, recall) of
 * both runs must be equal, or the section fails. Needs `npm run bundle` first.
 */
const ROUNDS = 1;
/** Runs per trigger query. */
const DEFAULT_RUNS = 1;

const PROMPTS = {
  shouldFire: [
    "Split a 47.10 dinner bill between 4 friends in cents (bench-route-1)",
    "Allocate a refund across three payment cards proportionally (bench-route-2)",
    "Distribute a bonus pool of 5000 cents among employees (bench-route-3)",
  ],
  shouldNotFire: [
    "Add a dark mode toggle to the settings page (bench-tool-1)",
    "Write a SQL migration that adds an index on users.email (bench-tool-2)",
    "Explain what a JavaScript closure is (bench-text-1)",
  ],
};

const kind = (raw: string) => /bench-(route|tool|text)-\d/.exec(raw)?.[1];

function claudeModel(r: ScriptedRequest) {
  if (!r.hasTools) return text("ok");
  const t = r.turn;
  switch (kind(r.raw)) {
    case "route":
      return [
        toolUse("Skill", { skill: "split-cents" }),
        toolUse("Read", { file_path: "ledger.txt" }),
        toolUse("Bash", { command: "echo 1178 1178 1177 1177" }),
        toolUse("Write", { file_path: "split.txt", content: "1178,1178,1177,1177\n" }),
        text("Each pays 11.78, 11.78, 11.77 and 11.77."),
      ][Math.min(t, 4)]!;
    case "tool":
      return [
        toolUse("Bash", { command: "ls" }),
        toolUse("Read", { file_path: "ledger.txt" }),
        text("Done."),
      ][Math.min(t, 2)]!;
    default:
      return text("A closure is a function with the variables it captured.");
  }
}

function codexModel(r: ResponsesRequest) {
  const t = r.turn;
  switch (kind(r.raw)) {
    case "route":
      return [
        respCall("exec_command", { cmd: "cat .agents/skills/split-cents/SKILL.md" }),
        respCall("exec_command", { cmd: "cat ledger.txt" }),
        respCall("exec_command", { cmd: "echo 1178 1178 1177 1177 > split.txt" }),
        respCall("exec_command", { cmd: "cat split.txt" }),
        respText("Each pays 11.78, 11.78, 11.77 and 11.77."),
      ][Math.min(t, 4)]!;
    case "tool":
      return [
        respCall("exec_command", { cmd: "ls" }),
        respCall("exec_command", { cmd: "pwd" }),
        respText("Done."),
      ][Math.min(t, 2)]!;
    default:
      return respText("A closure is a function with the variables it captured.");
  }
}

function repoFor(dir: string, name: string, agent: string, stop: string, runs: number): string {
  const repo = join(dir, `trigger-stop-${name}-${stop}`);
  for (const [skill, desc] of [
    ["split-cents", "Split money amounts in cents among people without losing a cent."],
    ["weather-report", "Write weather reports."],
  ]) {
    mkdirSync(join(repo, ".claude/skills", skill!), { recursive: true });
    writeFileSync(
      join(repo, ".claude/skills", skill!, "SKILL.md"),
      `---\nname: ${skill}\ndescription: ${desc}\n---\n\nUse the largest remainder method.\n`,
    );
  }
  mkdirSync(join(repo, ".agent/evals/split-cents"), { recursive: true });
  writeFileSync(join(repo, ".agent/evals/split-cents/meta.json"), JSON.stringify({ trials: 1 }));
  writeFileSync(
    join(repo, ".agent/evals/split-cents/trigger-eval.json"),
    JSON.stringify({
      shouldFire: PROMPTS.shouldFire.map((prompt) => ({ prompt })),
      shouldNotFire: PROMPTS.shouldNotFire.map((prompt) => ({ prompt })),
    }),
  );
  writeFileSync(
    join(repo, ".skillgate.yml"),
    `agent:\n${agent}  options:\n    triggerStop: ${stop}\ntriggerRuns: ${runs}\ncache:\n  enabled: false\nconcurrency: 2\ntimeoutSeconds: 180\n`,
  );
  return repo;
}

interface Run {
  wallMs: number;
  trials: number;
  requests: number;
  sideRequests: number;
  requestBytes: number;
  inputTokens: number;
  outputTokens: number;
  // biome-ignore lint/suspicious/noExplicitAny: the report's trigger summary, compared whole
  trigger: any;
}

function runCli(node: string, args: string[], cwd: string, env: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(node, args, { cwd, env: { PATH: process.env.PATH ?? "", ...env }, stdio: "ignore" });
    child.on("error", reject);
    child.on("close", (code) => {
      if (code === 2 || code === 3) reject(new Error(`skillgate run in ${cwd} exited ${code}`));
      else resolve(Number(process.hrtime.bigint() - started) / 1e6);
    });
  });
}

async function measure(
  expectedTrials: number,
  cli: string,
  repo: string,
  env: Record<string, string>,
  requests: { raw: string; hasTools?: boolean }[],
): Promise<Run> {
  const before = requests.length;
  const json = join(repo, "report.json");
  const wallMs = await runCli(
    process.execPath,
    [cli, "run", "--repo", repo, "--quiet", "--json", json],
    repo,
    env,
  );
  // A stopped agent must not go on talking to the model after its process ended.
  const seen = requests.length;
  await new Promise((r) => setTimeout(r, 1000));
  if (requests.length !== seen)
    throw new Error(`${requests.length - seen} model request(s) after the run ended`);
  const mine = requests.slice(before);
  const loop = mine.filter((r) => r.hasTools !== false);
  const report = JSON.parse(readFileSync(json, "utf8"));
  const trials = report.cost.agentCalls as number;
  if (trials !== expectedTrials)
    throw new Error(`${repo}: ${trials} agent calls, expected ${expectedTrials}`);
  const skill = report.skills.find((s: { name: string }) => s.name === "split-cents");
  return {
    wallMs,
    trials,
    requests: loop.length,
    sideRequests: mine.length - loop.length,
    requestBytes: loop.reduce((n, r) => n + Buffer.byteLength(r.raw), 0),
    inputTokens: report.cost.inputTokens,
    outputTokens: report.cost.outputTokens,
    // What the verdict reads (the router label names the adapter identity, which carries the policy).
    trigger: skill?.trigger
      ? { precision: skill.trigger.precision, recall: skill.trigger.recall, accuracy: skill.trigger.accuracy }
      : null,
  };
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

/** Per trigger trial, over rounds. */
function perTrial(runs: Run[]) {
  const per = (f: (r: Run) => number) => mean(runs.map((r) => f(r) / r.trials));
  return {
    requests: +per((r) => r.requests).toFixed(2),
    sideRequests: +per((r) => r.sideRequests).toFixed(2),
    requestKB: +(per((r) => r.requestBytes) / 1024).toFixed(1),
    /** What a real API would bill as input, at ≈ 4 bytes a token (the scripted server's own counts are fixed). */
    estInputTokens: Math.round(per((r) => r.requestBytes) / 4),
    reportedInputTokens: Math.round(per((r) => r.inputTokens)),
    reportedOutputTokens: Math.round(per((r) => r.outputTokens)),
    wallMs: Math.round(per((r) => r.wallMs)),
  };
}

export async function bench(ctx: BenchContext): Promise<Record<string, unknown>> {
  const cli = join(ctx.root, "dist", "cli.js");
  if (!existsSync(cli)) throw new Error("dist/ is missing: run `npm run bundle` first");
  const bin = (name: string) => join(ctx.root, "node_modules", ".bin", name);
  const claude = await startScriptedAnthropic(claudeModel);
  const codex = await startScriptedResponses(codexModel);
  const runsPerQuery = countFlag(ctx, "triggerStopRuns") ?? DEFAULT_RUNS;
  const trials = (PROMPTS.shouldFire.length + PROMPTS.shouldNotFire.length) * runsPerQuery;
  const out: Record<string, unknown> = { trials, runsPerQuery, rounds: ROUNDS };
  try {
    for (const [name, agent, env, requests] of [
      [
        "claude",
        `  adapter: claude-code\n  command: ${bin("claude")}\n`,
        { ANTHROPIC_BASE_URL: claude.url, ANTHROPIC_API_KEY: "sk-ant-bench", CLAUDE_CODE_MAX_RETRIES: "0" },
        claude.requests,
      ],
      [
        "codex",
        `  adapter: codex\n  command: ${bin("codex")}\n  model: gpt-bench\n  baseUrl: ${codex.url}/v1\n`,
        { OPENAI_API_KEY: "sk-bench" },
        codex.requests as { raw: string }[],
      ],
    ] as const) {
      const runs: Record<"full" | "stopped", Run[]> = { full: [], stopped: [] };
      for (let round = 0; round < ROUNDS; round++) {
        const order = round % 2 === 0 ? (["full", "stopped"] as const) : (["stopped", "full"] as const);
        for (const which of order) {
          const stop = which === "full" ? "off" : "first-action";
          const repo = repoFor(ctx.tmp, `${name}-${round}`, agent, stop, runsPerQuery);
          runs[which].push(await measure(trials, cli, repo, env, requests));
        }
      }
      const full = perTrial(runs.full);
      const stopped = perTrial(runs.stopped);
      const verdicts = [...runs.full, ...runs.stopped].map((r) => JSON.stringify(r.trigger));
      if (new Set(verdicts).size !== 1)
        throw new Error(
          `${name}: the trigger figures differ between full and stopped runs: ${verdicts.join(" | ")}`,
        );
      for (const [which, f] of [
        ["full   ", full],
        ["stopped", stopped],
      ] as const) {
        ctx.log(
          `triggerStop.${name}.${which}  ${f.requests} model requests, ${f.requestKB} KB sent (≈ ${f.estInputTokens} input tokens), ${f.reportedInputTokens} in / ${f.reportedOutputTokens} out tokens reported, ${f.wallMs} ms wall per trigger trial (${trials} trials × ${ROUNDS} round${ROUNDS > 1 ? "s" : ""})`,
        );
      }
      out[name] = { full, stopped, sameVerdict: true };
    }
  } finally {
    await claude.close();
    await codex.close();
  }
  return { triggerStop: out };
}
