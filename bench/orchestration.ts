/**
 * Orchestration overhead of the trial runner (issue 3): ≥ 200 cases × 3 trials with a trivial `command` agent,
 * per-trial wall time beyond spawning the agent. The spawn floor (the same script, same concurrency, plain
 * `child_process.spawn`) is measured in the same run; each side runs twice and the faster run counts.
 * Goal: `orchestration.overheadMsPerTrial` ≤ 1 ms.
 *
 * With flag `withPromptfoo`: installs promptfoo 0.121.20 (the last for Node 20) into a temp folder and runs the
 * same battery there (exec provider, the same `contains` assertion, no cache, same concurrency), reporting
 * `orchestration.promptfoo.{version, overheadMsPerTrial, ratio}` and peak memory of both.
 */
import { execFile, spawn } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import type { InstalledSkill, Logger, TrialRequest } from "../src/model/index.js";
import { trialKey } from "../src/run/keys.js";
import { runTrials } from "../src/run/runner.js";
import type { BenchContext } from "./types.js";

const execFileP = promisify(execFile);

export const CASES = 200;
export const TRIALS = 3;
export const CONCURRENCY = 8;
export const ROUNDS = 2;
export const PROMPTFOO_VERSION = "0.121.20";

const AGENT_SCRIPT = `import { readFileSync } from "node:fs";
// promptfoo's exec provider passes the prompt as an argument; skillgate's command protocol on stdin.
const prompt = process.argv[2] ?? readFileSync(0, "utf8");
process.stdout.write("ok " + prompt.length);
`;

const quietLogger: Logger = {
  info() {},
  warn() {},
  error() {},
  debug() {},
  group: (_n, fn) => fn(),
  progress() {},
};

function spawnOnce(script: string, prompt: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script], { stdio: ["pipe", "pipe", "ignore"] });
    let out = "";
    child.stdout.on("data", (c: Buffer) => {
      out += c.toString();
    });
    child.on("error", reject);
    child.on("close", () => resolve(out));
    child.stdin.end(prompt);
  });
}

async function spawnFloor(script: string, prompts: string[]): Promise<number> {
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < prompts.length) {
        const p = prompts[next++]!;
        const out = await spawnOnce(script, p);
        if (!out.startsWith("ok")) throw new Error(`agent said ${out}`);
      }
    }),
  );
  return performance.now() - started;
}

/** Samples this process's RSS while `work` runs. */
async function withPeakRss<T>(work: () => Promise<T>): Promise<{ value: T; peakMiB: number }> {
  let peak = process.memoryUsage().rss;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 10);
  try {
    const value = await work();
    peak = Math.max(peak, process.memoryUsage().rss);
    return { value, peakMiB: peak / 2 ** 20 };
  } finally {
    clearInterval(timer);
  }
}

export async function bench(ctx: BenchContext): Promise<Record<string, unknown>> {
  const dir = join(ctx.tmp, "orchestration");
  const skillDir = join(dir, "repo/.agents/skills/bench-skill");
  mkdirSync(skillDir, { recursive: true });
  writeFileSync(join(skillDir, "SKILL.md"), "---\nname: bench-skill\ndescription: A skill for the benchmark.\n---\nBody.\n");
  const script = join(dir, "agent.mjs");
  writeFileSync(script, AGENT_SCRIPT);
  const skill: InstalledSkill = {
    name: "bench-skill",
    description: "A skill for the benchmark.",
    sourceDir: skillDir,
    files: ["SKILL.md"],
    contentHash: "bench",
  };
  const requests: TrialRequest[] = [];
  for (let c = 0; c < CASES; c++) {
    for (let t = 0; t < TRIALS; t++) {
      const prompt = `Case ${c}: answer ok.`;
      requests.push({
        key: trialKey({ mode: "skill", skillContentHash: "bench", prompt, files: [], trial: t }),
        skill: "bench-skill",
        caseId: `case-${c}`,
        mode: "skill",
        trial: t,
        prompt,
        files: [],
        install: [skill],
        seed: 1,
      });
    }
  }
  const n = requests.length;
  let floorMs = Number.POSITIVE_INFINITY;
  let runnerMs = Number.POSITIVE_INFINITY;
  let peakMiB = 0;
  for (let round = 0; round < ROUNDS; round++) {
    floorMs = Math.min(floorMs, await spawnFloor(script, requests.map((r) => r.prompt)));
    const { value, peakMiB: peak } = await withPeakRss(async () => {
      const started = performance.now();
      const out = await runTrials(requests, {
        agent: { adapter: "command", command: `node ${script}` },
        repoDir: join(dir, "repo"),
        concurrency: CONCURRENCY,
        timeoutMs: 60_000,
        maxRetries: 0,
        cache: { enabled: false, dir: join(dir, "cache") },
        budget: {},
        logger: quietLogger,
      });
      const ms = performance.now() - started;
      // The same assertion promptfoo gets: the output contains "ok".
      const passed = out.records.filter((r) => !r.error && r.output.includes("ok")).length;
      if (passed !== n) throw new Error(`only ${passed}/${n} trials passed`);
      return ms;
    });
    runnerMs = Math.min(runnerMs, value);
    peakMiB = Math.max(peakMiB, peak);
  }
  const floorPerTrial = floorMs / n;
  const runnerPerTrial = runnerMs / n;
  const overhead = runnerPerTrial - floorPerTrial;
  ctx.log(`orchestration: ${CASES} cases × ${TRIALS} trials = ${n}, concurrency ${CONCURRENCY}, best of ${ROUNDS}`);
  ctx.log(`orchestration.spawnFloorMsPerTrial ${floorPerTrial.toFixed(2)} ms`);
  ctx.log(`orchestration.runnerMsPerTrial     ${runnerPerTrial.toFixed(2)} ms`);
  ctx.log(`orchestration.overheadMsPerTrial   ${overhead.toFixed(2)} ms (goal ≤ 1 ms)`);
  ctx.log(`orchestration.peakRssMiB           ${peakMiB.toFixed(0)} MiB (whole bench process)`);
  const result: Record<string, unknown> = {
    "orchestration.trials": n,
    "orchestration.concurrency": CONCURRENCY,
    "orchestration.spawnFloorMsPerTrial": round2(floorPerTrial),
    "orchestration.runnerMsPerTrial": round2(runnerPerTrial),
    "orchestration.overheadMsPerTrial": round2(overhead),
    "orchestration.peakRssMiB": Math.round(peakMiB),
  };
  if (ctx.flags.withPromptfoo) Object.assign(result, await promptfoo(ctx, dir, script, n, floorPerTrial, overhead));
  return result;
}

const round2 = (x: number) => Math.round(x * 100) / 100;

async function promptfoo(
  ctx: BenchContext,
  dir: string,
  script: string,
  n: number,
  floorPerTrial: number,
  ourOverhead: number,
): Promise<Record<string, unknown>> {
  const pf = join(dir, "promptfoo");
  mkdirSync(pf, { recursive: true });
  writeFileSync(join(pf, "package.json"), '{"name":"pf-bench","private":true}\n');
  ctx.log(`orchestration.promptfoo: installing promptfoo@${PROMPTFOO_VERSION} …`);
  await execFileP("npm", ["install", "--no-audit", "--no-fund", "-E", `promptfoo@${PROMPTFOO_VERSION}`], {
    cwd: pf,
    maxBuffer: 64 * 2 ** 20,
  });
  const tests = Array.from({ length: CASES }, (_, c) => `  - vars: { prompt: "Case ${c}: answer ok." }`).join("\n");
  writeFileSync(
    join(pf, "promptfooconfig.yaml"),
    `prompts: ["{{prompt}}"]\nproviders:\n  - id: "exec: node ${script}"\ndefaultTest:\n  assert:\n    - type: contains\n      value: ok\ntests:\n${tests}\n`,
  );
  const env = {
    ...process.env,
    PROMPTFOO_DISABLE_TELEMETRY: "1",
    PROMPTFOO_DISABLE_UPDATE: "1",
    PROMPTFOO_DISABLE_SHARING: "1",
    PROMPTFOO_CONFIG_DIR: join(pf, ".promptfoo"),
  };
  const bin = join(pf, "node_modules/.bin/promptfoo");
  const args = ["-f", "%M", "-o", join(pf, "time.txt"), bin, "eval", "-c", "promptfooconfig.yaml", "--no-cache"];
  args.push("--repeat", String(TRIALS), "--max-concurrency", String(CONCURRENCY), "--no-table", "--no-write", "-o", "out.json");
  const started = performance.now();
  await execFileP("/usr/bin/time", args, { cwd: pf, env, maxBuffer: 64 * 2 ** 20 }).catch((e: { code?: number }) => {
    // promptfoo exits 100 when a test fails; anything else is a failed bench.
    if (e.code !== 100) throw e;
  });
  const ms = performance.now() - started;
  const out = JSON.parse(readFileSync(join(pf, "out.json"), "utf8")) as { results?: { stats?: { successes?: number } } };
  const successes = out.results?.stats?.successes ?? 0;
  const peakMiB = Number(readFileSync(join(pf, "time.txt"), "utf8").trim().split("\n").at(-1)) / 1024;
  const perTrial = ms / n;
  const overhead = perTrial - floorPerTrial;
  ctx.log(`orchestration.promptfoo ${PROMPTFOO_VERSION}: ${successes}/${n} passed, ${perTrial.toFixed(2)} ms/trial`);
  ctx.log(`orchestration.promptfoo.overheadMsPerTrial ${overhead.toFixed(2)} ms (ratio to ours ${(overhead / ourOverhead).toFixed(1)}×)`);
  ctx.log(`orchestration.promptfoo.peakRssMiB ${peakMiB.toFixed(0)} MiB`);
  return {
    "orchestration.promptfoo.version": PROMPTFOO_VERSION,
    "orchestration.promptfoo.passed": successes,
    "orchestration.promptfoo.msPerTrial": round2(perTrial),
    "orchestration.promptfoo.overheadMsPerTrial": round2(overhead),
    "orchestration.promptfoo.ratio": round2(overhead / ourOverhead),
    "orchestration.promptfoo.peakRssMiB": Math.round(peakMiB),
  };
}
