import type { CheckResult } from "../src/model/index.js";
import { DEFAULT_BASE_DEPTH, DEFAULT_VERDICT_POLICY } from "../src/settings/defaults.js";
import { type ConfirmFn, decideNewRoots } from "../src/verdict/new-roots.js";
import { BASE_TRIALS_PER_HEAD_TRIAL, CONFIRMATION_LOOKS } from "../src/verdict/policy.js";
import { seededRandom } from "../src/verdict/stats.js";
import type { BenchContext } from "./types.js";
import {
  armProbabilities,
  CASE_PASS,
  caseCheckId,
  caseId,
  FIRE_PROB,
  fireCheckId,
  NOFIRE_PROB,
  nofireCheckId,
  rateWithHalfWidth,
  regressedCheckId,
  type Scenario,
  START_TRIALS,
  TRIGGER_RUNS,
} from "./verdict-suite.js";

/**
 * Trust of the verdict, by in-process simulation (DESIGN.md § Verdict): the suite of `verdict-suite.ts`, each
 * assertion in its own case so confirmation trials re-run suspects only, plus its trigger battery. Runs the real
 * `decideNewRoots` with a simulated agent (seeded, so the figures are fixed for a seed); `bench/verdict-e2e.ts`
 * measures the same through whole CLI processes with a truly random agent.
 * - A/A PRs (head = base) → `aaFalseRegressionRate`, the share of PRs with any new root;
 * - assertion regression PRs (one assertion 0.9 → 0.5), starting at 5 and at 3 trials per case →
 *   `powerAt5Trials` / `powerAt3Trials`, the share naming that assertion new;
 * - trigger regression PRs (one should-fire query 1.0 → 0.3) → `triggerPowerAt5Trials`;
 * - `powerSmallerRise`: the assertion 0.9 → 0.6, a rise below the futility effect (what the design gives up);
 * - `meanTrialsPerArm`: per PR, the head arm's trials summed over the ten cases divided by ten (what the
 *   discriminator battery costs per case, confirmation included), averaged over the regression PRs started at 5;
 *   `meanBaseTrialsPerArm` the same for the base arm; `suspectHeadTrials` the regressed case's head trials.
 */

const PRS_PER_SCENARIO = 1500;
const DEFAULT_SEED = 20261201;

type Unit = {
  checkId: string;
  caseId: string;
  mode: "skill" | "trigger";
  kind: "case" | "fire" | "nofire";
  i: number;
};

const UNITS: Unit[] = [
  ...CASE_PASS.map(
    (_, i): Unit => ({ checkId: caseCheckId(i), caseId: caseId(i), mode: "skill", kind: "case", i }),
  ),
  ...FIRE_PROB.map(
    (_, i): Unit => ({ checkId: fireCheckId(i), caseId: fireCheckId(i), mode: "trigger", kind: "fire", i }),
  ),
  ...NOFIRE_PROB.map(
    (_, i): Unit => ({
      checkId: nofireCheckId(i),
      caseId: nofireCheckId(i),
      mode: "trigger",
      kind: "nofire",
      i,
    }),
  ),
];

function checkResult(u: Unit, trial: number, pass: boolean): CheckResult {
  return {
    checkId: u.checkId,
    skill: "sim",
    caseId: u.caseId,
    assertionId: u.mode === "skill" ? "answer" : u.checkId,
    mode: u.mode,
    trial,
    status: pass ? "pass" : "fail",
    discriminator: false,
    message: pass ? "passed" : "failed",
    dependsOn: [],
    loc: { file: `evals/${u.caseId}.yaml`, line: 1, column: 1 },
  };
}

/** One simulated arm: every unit passes with its own probability in every trial, independently. */
class SimulatedArm {
  readonly trialsRun = new Map<string, number>();
  private readonly pass: Map<string, number>;
  constructor(
    s: Scenario | "base",
    private readonly random: () => number,
  ) {
    const p = armProbabilities(s);
    this.pass = new Map(
      UNITS.map((u) => [
        u.checkId,
        u.kind === "case" ? p.cases[u.i]! : u.kind === "fire" ? p.fire[u.i]! : 1 - p.nofire[u.i]!,
      ]),
    );
  }
  run(units: Unit[], trials: (u: Unit) => number): CheckResult[] {
    const out: CheckResult[] = [];
    for (const u of units) {
      const from = this.trialsRun.get(u.checkId) ?? 0;
      const n = trials(u);
      for (let t = 0; t < n; t++)
        out.push(checkResult(u, from + t, this.random() < this.pass.get(u.checkId)!));
      this.trialsRun.set(u.checkId, from + n);
    }
    return out;
  }
  caseMean(): number {
    return (
      UNITS.filter((u) => u.kind === "case").reduce((s, u) => s + this.trialsRun.get(u.checkId)!, 0) /
      CASE_PASS.length
    );
  }
}

/**
 * One simulated PR. `warm`: the default branch stored `baseDepth` trials of every case, which the base arm reads
 * for free (the first batch's base arm holds them); cold, the base arm starts with the first batch's trials like
 * the head arm and every base trial is paid. `paid`: agent calls the PR pays (head trials, and base trials beyond
 * the stored ones); `rounds`: confirmation rounds run (each one agent latency of wall time at enough concurrency).
 */
async function simulatePr(s: Scenario, startTrials: number, random: () => number, warm: boolean) {
  const head = new SimulatedArm(s, random);
  const base = new SimulatedArm("base", random);
  const depth = DEFAULT_VERDICT_POLICY.baseDepth ?? DEFAULT_BASE_DEPTH;
  const first = (u: Unit) => (u.mode === "skill" ? startTrials : TRIGGER_RUNS);
  const stored = (u: Unit) => (warm && u.mode === "skill" ? Math.max(depth, startTrials) : first(u));
  const byId = new Map(UNITS.map((u) => [u.checkId, u]));
  let rounds = 0;
  const confirm: ConfirmFn = async (roots) => {
    rounds++;
    const extra = new Map(roots.map((r) => [r.checkId, r.extraTrials]));
    const units = [...extra.keys()].map((id) => byId.get(id)!);
    return {
      head: head.run(units, (u) => extra.get(u.checkId)!.head),
      base: base.run(units, (u) => extra.get(u.checkId)!.base),
    };
  };
  const decisions = await decideNewRoots(
    head.run(UNITS, first),
    base.run(UNITS, stored),
    DEFAULT_VERDICT_POLICY,
    confirm,
  );
  const target = regressedCheckId(s);
  const others = decisions.filter((d) => d.checkId !== target);
  const mine = decisions.find((d) => d.checkId === target);
  const sum = (xs: Iterable<number>) => [...xs].reduce((a, b) => a + b, 0);
  const storedFree = warm ? sum(UNITS.map((u) => Math.min(stored(u), base.trialsRun.get(u.checkId)!))) : 0;
  return {
    falseNew: others.some((d) => d.status === "new"),
    blocked: decisions.some((d) => d.status === "new" || d.status === "inconclusive"),
    found: mine?.status === "new",
    inconclusive: mine?.status === "inconclusive",
    headMean: head.caseMean(),
    baseMean: base.caseMean(),
    suspectHead: target ? head.trialsRun.get(target)! : 0,
    agentCalls: sum(head.trialsRun.values()) + sum(base.trialsRun.values()) - storedFree,
    rounds,
  };
}

async function scenario(s: Scenario, startTrials: number, prs: number, random: () => number, warm = false) {
  const t = {
    falseNew: 0,
    blocked: 0,
    found: 0,
    inconclusive: 0,
    headMean: 0,
    baseMean: 0,
    suspectHead: 0,
    agentCalls: 0,
    rounds: 0,
    maxRounds: 0,
  };
  for (let k = 0; k < prs; k++) {
    const r = await simulatePr(s, startTrials, random, warm);
    t.falseNew += r.falseNew ? 1 : 0;
    t.blocked += r.blocked ? 1 : 0;
    t.found += r.found ? 1 : 0;
    t.inconclusive += r.inconclusive ? 1 : 0;
    t.headMean += r.headMean;
    t.baseMean += r.baseMean;
    t.suspectHead += r.suspectHead;
    t.agentCalls += r.agentCalls;
    t.rounds += r.rounds;
    t.maxRounds = Math.max(t.maxRounds, r.rounds);
  }
  return {
    falseNew: rateWithHalfWidth(t.falseNew, prs),
    blocked: rateWithHalfWidth(t.blocked, prs),
    power: rateWithHalfWidth(t.found, prs),
    inconclusive: rateWithHalfWidth(t.inconclusive, prs),
    headMean: round(t.headMean / prs, 2),
    baseMean: round(t.baseMean / prs, 2),
    suspectHead: round(t.suspectHead / prs, 1),
    agentCalls: round(t.agentCalls / prs, 1),
    rounds: round(t.rounds / prs, 2),
    maxRounds: t.maxRounds,
  };
}

const round = (x: number, digits = 4): number => Number(x.toFixed(digits));

export async function bench(ctx: BenchContext): Promise<Record<string, unknown>> {
  const seed = typeof ctx.flags.seed === "string" ? Number(ctx.flags.seed) : DEFAULT_SEED;
  const prs = typeof ctx.flags.verdictPrs === "string" ? Number(ctx.flags.verdictPrs) : PRS_PER_SCENARIO;
  if (!Number.isInteger(seed) || !Number.isInteger(prs) || prs < 1) {
    throw new Error(
      `bench verdict: seed and verdictPrs must be integers (got ${ctx.flags.seed}, ${ctx.flags.verdictPrs})`,
    );
  }
  const random = seededRandom(seed);
  const policy = DEFAULT_VERDICT_POLICY;
  const aa = await scenario("aa", START_TRIALS, prs, random);
  const r5 = await scenario("assertion", START_TRIALS, prs, random);
  const r3 = await scenario("assertion", 3, prs, random);
  const t5 = await scenario("trigger", START_TRIALS, prs, random);
  const small = await scenario("smaller", START_TRIALS, prs, random);
  // Warm: the default branch's run stored `baseDepth` trials of every case, which the base arm reads for free.
  const warmAa = await scenario("aa", START_TRIALS, prs, random, true);
  const warmR5 = await scenario("assertion", START_TRIALS, prs, random, true);
  const warmT5 = await scenario("trigger", START_TRIALS, prs, random, true);
  const fig = {
    simulatedPrs: 8 * prs,
    aaFalseRegressionRate: aa.falseNew.rate,
    aaFalseRegressionHalfWidth: aa.falseNew.halfWidth,
    aaBlockedRate: aa.blocked.rate,
    powerAt5Trials: r5.power.rate,
    powerAt5TrialsHalfWidth: r5.power.halfWidth,
    powerAt3Trials: r3.power.rate,
    triggerPowerAt5Trials: t5.power.rate,
    triggerPowerHalfWidth: t5.power.halfWidth,
    regressionInconclusiveRate: r5.inconclusive.rate,
    powerSmallerRise: small.power.rate,
    meanTrialsPerArm: r5.headMean,
    meanBaseTrialsPerArm: r5.baseMean,
    aaMeanTrialsPerArm: aa.headMean,
    aaMeanBaseTrialsPerArm: aa.baseMean,
    suspectHeadTrials: r5.suspectHead,
    agentCallsPerPr: { aa: aa.agentCalls, assertion: r5.agentCalls, trigger: t5.agentCalls },
    confirmationRounds: { aa: aa.rounds, assertion: r5.rounds, trigger: t5.rounds, max: r5.maxRounds },
    warm: {
      aaFalseRegressionRate: warmAa.falseNew.rate,
      aaFalseRegressionHalfWidth: warmAa.falseNew.halfWidth,
      powerAt5Trials: warmR5.power.rate,
      powerAt5TrialsHalfWidth: warmR5.power.halfWidth,
      triggerPowerAt5Trials: warmT5.power.rate,
      regressionInconclusiveRate: warmR5.inconclusive.rate,
      agentCallsPaidPerPr: {
        aa: warmAa.agentCalls,
        assertion: warmR5.agentCalls,
        trigger: warmT5.agentCalls,
      },
      confirmationRounds: { aa: warmAa.rounds, assertion: warmR5.rounds, trigger: warmT5.rounds },
    },
    seed,
  };
  const pct = (x: { rate: number; halfWidth: number }) =>
    `${(100 * x.rate).toFixed(1)} % ± ${(100 * x.halfWidth).toFixed(1)}`;
  const depth = policy.baseDepth ?? DEFAULT_BASE_DEPTH;
  const setup = `α ${policy.alpha} per PR, head looks ×${CONFIRMATION_LOOKS.join(", ×")} of the first batch (≤ ${policy.maxConfirmationTrials} confirmation head trials), base ≥ ${BASE_TRIALS_PER_HEAD_TRIAL}× head and filled to ${depth} at the first confirmation, seed ${seed}`;
  ctx.log(`verdict (in process): ${fig.simulatedPrs} simulated PRs (${prs} per scenario); ${setup}`);
  for (const [label, x, r, t] of [
    ["cold", aa, r5, t5],
    [`warm (${depth} base trials per case stored)`, warmAa, warmR5, warmT5],
  ] as const) {
    ctx.log(
      `verdict (in process, ${label}): A/A false-regression ${pct(x.falseNew)} of PRs (goal ≤ 1 %), blocked incl. inconclusive ${pct(x.blocked)}; ${x.agentCalls} calls paid, ${x.rounds} confirmation rounds per PR`,
    );
    ctx.log(
      `verdict (in process, ${label}): power 0.9 → 0.5 ${pct(r.power)} (goal ≥ 90 %), inconclusive ${pct(r.inconclusive)}; should-fire 1.0 → 0.3 ${pct(t.power)} (goal ≥ 90 %); calls paid ${r.agentCalls} / ${t.agentCalls}; confirmation rounds ${r.rounds} / ${t.rounds} (at most ${Math.max(r.maxRounds, t.maxRounds)})`,
    );
  }
  ctx.log(
    `verdict (in process, cold): power 0.9 → 0.5 starting at 3 trials ${pct(r3.power)}; a smaller rise, 0.9 → 0.6 (below the futility effect): power ${pct(small.power)}, inconclusive ${pct(small.inconclusive)}; head / base trials per case ${r5.headMean} / ${r5.baseMean}`,
  );
  return fig;
}
