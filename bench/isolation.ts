import { spawn } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startScriptedAnthropic, text, toolUse } from "../test/support/scripted-anthropic.js";
import { respCall, respText, startScriptedResponses } from "../test/support/scripted-responses.js";
import { keepSampling, partDeadline } from "./budget.js";
import { median } from "./stats.js";
import type { BenchContext } from "./types.js";

/**
 * What the OS isolation costs (src/sandbox/isolation/), by whole processes of dist/cli.js, isolated (the level
 * this machine reaches) and with `SKILLGATE_ISOLATION=none`, alternating within one run so drift lands on both:
 * - `isolation.gateRun`: `skillgate gate conservation <module>` (start-up, sandboxed compile, one gate child);
 * - `isolation.agentTrial`: `skillgate run` of a one-case suite whose `command` agent answers at once, per trial
 *   (the skill and the baseline arm: 2 × AGENT_TRIALS trials per process).
 * - `isolation.claudeTrial` / `isolation.codexTrial`: the same with the real Claude Code / Codex CLI against a
 *   scripted model on loopback (one shell command, then an answer), per trial (2 × CLI_TRIALS per process).
 *   Isolated, the CLI runs in bubblewrap with its model reached through the egress relay and proxy; with `none`
 *   it runs as a plain child (Codex then under its own sandbox, `workspace-write`: the real alternative).
 * Needs `npm run bundle` first.
 */
/**
 * Rounds (one process of each mode): as many as the section's time allows, between a minimum and `ROUNDS`; the
 * gate and agent pair gets a fifth of the time (at least `MIN_ROUNDS`), each CLI two fifths (at least
 * `MIN_CLI_ROUNDS`: a real-CLI round took 30–45 s at load average 11, when two of them made the section 182 s).
 */
const ROUNDS = 3;
const MIN_ROUNDS = 2;
const MIN_CLI_ROUNDS = 1;
const AGENT_TRIALS = 12;
const CLI_TRIALS = 2;

function wallMs(node: string, args: string[], cwd: string, env: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(node, args, { cwd, env: { PATH: process.env.PATH ?? "", ...env }, stdio: "ignore" });
    child.on("error", reject);
    child.on("close", (code) => {
      // 2 is a configuration error, 3 an agent error: a timing of a run that failed so measures nothing.
      if (code === 2 || code === 3) reject(new Error(`${args.slice(1, 2).join(" ")} exited ${code}`));
      else resolve(Number(process.hrtime.bigint() - started) / 1e6);
    });
  });
}

const signed = (n: number) => (n < 0 ? `${n}` : `+${n}`);

/** A repository with one skill, one case and a `command` agent that answers "ok" at once. */
function tinyRepo(dir: string): string {
  const repo = join(dir, "isolation-repo");
  mkdirSync(join(repo, ".claude/skills/tiny"), { recursive: true });
  mkdirSync(join(repo, ".agent/evals/tiny/prompts"), { recursive: true });
  writeFileSync(
    join(repo, ".claude/skills/tiny/SKILL.md"),
    "---\nname: tiny\ndescription: Says ok.\n---\nSay ok.\n",
  );
  writeFileSync(join(repo, ".agent/evals/tiny/meta.json"), JSON.stringify({ trials: AGENT_TRIALS }));
  writeFileSync(
    join(repo, ".agent/evals/tiny/prompts/ok.yaml"),
    "id: ok\nprompt: Say ok.\nassertions:\n  - id: says-ok\n    type: contains\n    value: ok\n",
  );
  writeFileSync(join(repo, "agent.mjs"), 'process.stdout.write("ok\\n");\n');
  writeFileSync(
    join(repo, ".skillgate.yml"),
    `agent:\n  adapter: command\n  command: node ${join(repo, "agent.mjs")}\ncache:\n  enabled: false\nconcurrency: 2\n`,
  );
  chmodSync(dir, 0o755);
  return repo;
}

/** A repository with one skill and one case for a real agent CLI (`agent` is the `.skillgate.yml` agent block). */
function cliRepo(dir: string, name: string, agent: string): string {
  const repo = join(dir, `isolation-${name}`);
  mkdirSync(join(repo, ".claude/skills/tiny"), { recursive: true });
  mkdirSync(join(repo, ".agent/evals/tiny/prompts"), { recursive: true });
  const skill = "---\nname: tiny\ndescription: Says ok.\n---\nSay ok.\n";
  writeFileSync(join(repo, ".claude/skills/tiny/SKILL.md"), skill);
  writeFileSync(join(repo, ".agent/evals/tiny/meta.json"), JSON.stringify({ trials: CLI_TRIALS }));
  writeFileSync(
    join(repo, ".agent/evals/tiny/prompts/ok.yaml"),
    "id: ok\nprompt: Say ok.\nassertions:\n  - id: says-ok\n    type: contains\n    value: ok\n",
  );
  writeFileSync(
    join(repo, ".skillgate.yml"),
    `agent:\n${agent}cache:\n  enabled: false\nconcurrency: 2\ntimeoutSeconds: 180\n`,
  );
  return repo;
}

/** The shell command the scripted model asks for, and what only running it prints (the command text differs). */
const MARK_COMMAND = "echo bench-mark-$((6*7))";
const MARK_OUTPUT = "bench-mark-42";

/**
 * Per-trial wall time of `skillgate run` with a real CLI, isolated and `none`, alternating. `ran()` counts the
 * model requests that carry the command's output: a run whose trials did not all run the command and send its
 * output back (a blocked shell, a model unreached) is refused, not timed.
 */
async function cliTrials(
  deadline: number,
  cli: string,
  repo: string,
  env: Record<string, string>,
  ran: () => number,
): Promise<{ isolated: number[]; none: number[] }> {
  const out = { isolated: [] as number[], none: [] as number[] };
  const t0 = Date.now();
  for (let round = 0; keepSampling({ deadline }, round, MIN_CLI_ROUNDS, ROUNDS, t0); round++) {
    const order = round % 2 === 0 ? (["isolated", "none"] as const) : (["none", "isolated"] as const);
    for (const mode of order) {
      const e = mode === "none" ? { ...env, SKILLGATE_ISOLATION: "none" } : env;
      const before = ran();
      const ms = await wallMs(
        process.execPath,
        [cli, "run", "--repo", repo, "--quiet", "--no-cache"],
        repo,
        e,
      );
      const n = ran() - before;
      if (n < 2 * CLI_TRIALS)
        throw new Error(`${repo} (${mode}): ${n} of ${2 * CLI_TRIALS} trials sent the command's output back`);
      out[mode].push(ms / (2 * CLI_TRIALS));
    }
  }
  return out;
}

export async function bench(ctx: BenchContext): Promise<Record<string, unknown>> {
  const cli = join(ctx.root, "dist", "cli.js");
  if (!existsSync(cli)) throw new Error("dist/ is missing: run `npm run bundle` first");
  const module = join(ctx.root, "gates/conservation/fixtures/good-largest-remainder.ts");
  const repo = tinyRepo(ctx.tmp);
  const gate = { isolated: [] as number[], none: [] as number[] };
  const agent = { isolated: [] as number[], none: [] as number[] };
  const t0 = Date.now();
  const pairDeadline = partDeadline(ctx, 0.2);
  for (let round = 0; keepSampling({ deadline: pairDeadline }, round, MIN_ROUNDS, ROUNDS, t0); round++) {
    // Alternate which goes first, so neither always runs on a machine the other just warmed.
    const order = round % 2 === 0 ? (["isolated", "none"] as const) : (["none", "isolated"] as const);
    for (const mode of order) {
      const env: Record<string, string> = mode === "none" ? { SKILLGATE_ISOLATION: "none" } : {};
      gate[mode].push(
        await wallMs(process.execPath, [cli, "gate", "conservation", module, "--seed", "1"], ctx.root, env),
      );
      agent[mode].push(
        (await wallMs(process.execPath, [cli, "run", "--repo", repo, "--quiet", "--no-cache"], repo, env)) /
          (2 * AGENT_TRIALS),
      );
    }
  }
  const figures = (m: { isolated: number[]; none: number[] }) => {
    const iso = median(m.isolated);
    const none = median(m.none);
    return {
      rounds: m.none.length,
      isolatedMs: Math.round(iso),
      noneMs: Math.round(none),
      overheadMs: Math.round(iso - none),
      ratio: +(iso / none).toFixed(2),
    };
  };
  const g = figures(gate);
  const a = figures(agent);

  // Real CLIs: one shell command through their tool, then the answer; the model is a scripted server on loopback.
  const claude = await startScriptedAnthropic((r) =>
    !r.hasTools ? text("ok") : r.turn === 0 ? toolUse("Bash", { command: MARK_COMMAND }) : text("ok"),
  );
  const codex = await startScriptedResponses((r) =>
    r.turn === 0 ? respCall("exec_command", { cmd: MARK_COMMAND }) : respText("ok"),
  );
  const carried = (requests: { raw: string }[]) => () =>
    requests.filter((r) => r.raw.includes(MARK_OUTPUT)).length;
  let c: ReturnType<typeof figures>;
  let x: ReturnType<typeof figures>;
  try {
    const bin = (name: string) => join(ctx.root, "node_modules", ".bin", name);
    c = figures(
      await cliTrials(
        partDeadline(ctx, 0.5),
        cli,
        cliRepo(ctx.tmp, "claude", `  adapter: claude-code\n  command: ${bin("claude")}\n`),
        { ANTHROPIC_BASE_URL: claude.url, ANTHROPIC_API_KEY: "sk-ant-bench", CLAUDE_CODE_MAX_RETRIES: "0" },
        carried(claude.requests),
      ),
    );
    x = figures(
      await cliTrials(
        ctx.deadline,
        cli,
        cliRepo(
          ctx.tmp,
          "codex",
          `  adapter: codex\n  command: ${bin("codex")}\n  model: gpt-bench\n  baseUrl: ${codex.url}/v1\n`,
        ),
        { OPENAI_API_KEY: "sk-bench" },
        carried(codex.requests),
      ),
    );
  } finally {
    await claude.close();
    await codex.close();
  }
  ctx.log(
    `isolation.gateRun     ${g.isolatedMs} ms isolated vs ${g.noneMs} ms none (${signed(g.overheadMs)} ms, ×${g.ratio}; whole \`skillgate gate\` process, median of ${gate.none.length})`,
  );
  ctx.log(
    `isolation.agentTrial  ${a.isolatedMs} ms isolated vs ${a.noneMs} ms none per trial (${signed(a.overheadMs)} ms, ×${a.ratio}; \`skillgate run\` of ${2 * AGENT_TRIALS} command-agent trials / ${2 * AGENT_TRIALS}, median of ${agent.none.length})`,
  );
  for (const [name, f] of [
    ["claudeTrial", c],
    ["codexTrial ", x],
  ] as const)
    ctx.log(
      `isolation.${name}  ${f.isolatedMs} ms isolated vs ${f.noneMs} ms none per trial (${signed(f.overheadMs)} ms, ×${f.ratio}; \`skillgate run\` of ${2 * CLI_TRIALS} real-CLI trials / ${2 * CLI_TRIALS}, median of ${f.rounds}; wall time on a shared machine: compare within this run only)`,
    );
  return {
    isolation: {
      gateRun: g,
      agentTrial: a,
      claudeTrial: c,
      codexTrial: x,
      rounds: gate.none.length,
      agentTrials: AGENT_TRIALS,
      cliTrials: CLI_TRIALS,
    },
  };
}
