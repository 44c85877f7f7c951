import { spawn } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startScriptedAnthropic, text, toolUse } from "../test/support/scripted-anthropic.js";
import { keepSampling, partDeadline } from "./budget.js";
import { median } from "./stats.js";
import type { BenchContext } from "./types.js";

/**
 * What watching a trial costs (src/observe/: strace around the confined agent, the trace read into risky actions,
 * decoy credentials planted and looked for): `observation.agentTrial`, the wall time per trial of `skillgate run`
 * of a one-case suite whose `command` agent answers at once (2 × TRIALS trials per process), observed and with
 * `SKILLGATE_OBSERVE=off`, alternating within one run so drift lands on both. Goal: ≤ 10 % more.
 * `observation.claudeTrial`: the same with the real Claude Code CLI against a scripted model on loopback (one shell
 * command, then an answer; 2 × CLI_TRIALS trials per process). Needs `npm run bundle` first.
 */
const ROUNDS = 5;
const MIN_ROUNDS = 3;
const TRIALS = 12;
const CLI_TRIALS = 2;
const MIN_CLI_ROUNDS = 1;

function wallMs(args: string[], cwd: string, env: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(process.execPath, args, {
      cwd,
      env: { PATH: process.env.PATH ?? "", ...env },
      stdio: "ignore",
    });
    child.on("error", reject);
    child.on("close", (code) => {
      if (code !== 0) reject(new Error(`skillgate run exited ${code}`));
      else resolve(Number(process.hrtime.bigint() - started) / 1e6);
    });
  });
}

function tinyRepo(dir: string, agent?: string): string {
  const repo = join(dir, agent ? "observation-claude" : "observation-repo");
  mkdirSync(join(repo, ".claude/skills/tiny"), { recursive: true });
  mkdirSync(join(repo, ".agent/evals/tiny/prompts"), { recursive: true });
  writeFileSync(
    join(repo, ".claude/skills/tiny/SKILL.md"),
    "---\nname: tiny\ndescription: Says ok.\n---\nSay ok.\n",
  );
  writeFileSync(
    join(repo, ".agent/evals/tiny/meta.json"),
    JSON.stringify({ trials: agent ? CLI_TRIALS : TRIALS }),
  );
  writeFileSync(
    join(repo, ".agent/evals/tiny/prompts/ok.yaml"),
    "id: ok\nprompt: Say ok.\nassertions:\n  - id: says-ok\n    type: contains\n    value: ok\n",
  );
  writeFileSync(join(repo, "agent.mjs"), 'process.stdout.write("ok\\n");\n');
  const config = agent ?? `  adapter: command\n  command: node ${join(repo, "agent.mjs")}\n`;
  writeFileSync(
    join(repo, ".skillgate.yml"),
    `agent:\n${config}cache:\n  enabled: false\nconcurrency: 2\ntimeoutSeconds: 180\n`,
  );
  chmodSync(dir, 0o755);
  return repo;
}

/** Per-trial wall times of `repo`, observed and off, alternating; `trials` per process. */
async function compare(
  cli: string,
  repo: string,
  env: Record<string, string>,
  trials: number,
  sampling: { deadline: number; min: number; max: number },
): Promise<{ observed: number[]; off: number[] }> {
  const times = { observed: [] as number[], off: [] as number[] };
  const t0 = Date.now();
  for (let round = 0; keepSampling(sampling, round, sampling.min, sampling.max, t0); round++) {
    const order = round % 2 === 0 ? (["observed", "off"] as const) : (["off", "observed"] as const);
    for (const mode of order) {
      const e: Record<string, string> = mode === "off" ? { ...env, SKILLGATE_OBSERVE: "off" } : env;
      const ms = await wallMs([cli, "run", "--repo", repo, "--quiet", "--no-cache"], repo, e);
      times[mode].push(ms / trials);
    }
  }
  return times;
}

function figures(t: { observed: number[]; off: number[] }) {
  const observed = median(t.observed);
  const off = median(t.off);
  return {
    rounds: t.off.length,
    observedMs: Math.round(observed),
    offMs: Math.round(off),
    overheadMs: Math.round(observed - off),
    ratio: +(observed / off).toFixed(3),
  };
}

export async function bench(ctx: BenchContext): Promise<Record<string, unknown>> {
  const cli = join(ctx.root, "dist", "cli.js");
  if (!existsSync(cli)) throw new Error("dist/ is missing: run `npm run bundle` first");
  const agent = figures(
    await compare(cli, tinyRepo(ctx.tmp), {}, 2 * TRIALS, {
      deadline: partDeadline(ctx, 0.4),
      min: MIN_ROUNDS,
      max: ROUNDS,
    }),
  );
  ctx.log(
    `observation.agentTrial   ${agent.observedMs} ms observed vs ${agent.offMs} ms off per trial (${agent.overheadMs} ms, ×${agent.ratio}, goal ≤ ×1.10; \`skillgate run\` of ${2 * TRIALS} command-agent trials, median of ${agent.rounds})`,
  );
  const model = await startScriptedAnthropic((r) =>
    !r.hasTools ? text("ok") : r.turn === 0 ? toolUse("Bash", { command: "echo ok" }) : text("ok"),
  );
  let claude: ReturnType<typeof figures>;
  try {
    const bin = join(ctx.root, "node_modules", ".bin", "claude");
    const repo = tinyRepo(ctx.tmp, `  adapter: claude-code\n  command: ${bin}\n`);
    const env = {
      ANTHROPIC_BASE_URL: model.url,
      ANTHROPIC_API_KEY: "sk-ant-bench",
      CLAUDE_CODE_MAX_RETRIES: "0",
    };
    claude = figures(
      await compare(cli, repo, env, 2 * CLI_TRIALS, {
        deadline: ctx.deadline,
        min: MIN_CLI_ROUNDS,
        max: ROUNDS,
      }),
    );
  } finally {
    await model.close();
  }
  ctx.log(
    `observation.claudeTrial  ${claude.observedMs} ms observed vs ${claude.offMs} ms off per trial (${claude.overheadMs} ms, ×${claude.ratio}; real Claude Code CLI, scripted model, median of ${claude.rounds})`,
  );
  return { observation: { agentTrial: agent, claudeTrial: claude } };
}
