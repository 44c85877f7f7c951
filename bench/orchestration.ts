/**
 * Orchestration overhead of the trial runner (issue 3): ≥ 200 cases × 3 trials with a trivial `command` agent,
 * per-trial cost beyond spawning the agent. The spawn floor (the same script, same concurrency, plain
 * `child_process.spawn`) is measured in the same run. The cost is CPU time of the whole process tree (this
 * process + its reaped children, from `process.cpuUsage` and `/proc/self/stat`): on a shared 2-core machine wall
 * time swings by several times between two runs of the same thing, CPU time does not. Wall figures are reported
 * beside it. Goal: `orchestration.overheadMsPerTrial` ≤ 1 ms.
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
export const ROUNDS = 1;
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

/** CPU of reaped children (cutime + cstime, clock ticks of 10 ms), or 0 where /proc is not there. */
function childrenCpuMs(): number {
  try {
    const stat = readFileSync("/proc/self/stat", "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[13]) + Number(fields[14])) * 10;
  } catch {
    return 0;
  }
}

interface Cost {
  wallMs: number;
  /** This process (user + system). */
  parentCpuMs: number;
  /** Agent processes it spawned and reaped. */
  childCpuMs: number;
}

async function measure(work: () => Promise<void>): Promise<Cost> {
  const cpu0 = process.cpuUsage();
  const child0 = childrenCpuMs();
  const t0 = performance.now();
  await work();
  const wallMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  return { wallMs, parentCpuMs: (cpu.user + cpu.system) / 1000, childCpuMs: childrenCpuMs() - child0 };
}

const total = (c: Cost) => c.parentCpuMs + c.childCpuMs;

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
  let floor: Cost | undefined;
  let ours: Cost | undefined;
  let peakMiB = 0;
  const better = (a: Cost | undefined, b: Cost) => (!a || total(b) < total(a) ? b : a);
  for (let round = 0; round < ROUNDS; round++) {
    floor = better(floor, await measure(() => spawnFloor(script, requests.map((r) => r.prompt)).then(() => {})));
    const { value, peakMiB: peak } = await withPeakRss(() =>
      measure(async () => {
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
        // The same assertion promptfoo gets: the output contains "ok".
        const passed = out.records.filter((r) => !r.error && r.output.includes("ok")).length;
        if (passed !== n) throw new Error(`only ${passed}/${n} trials passed`);
      }),
    );
    ours = better(ours, value);
    peakMiB = Math.max(peakMiB, peak);
  }
  const f = floor!;
  const o = ours!;
  const overhead = (total(o) - total(f)) / n;
  const wallOverhead = (o.wallMs - f.wallMs) / n;
  ctx.log(`orchestration: ${CASES} cases × ${TRIALS} trials = ${n}, concurrency ${CONCURRENCY}, best of ${ROUNDS}`);
  ctx.log(`orchestration spawn floor: ${(total(f) / n).toFixed(2)} ms CPU/trial (agent ${(f.childCpuMs / n).toFixed(2)}), ${(f.wallMs / n).toFixed(2)} ms wall/trial`);
  ctx.log(`orchestration runner:      ${(total(o) / n).toFixed(2)} ms CPU/trial (agent ${(o.childCpuMs / n).toFixed(2)}), ${(o.wallMs / n).toFixed(2)} ms wall/trial`);
  ctx.log(`orchestration.overheadMsPerTrial ${overhead.toFixed(2)} ms CPU (goal ≤ 1 ms); wall difference ${wallOverhead.toFixed(2)} ms (load-dependent)`);
  ctx.log(`orchestration.peakRssMiB ${peakMiB.toFixed(0)} MiB (whole bench process)`);
  const result: Record<string, unknown> = {
    "orchestration.trials": n,
    "orchestration.concurrency": CONCURRENCY,
    "orchestration.overheadMsPerTrial": round2(overhead),
    "orchestration.runnerParentCpuMsPerTrial": round2(o.parentCpuMs / n),
    "orchestration.spawnFloorCpuMsPerTrial": round2(total(f) / n),
    "orchestration.runnerCpuMsPerTrial": round2(total(o) / n),
    "orchestration.spawnFloorWallMsPerTrial": round2(f.wallMs / n),
    "orchestration.runnerWallMsPerTrial": round2(o.wallMs / n),
    "orchestration.wallOverheadMsPerTrial": round2(wallOverhead),
    "orchestration.peakRssMiB": Math.round(peakMiB),
  };
  if (ctx.flags.withPromptfoo) Object.assign(result, await promptfoo(ctx, dir, script, n, f, overhead));
  return result;
}

const round2 = (x: number) => Math.round(x * 100) / 100;

async function promptfoo(
  ctx: BenchContext,
  dir: string,
  script: string,
  n: number,
  floor: Cost,
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
  const args = ["-f", "%e %U %S %M", "-o", join(pf, "time.txt"), bin, "eval", "-c", "promptfooconfig.yaml", "--no-cache"];
  args.push("--repeat", String(TRIALS), "--max-concurrency", String(CONCURRENCY), "--no-table", "--no-write", "-o", "out.json");
  await execFileP("/usr/bin/time", args, { cwd: pf, env, maxBuffer: 64 * 2 ** 20 }).catch((e: { code?: number }) => {
    // promptfoo exits 100 when a test fails; anything else is a failed bench.
    if (e.code !== 100) throw e;
  });
  const out = JSON.parse(readFileSync(join(pf, "out.json"), "utf8")) as { results?: { stats?: { successes?: number } } };
  const successes = out.results?.stats?.successes ?? 0;
  // GNU time: elapsed s, user s, system s (the whole reaped tree, agents included), max RSS KiB.
  const [elapsed, user, sys, maxKiB] = readFileSync(join(pf, "time.txt"), "utf8").trim().split("\n").at(-1)!.split(" ").map(Number);
  const cpuMs = (user! + sys!) * 1000;
  const overhead = (cpuMs - total(floor)) / n;
  const peakMiB = maxKiB! / 1024;
  const wallPerTrial = (elapsed! * 1000) / n;
  ctx.log(`orchestration.promptfoo ${PROMPTFOO_VERSION}: ${successes}/${n} passed, ${(cpuMs / n).toFixed(2)} ms CPU/trial, ${wallPerTrial.toFixed(2)} ms wall/trial`);
  ctx.log(`orchestration.promptfoo.overheadMsPerTrial ${overhead.toFixed(2)} ms CPU (ratio to ours ${(overhead / ourOverhead).toFixed(1)}×)`);
  ctx.log(`orchestration.promptfoo.peakRssMiB ${peakMiB.toFixed(0)} MiB (largest process of its tree)`);
  return {
    "orchestration.promptfoo.version": PROMPTFOO_VERSION,
    "orchestration.promptfoo.passed": successes,
    "orchestration.promptfoo.cpuMsPerTrial": round2(cpuMs / n),
    "orchestration.promptfoo.wallMsPerTrial": round2(wallPerTrial),
    "orchestration.promptfoo.overheadMsPerTrial": round2(overhead),
    "orchestration.promptfoo.ratio": round2(overhead / ourOverhead),
    "orchestration.promptfoo.peakRssMiB": Math.round(peakMiB),
  };
}
