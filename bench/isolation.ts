import { spawn } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { BenchContext } from "./types.js";

/**
 * What the OS isolation costs (src/sandbox/isolation/), by whole processes of dist/cli.js, isolated (the level
 * this machine reaches) and with `SKILLGATE_ISOLATION=none`, alternating within one run so drift lands on both:
 * - `isolation.gateRun`: `skillgate gate conservation <module>` (start-up, sandboxed compile, one gate child);
 * - `isolation.agentTrial`: `skillgate run` of a one-case suite whose `command` agent answers at once, per trial
 *   (the skill and the baseline arm: 2 × AGENT_TRIALS trials per process).
 * Needs `npm run bundle` first.
 */
const ROUNDS = 3;
const AGENT_TRIALS = 12;

function wallMs(node: string, args: string[], cwd: string, env: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(node, args, { cwd, env: { PATH: process.env.PATH ?? "", ...env }, stdio: "ignore" });
    child.on("error", reject);
    child.on("close", () => resolve(Number(process.hrtime.bigint() - started) / 1e6));
  });
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

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

export async function bench(ctx: BenchContext): Promise<Record<string, unknown>> {
  const cli = join(ctx.root, "dist", "cli.js");
  if (!existsSync(cli)) throw new Error("dist/ is missing: run `npm run bundle` first");
  const module = join(ctx.root, "gates/conservation/fixtures/good-largest-remainder.ts");
  const repo = tinyRepo(ctx.tmp);
  const gate = { isolated: [] as number[], none: [] as number[] };
  const agent = { isolated: [] as number[], none: [] as number[] };
  for (let round = 0; round < ROUNDS; round++) {
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
      isolatedMs: Math.round(iso),
      noneMs: Math.round(none),
      overheadMs: Math.round(iso - none),
      ratio: +(iso / none).toFixed(2),
    };
  };
  const g = figures(gate);
  const a = figures(agent);
  ctx.log(
    `isolation.gateRun     ${g.isolatedMs} ms isolated vs ${g.noneMs} ms none (+${g.overheadMs} ms, ×${g.ratio}; whole \`skillgate gate\` process, median of ${ROUNDS})`,
  );
  ctx.log(
    `isolation.agentTrial  ${a.isolatedMs} ms isolated vs ${a.noneMs} ms none per trial (+${a.overheadMs} ms, ×${a.ratio}; \`skillgate run\` of ${2 * AGENT_TRIALS} command-agent trials / ${2 * AGENT_TRIALS}, median of ${ROUNDS})`,
  );
  return { isolation: { gateRun: g, agentTrial: a, rounds: ROUNDS, agentTrials: AGENT_TRIALS } };
}
