/**
 * A PR's cost on catalogues of thousands of skills (issue #42). For each size (`--scale-sizes`, default 100, 1,000
 * and 10,000 skills), a catalogue from `catalogue.ts` committed to a git repository (branch `main`), and a PR
 * commit on top of it rewording one description (a skill with a seed suite and a trigger set of 5 + 5 prompts, so
 * its trigger battery runs against the whole catalogue). Whole `dist/cli.js` processes, each under GNU time (CPU
 * of the process and everything it waited for, peak RSS of the largest process):
 * - `validate --repo R`;
 * - `plan --repo R --base main --no-cache`;
 * - `run --repo R --base main --no-cache` with a `command` agent that answers at once (a `sh` script that never
 *   activates a skill), confined at this machine's isolation level; `firstAgentCallMs` is the wall time from the
 *   process's start to the agent's first call (skillgate's own time before any agent call).
 * Then `setupMs`: the per-trial set-up of a trigger trial that installs the whole catalogue, in process
 * (`TrialWorkspaces.prepare` and `dispose`, median over `SETUP_TRIALS` after the first), with the workspace parent
 * the runner would pick, for each way a trial gets the catalogue (src/agents/catalogue.ts): `mount` (confined
 * agents: the run's one read-only copy bound in; the first trial writes it), `symlinks` (unconfined), and `copy`
 * (a copy per trial, as before #42). And `sweep`: `run --repo R` with no base on a 900-skill catalogue (every suite's
 * batteries, every trigger set's competitor prompts), the sweep of the regression in #42 (`--scale-sweep-skills N`
 * or `none`). `--scale-validate-sizes` adds `validate` alone at registry sizes (`validateAtScale`); `--scale-sizes
 * none` leaves out the PR sizes.
 */
import { execFileSync, spawn } from "node:child_process";
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import type { CatalogueSharing } from "../src/agents/catalogue.js";
import { TrialWorkspaces } from "../src/agents/workspace.js";
import { chooseWorkspaceParent } from "../src/agents/workspace-parent.js";
import { assertionLookup } from "../src/detect/assertion-types.js";
import { discoverRepository } from "../src/detect/discover.js";
import "../src/grade/assertions/index.js";
import * as registry from "../src/grade/assertions/registry.js";
import type { InstalledSkill, TrialRequest } from "../src/model/index.js";
import { isolation } from "../src/sandbox/isolation/detect.js";
import { countFlag } from "./budget.js";
import { type GeneratedSkill, rewordDescription, writeCatalogue } from "./catalogue.js";
import type { BenchContext } from "./types.js";

const DEFAULT_SIZES = [100, 1_000, 10_000];
const SWEEP_SKILLS = 900;
const SETUP_TRIALS = 7;

/**
 * Answers at once, activating nothing; the first call leaves the time it started (ns) in `first`, in a folder the
 * sandbox is given writable by the trusted config (`agentConfig`).
 */
const agentScript = (first: string) => `#!/bin/sh
[ -e ${first} ] || date +%s%N > ${first}
printf '{"output":"42","skillsActivated":[]}'
`;

const agentConfig = (agent: string, probe: string) =>
  `agent:\n  adapter: command\n  command: ${JSON.stringify(agent)}\n  options:\n    sandbox:\n      writable: [${JSON.stringify(probe)}]\nbudget:\n  maxAgentCalls: 100000\n`;

interface Measured {
  wallMs: number;
  cpuMs: number;
  peakMiB: number;
  exit: number;
  firstAgentCallMs?: number;
}

const gnuTime = existsSync("/usr/bin/time") ? "/usr/bin/time" : undefined;

/** One whole `dist/cli.js` process under GNU time; `first` is the agent's first-call file, removed first. */
function measure(ctx: BenchContext, args: string[], scratch: string, first?: string): Promise<Measured> {
  const timing = join(scratch, "time.txt");
  if (first) rmSync(first, { force: true });
  const cli = [process.execPath, join(ctx.root, "dist/cli.js"), ...args];
  const [file, argv] = gnuTime
    ? [gnuTime, ["-f", "%e %U %S %M", "-o", timing, ...cli]]
    : [cli[0]!, cli.slice(1)];
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(file, argv, { stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => {
      stderr = (stderr + d.toString()).slice(-4000);
    });
    child.on("error", reject);
    child.on("close", (code) => {
      const wallMs = Date.now() - started;
      const exit = code ?? -1;
      // 0 pass, 1 fail: both a measured run; anything else is the bench's problem.
      if (exit > 1)
        return reject(new Error(`${args.slice(0, 1)} exited ${exit}: ${stderr.trim().slice(-800)}`));
      const out: Measured = { wallMs, cpuMs: Number.NaN, peakMiB: Number.NaN, exit };
      if (gnuTime) {
        const [, user, sys, rss] = readFileSync(timing, "utf8")
          .trim()
          .split("\n")
          .pop()!
          .split(" ")
          .map(Number);
        out.cpuMs = Math.round((user! + sys!) * 1000);
        out.peakMiB = Math.round(rss! / 1024);
      }
      if (first && existsSync(first)) {
        const ns = BigInt(readFileSync(first, "utf8").trim());
        out.firstAgentCallMs = Number(ns / 1_000_000n) - started;
      }
      resolve(out);
    });
  });
}

function git(dir: string, ...args: string[]): string {
  return execFileSync(
    "git",
    ["-C", dir, "-c", "user.name=bench", "-c", "user.email=bench@localhost", ...args],
    {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    },
  );
}

/** The repository of one size: the catalogue and its config on `main`, the PR on `pr` (checked out). */
function makeRepository(dir: string, size: number, config: string): GeneratedSkill {
  const catalogue = writeCatalogue(dir, size);
  writeFileSync(join(dir, ".skillgate.yml"), config);
  git(dir, "init", "-q", "-b", "main");
  git(dir, "add", "-A");
  git(dir, "commit", "-q", "-m", "catalogue");
  const edited = catalogue.withTriggerSet[0]!;
  git(dir, "checkout", "-q", "-b", "pr");
  const file = join(dir, edited.dir, "SKILL.md");
  writeFileSync(file, rewordDescription(readFileSync(file, "utf8"), edited));
  git(dir, "commit", "-q", "-am", "reword one description");
  return edited;
}

/** Per-trial set-up of a trigger trial installing every skill of `repo`, in process (ms: first, median after). */
function setupTimes(
  repo: string,
  trials: number,
): Record<CatalogueSharing, { firstMs: number; medianMs: number }> {
  const found = discoverRepository(repo, {
    profile: "claude-code",
    assertionTypes: assertionLookup(registry),
  });
  // As the planner makes them: files listed when installed, never hashed.
  const install: InstalledSkill[] = found.skills.map((s) => ({
    name: s.name,
    description: s.description,
    sourceDir: join(repo, s.dir),
    get files() {
      return s.folder.files;
    },
    get contentHash() {
      return s.folder.contentHash;
    },
  }));
  const request: TrialRequest = {
    key: "bench",
    skill: install[0]!.name,
    caseId: "trigger/fire/0",
    mode: "trigger",
    trial: 0,
    prompt: "bench",
    files: [],
    install,
    seed: 0,
  };
  const time = (sharing: CatalogueSharing) => {
    const workspaces = new TrialWorkspaces(".agents/skills", chooseWorkspaceParent().next, Date.now, sharing);
    const times: number[] = [];
    for (let i = 0; i <= trials; i++) {
      const t0 = performance.now();
      const ws = workspaces.prepare(request);
      workspaces.dispose(ws);
      times.push(performance.now() - t0);
    }
    void workspaces.drain();
    const rest = times.slice(1).sort((a, b) => a - b);
    return { firstMs: round(times[0]!), medianMs: round(rest[rest.length >> 1]!) };
  };
  return { mount: time("mount"), symlinks: time("symlinks"), copy: time("copy") };
}

const round = (x: number) => Math.round(x * 10) / 10;

/** `--scale-sizes` (or `--scale-validate-sizes`): skill counts ≥ 10, comma-separated, or `none`. */
function sizesOf(ctx: BenchContext, flag: "scaleSizes" | "scaleValidateSizes", fallback: number[]): number[] {
  const raw = ctx.flags[flag];
  if (raw === undefined) return fallback;
  if (raw === "none") return [];
  const sizes = String(raw).split(",").map(Number);
  if (sizes.some((n) => !Number.isInteger(n) || n < 10))
    throw new Error(
      `bench: --${flag === "scaleSizes" ? "scale-sizes" : "scale-validate-sizes"} must be a comma-separated list of skill counts ≥ 10, or none`,
    );
  return sizes;
}

/**
 * `validate` alone on catalogues of `sizes` skills (`--scale-validate-sizes`, e.g. a registry's 60,000): no git
 * repository, no PR. Its CPU at the two largest sizes gives the growth exponent.
 */
async function validateAtScale(
  ctx: BenchContext,
  scratch: string,
  sizes: number[],
  figures: Record<string, unknown>,
): Promise<void> {
  const cpu: [number, number][] = [];
  for (const size of sizes) {
    const repo = join(scratch, `validate-${size}`);
    writeCatalogue(repo, size);
    const m = await measure(ctx, ["validate", "--repo", repo], scratch);
    rmSync(repo, { recursive: true, force: true });
    figures[`scale.validate${size}`] = m;
    cpu.push([size, m.cpuMs]);
    ctx.log(`scale validate ${size} skills: ${m.cpuMs} ms CPU, ${m.wallMs} ms wall, ${m.peakMiB} MiB`);
  }
  const [a, b] = [...cpu].sort((x, y) => x[0] - y[0]).slice(-2);
  if (a && b && a[0] !== b[0]) {
    const exponent = Math.round((Math.log(b[1] / a[1]) / Math.log(b[0] / a[0])) * 100) / 100;
    figures["scale.validateGrowthExponent"] = exponent;
    ctx.log(`scale validate: CPU grows as skills^${exponent} from ${a[0]} to ${b[0]} skills`);
  }
}

export async function bench(ctx: BenchContext): Promise<Record<string, unknown>> {
  if (!existsSync(join(ctx.root, "dist/cli.js")))
    throw new Error("dist/ is missing: run `npm run bundle` first");
  const inMemory = statSync("/dev/shm", { throwIfNoEntry: false })?.isDirectory() === true;
  const scratch = inMemory ? mkdtempSync("/dev/shm/skillgate-bench-scale-") : join(ctx.tmp, "scale");
  mkdirSync(scratch, { recursive: true });
  const level = (await isolation()).level;
  const setupTrials = countFlag(ctx, "scaleSetupTrials") ?? SETUP_TRIALS;
  const figures: Record<string, unknown> = {
    "scale.isolation": level,
    "scale.timedBy": gnuTime ? "GNU time" : "wall only",
  };
  try {
    const probe = join(scratch, "probe");
    mkdirSync(probe, { mode: 0o777 });
    chmodSync(probe, 0o777); // the sandbox uid writes there
    const first = join(probe, "first-call");
    const agent = join(scratch, "agent.sh");
    writeFileSync(agent, agentScript(first), { mode: 0o755 });
    const config = agentConfig(agent, probe);
    for (const size of sizesOf(ctx, "scaleSizes", DEFAULT_SIZES)) {
      const repo = join(scratch, `repo-${size}`);
      const g0 = Date.now();
      const edited = makeRepository(repo, size, config);
      const generateMs = Date.now() - g0;
      const validate = await measure(ctx, ["validate", "--repo", repo], scratch);
      const plan = await measure(
        ctx,
        ["plan", "--repo", repo, "--base", "main", "--no-cache", "--quiet"],
        scratch,
      );
      const json = join(scratch, `run-${size}.json`);
      const run = await measure(
        ctx,
        ["run", "--repo", repo, "--base", "main", "--no-cache", "--quiet", "--json", json],
        scratch,
        first,
      );
      const report = JSON.parse(readFileSync(json, "utf8")) as {
        cost: { agentCalls: number };
        verdict: string;
      };
      const setup = setupTimes(repo, setupTrials);
      const key = `scale.skills${size}`;
      Object.assign(figures, {
        [`${key}.validate`]: validate,
        [`${key}.plan`]: plan,
        [`${key}.run`]: { ...run, agentCalls: report.cost.agentCalls, verdict: report.verdict },
        [`${key}.setupMs`]: setup,
        [`${key}.generateMs`]: generateMs,
      });
      const fmt = (m: Measured) => `${m.cpuMs} ms CPU, ${m.wallMs} ms wall, ${m.peakMiB} MiB`;
      ctx.log(`scale ${size} skills (${edited.name} reworded; isolation ${level}):`);
      ctx.log(`  validate ${fmt(validate)}`);
      ctx.log(`  plan     ${fmt(plan)}`);
      ctx.log(
        `  run      ${fmt(run)}; first agent call after ${run.firstAgentCallMs ?? "—"} ms; ${report.cost.agentCalls} agent calls, verdict ${report.verdict}`,
      );
      for (const [sharing, t] of Object.entries(setup))
        ctx.log(`  per-trial set-up, ${sharing}: ${t.medianMs} ms (first ${t.firstMs} ms)`);
      rmSync(repo, { recursive: true, force: true });
    }
    await validateAtScale(ctx, scratch, sizesOf(ctx, "scaleValidateSizes", []), figures);
    const sweepSkills =
      ctx.flags.scaleSweepSkills === "none" ? 0 : (countFlag(ctx, "scaleSweepSkills") ?? SWEEP_SKILLS);
    if (sweepSkills === 0) return figures;
    const sweepRepo = join(scratch, "sweep");
    writeCatalogue(sweepRepo, sweepSkills);
    writeFileSync(join(sweepRepo, ".skillgate.yml"), config);
    const sweepJson = join(scratch, "sweep.json");
    const sweep = await measure(
      ctx,
      ["run", "--repo", sweepRepo, "--no-cache", "--quiet", "--json", sweepJson],
      scratch,
    );
    const calls = (JSON.parse(readFileSync(sweepJson, "utf8")) as { cost: { agentCalls: number } }).cost
      .agentCalls;
    figures["scale.sweep"] = { ...sweep, skills: sweepSkills, agentCalls: calls };
    ctx.log(
      `scale sweep of ${sweepSkills} skills: ${sweep.cpuMs} ms CPU, ${sweep.wallMs} ms wall, ${sweep.peakMiB} MiB, ${calls} agent calls`,
    );
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  return figures;
}
