/**
 * Orchestration overhead of the trial runner (issue 3): ≥ 200 cases × 3 trials with a trivial `command` agent,
 * per-trial cost beyond spawning the agent. The spawn floor (the same agent, same concurrency, plain
 * `child_process.spawn`) is measured in the same run. The cost is the CPU time of the orchestrating process
 * (`process.cpuUsage`), runner minus floor, per trial: on the shared 2-core machine wall time swings several-fold
 * between two runs of the same thing; the orchestrator's CPU swings much less. Wall figures are reported beside it.
 *
 * The agent is a four-line `sh` script. A Node agent costs ~130 ms of CPU per start: eight of them starting at once
 * keep both cores busy, which slows everything the orchestrator does (and by more the more it does) by a factor
 * that changes from minute to minute, so the same code measured 2.8 and 4.9 ms in two runs. Even with the sh
 * agent, the cost of a fork drifts by more than the overhead measured within seconds. So each round runs the
 * battery in `CHUNKS` slices of 50 trials, floor and runner alternating slice by slice (in turn first), and the
 * figure is the median of the `ROUNDS` per-round differences: a slow stretch lands on both sides of a difference.
 * Goal: `orchestration.overheadMsPerTrial` ≤ 1 ms.
 *
 * With flag `withPromptfoo`: installs promptfoo 0.121.20 (the last for Node 20) into a temp folder and runs the
 * same battery there (exec provider, the same `contains` assertion, no cache, same concurrency), reporting
 * `orchestration.promptfoo.{version, overheadMsPerTrial, ratio}` and peak memory of both; and whole process
 * against whole process (`orchestration.wholeProcess.*`, see `wholeProcesses`).
 */
import { execFile, spawn } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { emptyResult } from "../src/agents/result.js";
import type { AgentAdapter, InstalledSkill, Logger, TrialRequest } from "../src/model/index.js";
import { trialKey } from "../src/plan/keys.js";
import { type RunOptions, runTrials } from "../src/run/runner.js";
import { keepSampling } from "./budget.js";
import { median } from "./stats.js";
import type { BenchContext } from "./types.js";

const execFileP = promisify(execFile);

export const CASES = 100;
export const TRIALS = 3;
export const CONCURRENCY = 8;
/** Measured rounds: as many as the section's time allows, between `MIN_ROUNDS` and `ROUNDS` (after one warm-up). */
export const ROUNDS = 5;
export const MIN_ROUNDS = 2;
/** Each round alternates floor and runner over this many slices of the battery (100 trials each). */
export const CHUNKS = 6;
export const PROMPTFOO_VERSION = "0.121.20";

// promptfoo's exec provider passes the prompt as the first argument; skillgate's command protocol on stdin (one line).
const AGENT_SCRIPT = `#!/bin/sh
if [ $# -gt 0 ]; then p=$1; else IFS= read -r p; fi
printf 'ok %s' "\${#p}"
`;

const quietLogger: Logger = {
  info() {},
  warn() {},
  error() {},
  debug() {},
  group: (_n, fn) => fn(),
  progress() {},
};

/** The agent's environment on both sides (the runner scrubs it the same way). */
function agentEnv(home: string): Record<string, string> {
  return { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home };
}

function spawnOnce(script: string, prompt: string, env: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    // The same spawn options as the runner's (own process group, three pipes), minus everything else.
    const child = spawn(script, [], { env, detached: true, stdio: ["pipe", "pipe", "pipe"] });
    child.stderr.resume();
    let out = "";
    child.stdout.on("data", (c: Buffer) => {
      out += c.toString();
    });
    child.on("error", reject);
    child.on("close", () => resolve(out));
    child.stdin.end(prompt);
  });
}

async function spawnFloor(script: string, prompts: string[], env: Record<string, string>): Promise<number> {
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < prompts.length) {
        const p = prompts[next++]!;
        const out = await spawnOnce(script, p, env);
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
    return (Number(fields[13]) + Number(fields[14])) * CLOCK_TICK_MS;
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

/** The cost of `work`: this process's CPU, and the agent processes it reaped. */
async function measure(work: () => Promise<void>): Promise<Cost> {
  const cpu0 = process.cpuUsage();
  const child0 = childrenCpuMs();
  const t0 = performance.now();
  await work();
  const wallMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  return { wallMs, parentCpuMs: (cpu.user + cpu.system) / 1000, childCpuMs: childrenCpuMs() - child0 };
}

function addCost(a: Cost, b: Cost): Cost {
  return {
    wallMs: a.wallMs + b.wallMs,
    parentCpuMs: a.parentCpuMs + b.parentCpuMs,
    childCpuMs: a.childCpuMs + b.childCpuMs,
  };
}

/** Peak RSS of this process so far (VmHWM, KiB), or undefined where /proc is not there. */
function peakRssKiB(): number | undefined {
  try {
    const m = /VmHWM:\s+(\d+)/.exec(readFileSync("/proc/self/status", "utf8"));
    return m ? Number(m[1]) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Peak RSS of this process while `work` runs. Linux resets the high-water mark on writing 5 to clear_refs, so the
 * kernel does the watching; elsewhere a 10 ms sampler does (it costs the measured side CPU, so it is the fallback).
 */
async function withPeakRss<T>(work: () => Promise<T>): Promise<{ value: T; peakMiB: number }> {
  let reset = false;
  try {
    writeFileSync("/proc/self/clear_refs", "5");
    reset = peakRssKiB() !== undefined;
  } catch {
    // not Linux, or not allowed
  }
  if (reset) {
    const value = await work();
    return { value, peakMiB: (peakRssKiB() ?? 0) / 1024 };
  }
  let peak = process.memoryUsage.rss();
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 10);
  try {
    const value = await work();
    peak = Math.max(peak, process.memoryUsage.rss());
    return { value, peakMiB: peak / 2 ** 20 };
  } finally {
    clearInterval(timer);
  }
}

export async function bench(ctx: BenchContext): Promise<Record<string, unknown>> {
  const dir = join(ctx.tmp, "orchestration");
  const skillDir = join(dir, "repo/.agents/skills/bench-skill");
  mkdirSync(skillDir, { recursive: true });
  writeFileSync(
    join(skillDir, "SKILL.md"),
    "---\nname: bench-skill\ndescription: A skill for the benchmark.\n---\nBody.\n",
  );
  const script = join(dir, "agent.sh");
  writeFileSync(script, AGENT_SCRIPT, { mode: 0o755 });
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
  const env = agentEnv(dir);
  const floors: Cost[] = [];
  const runs: Cost[] = [];
  let peakMiB = 0;
  const runOptions: RunOptions = {
    agent: { adapter: "command", command: script },
    repoDir: join(dir, "repo"),
    concurrency: CONCURRENCY,
    timeoutMs: 60_000,
    maxRetries: 0,
    cache: { enabled: false, dir: join(dir, "cache") },
    budget: {},
    logger: quietLogger,
  };
  // One slice of each first, unmeasured: the first pass pays for JIT compilation and cold file caches.
  const chunkSize = n / CHUNKS;
  const chunks = Array.from({ length: CHUNKS }, (_, k) => requests.slice(k * chunkSize, (k + 1) * chunkSize));
  const floorOf = (chunk: TrialRequest[]) =>
    measure(() =>
      spawnFloor(
        script,
        chunk.map((r) => r.prompt),
        env,
      ).then(() => {}),
    );
  const runnerOf = (chunk: TrialRequest[]) =>
    withPeakRss(() =>
      measure(async () => {
        const out = await runTrials(chunk, runOptions);
        // The same assertion promptfoo gets: the output contains "ok".
        const passed = out.records.filter((r) => !r.error && r.output.includes("ok")).length;
        if (passed !== chunk.length) throw new Error(`only ${passed}/${chunk.length} trials passed`);
      }),
    );
  let roundsFrom = Date.now();
  for (let round = -1; round < 0 || keepSampling(ctx, round, MIN_ROUNDS, ROUNDS, roundsFrom); round++) {
    if (round === 0) roundsFrom = Date.now();
    let floor: Cost = { wallMs: 0, parentCpuMs: 0, childCpuMs: 0 };
    let ours: Cost = floor;
    // The warm-up (round -1) is one slice of each: JIT compilation and file caches are warm after it.
    for (const [k, chunk] of (round < 0 ? chunks.slice(0, 1) : chunks).entries()) {
      // In turn first, so neither side always follows the other.
      let f: Cost;
      let o: Awaited<ReturnType<typeof runnerOf>>;
      if (k % 2 === 0) {
        f = await floorOf(chunk);
        o = await runnerOf(chunk);
      } else {
        o = await runnerOf(chunk);
        f = await floorOf(chunk);
      }
      floor = addCost(floor, f);
      ours = addCost(ours, o.value);
      if (round >= 0) peakMiB = Math.max(peakMiB, o.peakMiB);
    }
    if (round < 0) continue;
    floors.push(floor);
    runs.push(ours);
  }
  // Diagnostic, not a goal: the same battery through the runner with an in-process agent (a workspace per trial,
  // no process): what the runner's own per-trial work costs when no fork makes every page it writes a fault.
  const inProcess: AgentAdapter = {
    name: "in-process",
    skillsDir: ".agents/skills",
    envAllow: [],
    identity: () => "in-process",
    async run(request) {
      await new Promise((r) => setImmediate(r));
      return { ...emptyResult(), output: `ok ${request.prompt.length}` };
    },
  };
  const withoutSpawn: number[] = [];
  for (let round = -1; round < MIN_ROUNDS; round++) {
    const c = await measure(async () => {
      await runTrials(requests, { ...runOptions, adapter: inProcess });
    });
    if (round >= 0) withoutSpawn.push(c.parentCpuMs / n);
  }
  const runnerOnly = median(withoutSpawn);
  const perTrial = (xs: number[]) => xs.map((x) => x / n);
  const diffs = perTrial(runs.map((o, i) => o.parentCpuMs - floors[i]!.parentCpuMs));
  const overhead = median(diffs);
  const f = {
    parentCpuMs: median(floors.map((c) => c.parentCpuMs)),
    childCpuMs: median(floors.map((c) => c.childCpuMs)),
    wallMs: median(floors.map((c) => c.wallMs)),
  };
  const o = {
    parentCpuMs: median(runs.map((c) => c.parentCpuMs)),
    childCpuMs: median(runs.map((c) => c.childCpuMs)),
    wallMs: median(runs.map((c) => c.wallMs)),
  };
  const wallOverhead = median(perTrial(runs.map((r, i) => r.wallMs - floors[i]!.wallMs)));
  ctx.log(
    `orchestration: ${CASES} cases × ${TRIALS} trials = ${n}, concurrency ${CONCURRENCY}, sh agent, ${runs.length} rounds of ${CHUNKS} alternating slices (medians)`,
  );
  ctx.log(
    `orchestration spawn floor: ${(f.parentCpuMs / n).toFixed(2)} ms orchestrator CPU/trial, agent ${(f.childCpuMs / n).toFixed(2)} ms CPU, ${(f.wallMs / n).toFixed(2)} ms wall/trial`,
  );
  ctx.log(
    `orchestration runner:      ${(o.parentCpuMs / n).toFixed(2)} ms orchestrator CPU/trial, agent ${(o.childCpuMs / n).toFixed(2)} ms CPU, ${(o.wallMs / n).toFixed(2)} ms wall/trial`,
  );
  ctx.log(
    `orchestration.overheadMsPerTrial ${overhead.toFixed(2)} ms CPU (regression guard ≤ 5 ms), per round ${diffs.map((d) => d.toFixed(2)).join(" ")}; wall difference ${wallOverhead.toFixed(2)} ms (load-dependent)`,
  );
  ctx.log(
    `orchestration.runnerWithoutSpawnMsPerTrial ${runnerOnly.toFixed(2)} ms CPU (diagnostic: the runner with an in-process agent, workspaces included, no agent process)`,
  );
  ctx.log(`orchestration.peakRssMiB ${peakMiB.toFixed(0)} MiB (whole bench process)`);
  const result: Record<string, unknown> = {
    "orchestration.trials": n,
    "orchestration.concurrency": CONCURRENCY,
    "orchestration.rounds": runs.length,
    "orchestration.slicesPerRound": CHUNKS,
    "orchestration.overheadMsPerTrial": round2(overhead),
    "orchestration.overheadMsPerTrialByRound": diffs.map(round2),
    "orchestration.runnerCpuMsPerTrial": round2(o.parentCpuMs / n),
    "orchestration.spawnFloorCpuMsPerTrial": round2(f.parentCpuMs / n),
    "orchestration.agentCpuMsPerTrial": round2(o.childCpuMs / n),
    "orchestration.spawnFloorWallMsPerTrial": round2(f.wallMs / n),
    "orchestration.runnerWallMsPerTrial": round2(o.wallMs / n),
    "orchestration.wallOverheadMsPerTrial": round2(wallOverhead),
    "orchestration.runnerWithoutSpawnMsPerTrial": round2(runnerOnly),
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
  floor: Pick<Cost, "parentCpuMs">,
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
  // The install wrote thousands of files: flush them now, or their write-back loads the machine while promptfoo
  // is measured (and the sections after it).
  await execFileP("sync");
  const tests = Array.from({ length: CASES }, (_, c) => `  - vars: { prompt: "Case ${c}: answer ok." }`).join(
    "\n",
  );
  writeFileSync(
    join(pf, "promptfooconfig.yaml"),
    `prompts: ["{{prompt}}"]\nproviders:\n  - id: "exec: ${script}"\ndefaultTest:\n  assert:\n    - type: contains\n      value: ok\ntests:\n${tests}\n`,
  );
  // Its agents get the scrubbed environment too (promptfoo's exec provider passes its own env on).
  const env = {
    ...agentEnv(pf),
    PROMPTFOO_DISABLE_TELEMETRY: "1",
    PROMPTFOO_DISABLE_UPDATE: "1",
    PROMPTFOO_DISABLE_SHARING: "1",
    PROMPTFOO_CONFIG_DIR: join(pf, ".promptfoo"),
  };
  const bin = join(pf, "node_modules/promptfoo/dist/src/main.js");
  const args = [bin, "eval", "-c", "promptfooconfig.yaml", "--no-cache", "--repeat", String(TRIALS)];
  args.push("--max-concurrency", String(CONCURRENCY), "--no-table", "--no-write", "-o", "out.json");
  const started = performance.now();
  const { cpuMs, peakKiB } = await runPolled(process.execPath, args, pf, env);
  const wallPerTrial = (performance.now() - started) / n;
  await execFileP("sync");
  const out = JSON.parse(readFileSync(join(pf, "out.json"), "utf8")) as {
    results?: { stats?: { successes?: number } };
  };
  const successes = out.results?.stats?.successes ?? 0;
  const overhead = (cpuMs - floor.parentCpuMs) / n;
  const peakMiB = peakKiB / 1024;
  const whole = await wholeProcesses(ctx, dir, script, pf, env, args);
  ctx.log(
    `orchestration.promptfoo ${PROMPTFOO_VERSION}: ${successes}/${n} passed, ${(cpuMs / n).toFixed(2)} ms orchestrator CPU/trial, ${wallPerTrial.toFixed(2)} ms wall/trial`,
  );
  ctx.log(
    `orchestration.promptfoo.overheadMsPerTrial ${overhead.toFixed(2)} ms CPU; orchestration.promptfoo.ratio (ours / promptfoo) ${(ourOverhead / overhead).toFixed(2)} (not like for like: our runner in a warm process against promptfoo's whole process; not a goal)`,
  );
  ctx.log(`orchestration.promptfoo.peakRssMiB ${peakMiB.toFixed(0)} MiB`);
  return {
    "orchestration.promptfoo.version": PROMPTFOO_VERSION,
    "orchestration.promptfoo.passed": successes,
    "orchestration.promptfoo.cpuMsPerTrial": round2(cpuMs / n),
    "orchestration.promptfoo.wallMsPerTrial": round2(wallPerTrial),
    "orchestration.promptfoo.overheadMsPerTrial": round2(overhead),
    // The goal reads "ratio ≤ 0.25": our overhead as a fraction of promptfoo's.
    "orchestration.promptfoo.ratio": round2(ourOverhead / overhead),
    "orchestration.promptfoo.peakRssMiB": Math.round(peakMiB),
    ...whole,
  };
}

/**
 * Whole process against whole process (#19 item 7): `skillgate run` (a fresh `dist/cli.js` process on a repository
 * holding the same battery: one skill, `CASES` cases of the same prompt and assertion, `TRIALS` trials, the same
 * agent, no cache, no sandbox, as promptfoo has none) and `promptfoo eval`, each timed with every process it
 * started (the machine's busy CPU while it runs: both sides' agents). The agents' own
 * CPU (the script run as many times, from `sh`) is subtracted, per agent call: skillgate also runs each case
 * without the skill (its baseline trials), so it makes more calls than promptfoo for the same battery.
 */
async function wholeProcesses(
  ctx: BenchContext,
  dir: string,
  script: string,
  pf: string,
  pfEnv: Record<string, string>,
  pfArgs: string[],
): Promise<Record<string, unknown>> {
  const repo = join(dir, "whole-repo");
  const put = (rel: string, text: string) => {
    mkdirSync(join(repo, rel, ".."), { recursive: true });
    writeFileSync(join(repo, rel), text);
  };
  put(
    ".skillgate.yml",
    `agent:\n  adapter: command\n  command: ${JSON.stringify(script)}\nconcurrency: ${CONCURRENCY}\nbudget:\n  maxAgentCalls: 5000\n`,
  );
  put(
    ".claude/skills/bench/SKILL.md",
    "---\nname: bench\ndescription: Answers bench cases.\n---\nAnswer ok.\n",
  );
  put(".agent/evals/bench/meta.json", JSON.stringify({ trials: TRIALS }));
  for (let c = 0; c < CASES; c++)
    put(
      `.agent/evals/bench/prompts/case-${c}.yaml`,
      `id: case-${c}\nprompt: "Case ${c}: answer ok."\nassertions:\n  - id: ok\n    type: contains\n    value: ok\n`,
    );
  const report = join(dir, "whole-report.json");
  const ours = await busyCpuWhile(
    process.execPath,
    [join(ctx.root, "dist/cli.js"), "run", "--repo", repo, "--no-cache", "--json", report, "--quiet"],
    dir,
    { ...agentEnv(dir), SKILLGATE_ISOLATION: "none" },
  );
  const calls = (JSON.parse(readFileSync(report, "utf8")) as { cost: { agentCalls: number } }).cost
    .agentCalls;
  const theirs = await busyCpuWhile(process.execPath, pfArgs, pf, pfEnv);
  const pfCalls = CASES * TRIALS;
  // The agents alone: the script started as many times from sh, one after another.
  const agentRuns = 600;
  const floor = await busyCpuWhile(
    "/bin/sh",
    [
      "-c",
      `i=0; while [ $i -lt ${agentRuns} ]; do echo 'Case 1: answer ok.' | ${JSON.stringify(script)} >/dev/null; i=$((i+1)); done`,
    ],
    dir,
    agentEnv(dir),
  );
  const agentMs = floor.cpuMs / agentRuns;
  const ourPerCall = ours.cpuMs / calls - agentMs;
  const theirPerCall = theirs.cpuMs / pfCalls - agentMs;
  ctx.log(
    `orchestration.wholeProcess: skillgate run ${ours.cpuMs.toFixed(0)} ms CPU for ${calls} agent calls (${(ours.wallMs / 1000).toFixed(1)} s wall), promptfoo eval ${theirs.cpuMs.toFixed(0)} ms for ${pfCalls} (${(theirs.wallMs / 1000).toFixed(1)} s wall); the agent alone ${agentMs.toFixed(2)} ms a call; beyond it, per call: ${ourPerCall.toFixed(2)} vs ${theirPerCall.toFixed(2)} ms CPU, ratio ${(ourPerCall / theirPerCall).toFixed(2)}; wall per call ${(ours.wallMs / calls).toFixed(1)} vs ${(theirs.wallMs / pfCalls).toFixed(1)} ms`,
  );
  return {
    "orchestration.wholeProcess.skillgate": {
      cpuMs: Math.round(ours.cpuMs),
      wallMs: Math.round(ours.wallMs),
      agentCalls: calls,
    },
    "orchestration.wholeProcess.promptfoo": {
      cpuMs: Math.round(theirs.cpuMs),
      wallMs: Math.round(theirs.wallMs),
      agentCalls: pfCalls,
    },
    "orchestration.wholeProcess.agentCpuMsPerCall": round2(agentMs),
    "orchestration.wholeProcess.cpuMsPerCallBeyondAgent": {
      skillgate: round2(ourPerCall),
      promptfoo: round2(theirPerCall),
    },
    "orchestration.wholeProcess.ratio": round2(ourPerCall / theirPerCall),
    "orchestration.wholeProcess.wallMsPerCall": {
      skillgate: round2(ours.wallMs / calls),
      promptfoo: round2(theirs.wallMs / pfCalls),
    },
  };
}

/** The machine's busy CPU so far (all cores, every process: /proc/stat's first line less idle and iowait), ms. */
function machineBusyMs(): number {
  const f = readFileSync("/proc/stat", "utf8").split("\n")[0]!.trim().split(/\s+/).slice(1).map(Number);
  const total = f.slice(0, 8).reduce((a, b) => a + b, 0);
  return (total - (f[3] ?? 0) - (f[4] ?? 0)) * CLOCK_TICK_MS;
}

/**
 * Runs a command and measures the machine's busy CPU while it runs: the whole process tree, daemons it leaves
 * behind and reparented children included (the parent's reaped-children time misses those). On the bench's
 * otherwise idle machine that is the command's cost; on a
 * busy one it is an upper bound for both sides alike.
 */
function busyCpuWhile(
  file: string,
  args: string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
): Promise<{ cpuMs: number; wallMs: number }> {
  const started = performance.now();
  const before = machineBusyMs();
  return new Promise((resolve, reject) => {
    execFile(file, args, { cwd, env, maxBuffer: 64 * 2 ** 20 }, (err) => {
      const code = (err as { code?: number } | null)?.code ?? 0;
      // skillgate exits 1 on a failing verdict, promptfoo 100 on a failing test; both still report.
      if (code !== 0 && code !== 1 && code !== 100) return reject(new Error(`${file} exited ${code}`));
      // Processes that outlive it get a moment to finish.
      setTimeout(() => {
        resolve({ cpuMs: machineBusyMs() - before, wallMs: performance.now() - started });
      }, 300);
    });
  });
}

const CLOCK_TICK_MS = 10;
const POLL_MS = 20;

/**
 * Runs a process and polls its own CPU (utime + stime, children excluded) and peak RSS (VmHWM) from /proc until
 * it exits; the last reading is short of the end by at most one poll interval.
 */
function runPolled(
  file: string,
  args: string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
): Promise<{ cpuMs: number; peakKiB: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { cwd, env, stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (c: Buffer) => {
      stderr = (stderr + c.toString()).slice(-4000);
    });
    let cpuMs = 0;
    let peakKiB = 0;
    const poll = () => {
      try {
        const stat = readFileSync(`/proc/${child.pid}/stat`, "utf8");
        const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
        cpuMs = (Number(f[11]) + Number(f[12])) * CLOCK_TICK_MS;
        const hwm = /VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, "utf8"));
        if (hwm) peakKiB = Math.max(peakKiB, Number(hwm[1]));
      } catch {
        // exited between polls
      }
    };
    const timer = setInterval(poll, POLL_MS);
    child.on("error", reject);
    child.on("exit", (code) => {
      clearInterval(timer);
      // promptfoo exits 100 when a test fails; the pass count is checked by the caller.
      if (code !== 0 && code !== 100) reject(new Error(`promptfoo exited ${code}: ${stderr}`));
      else resolve({ cpuMs, peakKiB });
    });
  });
}
