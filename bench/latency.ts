/**
 * Time to verdict (#29): how long a pull request waits, in units of the agent's latency L, and what it pays. Every
 * PR is one whole `dist/cli.js run` process at the default concurrency (this machine's: `defaultAgentConcurrency`)
 * with a `command` agent that sleeps L before it answers:
 * - `fixed`: every trial takes L; `tail`: a long-tailed latency (L for 70 % of trials, 2 L for 20 %, 4 L for 8 %,
 *   8 L for 2 %: mean 1.58 L), drawn from /dev/urandom. L is the median either way.
 * PRs: the 10-case suite of `verdict-suite.ts` with its SKILL.md body edited (so its discriminator battery runs):
 * `aa` rewords it, `regression` also drops case 7 from 0.9 to 0.5; and `descriptionEdit`, one description reworded
 * in the 30-skill catalogue of `cost.ts` (its trigger battery runs).
 * Cold: an empty trial cache. Warm: the default branch's run (a sweep of the base, as a push to main runs it)
 * stored its trials first, and each PR reads a copy of that store (so it cannot write what main reads). The
 * default branch's run is not timed: its agent reads its latency from a file beside the script, 0 during that run
 * (the script, and so the agent's identity and the stored trials' keys, are the same).
 * Per PR: `wallL` (the process's wall time / L), `overheadL` (the same PR with a latency of 0: skillgate's own time
 * on this machine, which a real agent's 30–120 s latency dwarfs), `rounds` (batches of agent calls: first batch + confirmation
 * rounds, from the report), `paidCalls` (the PR's agent calls), `servedFromMain` (stored answers it read), and for
 * a regression whether the regressed case was named new. Goals: warm A/A ≤ 8 L and ≤ 60 calls; warm regression ≤
 * 16 L with the case found; cold A/A ≤ 20 L; description edit warm ≤ 6 L.
 */
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { roundsWaited } from "../src/report/facts.js";
import { defaultAgentConcurrency } from "../src/settings/concurrency.js";
import { DEFAULT_VERDICT_POLICY } from "../src/settings/defaults.js";
import { AGENT as CATALOGUE_AGENT, EDITS, runReport, writeBase } from "./cost.js";
import { confirmationRounds, latencyBound } from "./latency-bound.js";
import type { BenchContext } from "./types.js";
import { AGENT as SUITE_AGENT, writeRepo } from "./verdict-e2e.js";
import { CASE_PASS, regressedCheckId, START_TRIALS, TRIGGER_RUNS } from "./verdict-suite.js";

/** L in seconds when `--latency-l` is not given: long enough that a CLI process's own start-up is small beside it. */
const DEFAULT_L_SECONDS = 2;

type Profile = "fixed" | "tail";
type Pr = "aa" | "regression" | "descriptionEdit";

/** Sleeps the latency its file names (`fixed MS` or `tail MS`), then runs the answering part of `body`. */
function latencyAgent(latencyFile: string, body: string): string {
  const answer = body.replace(/^#!\/bin\/sh\n/, "");
  return `#!/bin/sh
read -r kind ms < ${JSON.stringify(latencyFile)}
m=1
if [ "$kind" = tail ]; then
  t=$(od -An -N2 -tu2 /dev/urandom)
  t=$(( t * 100 / 65536 ))
  if [ "$t" -ge 98 ]; then m=8; elif [ "$t" -ge 90 ]; then m=4; elif [ "$t" -ge 70 ]; then m=2; fi
fi
d=$(( ms * m ))
if [ "$d" -gt 0 ]; then sleep "$(( d / 1000 )).$(( d % 1000 / 100 ))$(( d % 100 / 10 ))$(( d % 10 ))"; fi
${answer}`;
}

const cli = runReport;

interface Measured {
  wallL: number;
  overheadL: number;
  rounds: number;
  paidCalls: number;
  servedFromMain: number;
  verdict: string;
  found?: boolean;
}

/** The two repositories of one kind of PR, the default branch's run on its base (warm), and the PR's own run. */
class Fixture {
  readonly latencyFile: string;
  readonly agent: string;
  readonly mainCache: string;
  private mainRan = false;

  constructor(
    private readonly ctx: BenchContext,
    readonly dir: string,
    readonly kind: "suite" | "catalogue",
  ) {
    mkdirSync(dir, { recursive: true });
    this.latencyFile = join(dir, "latency");
    this.agent = join(dir, "agent.sh");
    this.mainCache = join(dir, "main-cache");
    writeFileSync(
      this.agent,
      latencyAgent(this.latencyFile, kind === "suite" ? SUITE_AGENT : CATALOGUE_AGENT),
      { mode: 0o755 },
    );
  }

  private config(cacheDir: string): string {
    // No `concurrency`: the default (this runner's) is what is measured.
    return `agent:\n  adapter: command\n  command: ${JSON.stringify(this.agent)}\ntriggerRuns: ${TRIGGER_RUNS}\nbudget:\n  maxAgentCalls: 20000\ncache:\n  dir: ${JSON.stringify(cacheDir)}\n`;
  }

  private writeBase(dir: string, cacheDir: string): void {
    if (this.kind === "suite") writeRepo(dir, "base", false, this.agent, this.config(cacheDir));
    else writeBase(dir, this.config(cacheDir));
  }

  private writeHead(dir: string, pr: Pr, cacheDir: string): void {
    if (this.kind === "suite") {
      // A body edit: the description stays the base's (a reworded description would run the trigger battery too).
      writeRepo(dir, pr === "regression" ? "assertion" : "base", false, this.agent, this.config(cacheDir));
      const md = join(dir, ".claude/skills/sim-skill/SKILL.md");
      writeFileSync(md, readFileSync(md, "utf8").replace("Follow these.", "Follow these, reworded."));
    } else {
      writeBase(dir, this.config(cacheDir));
      EDITS.descriptionEdit!(dir);
    }
  }

  /** The default branch's run on the base: a sweep, untimed (latency 0), that stores its trials in `mainCache`. */
  async main(): Promise<{ agentCalls: number }> {
    if (this.mainRan) return { agentCalls: 0 };
    const base = join(this.dir, "main");
    this.writeBase(base, this.mainCache);
    writeFileSync(this.latencyFile, "fixed 0\n");
    const r = await cli(this.ctx, ["--repo", base], join(this.dir, "main.json"));
    if (r.verdict === "error")
      throw new Error(`latency: the default branch's run ended in error: ${r.errors.join("; ")}`);
    this.mainRan = true;
    return { agentCalls: r.cost.agentCalls };
  }

  /** The same PR without latency: what skillgate itself takes here (process start, discovery, grading), in s. */
  async overhead(pr: Pr, warm: boolean, n: number): Promise<number> {
    return (await this.once(pr, "fixed", warm, 0, n)).seconds;
  }

  async pr(pr: Pr, profile: Profile, warm: boolean, lSeconds: number, n: number, overheadS: number) {
    const m = await this.once(pr, profile, warm, lSeconds, n);
    return { ...m, overheadL: Number((overheadS / lSeconds).toFixed(1)) };
  }

  private async once(
    pr: Pr,
    profile: Profile,
    warm: boolean,
    lSeconds: number,
    n: number,
  ): Promise<Omit<Measured, "overheadL"> & { seconds: number }> {
    const dir = join(this.dir, `${pr}-${profile}-${warm ? "warm" : "cold"}-${lSeconds}-${n}`);
    const cacheDir = join(dir, "cache");
    if (warm) cpSync(this.mainCache, cacheDir, { recursive: true });
    const base = join(dir, "base");
    const head = join(dir, "head");
    this.writeBase(base, cacheDir);
    this.writeHead(head, pr, cacheDir);
    writeFileSync(this.latencyFile, `${profile} ${Math.round(lSeconds * 1000)}\n`);
    const t0 = Date.now();
    const r = await cli(this.ctx, ["--repo", head, "--base-dir", base], join(dir, "report.json"));
    const seconds = (Date.now() - t0) / 1000;
    rmSync(dir, { recursive: true, force: true });
    if (r.verdict === "error")
      throw new Error(`latency ${pr}: the run ended in error: ${r.errors.join("; ")}`);
    const target = pr === "regression" ? regressedCheckId("assertion") : undefined;
    return {
      seconds,
      wallL: lSeconds > 0 ? Number((seconds / lSeconds).toFixed(1)) : 0,
      rounds: (({ first, confirmations }) => first + confirmations)(roundsWaited(r)),
      paidCalls: r.cost.agentCalls,
      servedFromMain: r.cost.cacheHits,
      verdict: r.verdict,
      ...(target
        ? { found: r.skills.some((s) => s.roots.some((x) => x.id === target && x.status === "new")) }
        : {}),
    };
  }
}

const GOALS: { key: string; what: string; ok: (m: Measured) => boolean }[] = [
  {
    key: "aa.fixed.warm",
    what: "warm A/A ≤ 8 L and ≤ 60 calls",
    ok: (m) => m.wallL <= 8 && m.paidCalls <= 60,
  },
  {
    key: "regression.fixed.warm",
    what: "warm regression ≤ 16 L, case found",
    ok: (m) => m.wallL <= 16 && m.found === true,
  },
  { key: "aa.fixed.cold", what: "cold A/A ≤ 20 L", ok: (m) => m.wallL <= 20 },
  { key: "descriptionEdit.fixed.warm", what: "description edit warm ≤ 6 L", ok: (m) => m.wallL <= 6 },
];

export async function bench(ctx: BenchContext): Promise<Record<string, unknown>> {
  const lFlag = ctx.flags.latencyL;
  const lSeconds = typeof lFlag === "string" ? Number(lFlag) : DEFAULT_L_SECONDS;
  if (!(lSeconds > 0)) throw new Error("bench latency: --latency-l must be a positive number of seconds");
  const root = join(ctx.tmp, "latency");
  const suite = new Fixture(ctx, join(root, "suite"), "suite");
  const catalogue = new Fixture(ctx, join(root, "catalogue"), "catalogue");
  const t0 = Date.now();
  const concurrency = defaultAgentConcurrency();
  ctx.log(`latency: L = ${lSeconds} s (median trial), default concurrency on this machine ${concurrency}`);
  const figures: Record<string, unknown> = {};
  const plan: { fixture: Fixture; pr: Pr; profile: Profile; warm: boolean }[] = [];
  // The long tail is measured warm (the figures a team with the default branch's run set up sees).
  for (const warm of [false, true])
    for (const pr of ["aa", "regression"] as const) plan.push({ fixture: suite, pr, profile: "fixed", warm });
  for (const pr of ["aa", "regression"] as const)
    plan.push({ fixture: suite, pr, profile: "tail", warm: true });
  for (const warm of [false, true])
    plan.push({ fixture: catalogue, pr: "descriptionEdit", profile: "fixed", warm });
  // `--latency-only KEYS` measures some rows (`regression.tail.warm,aa.fixed.warm`); `--latency-prs N` runs each
  // N times and reports the median (a long tail's wall time varies from PR to PR).
  const only = typeof ctx.flags.latencyOnly === "string" ? ctx.flags.latencyOnly.split(",") : undefined;
  const repeats = typeof ctx.flags.latencyPrs === "string" ? Math.max(1, Number(ctx.flags.latencyPrs)) : 1;
  const keyOf = (p: (typeof plan)[number]) => `${p.pr}.${p.profile}.${p.warm ? "warm" : "cold"}`;
  const rows = plan.filter((p) => !only || only.includes(keyOf(p))).flatMap((p) => Array(repeats).fill(p));
  const results = new Map<string, Measured>();
  const samples = new Map<string, number[]>();
  const overheads = new Map<string, number>();
  for (const [n, p] of (rows as typeof plan).entries()) {
    if (p.warm) {
      const main = await p.fixture.main();
      if (main.agentCalls) figures[`latency.mainRun.${p.fixture.kind}.agentCalls`] = main.agentCalls;
    }
    const key = keyOf(p);
    const ok = `${p.pr}.${p.warm}`;
    if (!overheads.has(ok)) overheads.set(ok, await p.fixture.overhead(p.pr, p.warm, n));
    const m = await p.fixture.pr(p.pr, p.profile, p.warm, lSeconds, n, overheads.get(ok)!);
    samples.set(key, [...(samples.get(key) ?? []), m.wallL]);
    const walls = [...samples.get(key)!].sort((a, b) => a - b);
    const median = walls[Math.floor((walls.length - 1) / 2)]!;
    // The row's figures are its median PR's (by wall time).
    if (m.wallL === median || !results.has(key)) results.set(key, m);
    const { seconds: _s, ...kept } = results.get(key)! as Measured & { seconds?: number };
    figures[`latency.${key}`] = { ...kept, ...(repeats > 1 ? { wallLSamples: walls } : {}) };
    ctx.log(
      `latency: ${key.padEnd(28)} ${String(m.wallL).padStart(5)} L (${m.overheadL} L of it skillgate's own time at latency 0), ${m.rounds} round(s), ${m.paidCalls} calls paid, ${m.servedFromMain} served from main${m.found === undefined ? "" : m.found ? ", regressed case found" : ", regressed case NOT found"} (verdict ${m.verdict})`,
    );
  }
  const measured = GOALS.filter((g) => results.has(g.key));
  const goals = Object.fromEntries(measured.map((g) => [g.key, g.ok(results.get(g.key)!)]));
  for (const g of measured) ctx.log(`latency: goal ${g.what}: ${goals[g.key] ? "met" : "NOT met"}`);
  for (const [key, walls] of samples)
    if (walls.length > 1)
      ctx.log(`latency: ${key} over ${walls.length} PRs: ${[...walls].sort((a, b) => a - b).join(" / ")} L`);
  // What the design allows the warm long-tail regression at best: a simulation, no process (latency-bound.ts).
  if (!only || only.includes("regression.tail.warm")) {
    const looks = confirmationRounds(START_TRIALS, DEFAULT_VERDICT_POLICY.maxConfirmationTrials ?? 55);
    const bound = latencyBound({ firstBatch: CASE_PASS.length * START_TRIALS, looks, slots: concurrency });
    figures["latency.regression.tail.warm.bound"] = bound;
    ctx.log(
      `latency: regression.tail.warm by simulation, without skillgate's own time: ${bound.rounds} L look by look, ${bound.allAtOnce} L with all ${bound.trials} trials started at once (no schedule does better)`,
    );
  }
  figures["latency.goals"] = goals;
  figures["latency.lSeconds"] = lSeconds;
  figures["latency.concurrency"] = concurrency;
  figures["latency.seconds"] = Math.round((Date.now() - t0) / 1000);
  return figures;
}
