import type { CheckResult } from "../src/model/index.js";
import { type ConfirmFn, decideNewRoots } from "../src/verdict/new-roots.js";
import { DEFAULT_VERDICT_POLICY } from "../src/verdict/policy.js";
import { seededRandom } from "../src/verdict/stats.js";
import type { BenchContext } from "./types.js";

/**
 * Trust of the verdict, by simulation (DESIGN.md § Verdict): a 10-assertion suite with known pass
 * probabilities, each assertion in its own case so confirmation trials re-run suspects only. A/A PRs
 * (head = base) → share of PRs with any new root; regression PRs (one assertion 0.9 → 0.5) → share in which
 * that assertion is found new, starting each arm at 3 or 5 trials. Runs the real `decideNewRoots`.
 */

const PASS_PROBABILITIES = [1, 1, 1, 1, 0.95, 0.95, 0.95, 0.9, 0.9, 0.7];
const REGRESSED_INDEX = 7;
const REGRESSED_PASS = 0.5;
const PRS_PER_SCENARIO = 4000;
const DEFAULT_SEED = 20261129;

const caseId = (i: number): string => `case-${i}`;
const checkId = (i: number): string => `${caseId(i)}/answer`;

function checkResult(i: number, trial: number, pass: boolean): CheckResult {
  return {
    checkId: checkId(i),
    skill: "sim",
    caseId: caseId(i),
    assertionId: "answer",
    mode: "skill",
    trial,
    status: pass ? "pass" : "fail",
    discriminator: false,
    message: pass ? "passed" : "failed",
    dependsOn: [],
    loc: { file: `evals/prompts/${caseId(i)}.yaml`, line: 1, column: 1 },
  };
}

/** One simulated arm: an agent whose assertion i passes with probability p[i] in every trial, independently. */
class SimulatedArm {
  readonly trialsRun: number[];
  constructor(
    private readonly p: number[],
    private readonly random: () => number,
  ) {
    this.trialsRun = p.map(() => 0);
  }
  run(indices: number[], trials: number): CheckResult[] {
    const out: CheckResult[] = [];
    for (const i of indices) {
      for (let t = 0; t < trials; t++)
        out.push(checkResult(i, this.trialsRun[i]! + t, this.random() < this.p[i]!));
      this.trialsRun[i]! += trials;
    }
    return out;
  }
}

async function simulatePr(headP: number[], startTrials: number, random: () => number) {
  const head = new SimulatedArm(headP, random);
  const base = new SimulatedArm(PASS_PROBABILITIES, random);
  const all = PASS_PROBABILITIES.map((_, i) => i);
  const confirm: ConfirmFn = async (ids, extra) => {
    const indices = ids.map((id) => Number(id.slice("case-".length, id.indexOf("/"))));
    return { head: head.run(indices, extra), base: base.run(indices, extra) };
  };
  const decisions = await decideNewRoots(
    head.run(all, startTrials),
    base.run(all, startTrials),
    DEFAULT_VERDICT_POLICY,
    confirm,
  );
  const trialsPerArm = head.trialsRun.reduce((s, n) => s + n, 0) / head.trialsRun.length;
  return {
    anyNew: decisions.some((d) => d.status === "new"),
    blocked: decisions.some((d) => d.status === "new" || d.status === "inconclusive"),
    regressedFound: decisions.some((d) => d.checkId === checkId(REGRESSED_INDEX) && d.status === "new"),
    trialsPerArm,
    maxTrialsPerArm: Math.max(...head.trialsRun),
  };
}

async function scenario(regressed: boolean, startTrials: number, prs: number, random: () => number) {
  const headP = PASS_PROBABILITIES.slice();
  if (regressed) headP[REGRESSED_INDEX] = REGRESSED_PASS;
  let anyNew = 0;
  let blocked = 0;
  let found = 0;
  let trials = 0;
  let maxTrials = 0;
  for (let k = 0; k < prs; k++) {
    const r = await simulatePr(headP, startTrials, random);
    anyNew += r.anyNew ? 1 : 0;
    blocked += r.blocked ? 1 : 0;
    found += r.regressedFound ? 1 : 0;
    trials += r.trialsPerArm;
    maxTrials += r.maxTrialsPerArm;
  }
  return {
    anyNewRate: anyNew / prs,
    blockedRate: blocked / prs,
    power: found / prs,
    meanTrialsPerArm: trials / prs,
    meanMaxTrialsPerArm: maxTrials / prs,
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
  const aa = await scenario(false, 5, prs, random);
  const r3 = await scenario(true, 3, prs, random);
  const r5 = await scenario(true, 5, prs, random);
  const fig = {
    simulatedPrs: 3 * prs,
    aaFalseRegressionRate: round(aa.anyNewRate),
    aaBlockedRate: round(aa.blockedRate),
    powerAt3Trials: round(r3.power),
    powerAt5Trials: round(r5.power),
    meanTrialsPerArm: round(r5.meanTrialsPerArm, 2),
    seed,
  };
  const pct = (x: number) => `${(100 * x).toFixed(1)} %`;
  const setup = `α ${policy.alpha} per PR, ≤ ${policy.maxConfirmationTrials} confirmation trials/arm, seed ${seed}`;
  ctx.log(
    `verdict: ${fig.simulatedPrs} simulated PRs (${prs} A/A, ${prs} regression from 3 and from 5 trials); ${setup}`,
  );
  ctx.log(
    `verdict: A/A false-regression rate ${pct(aa.anyNewRate)} of PRs (goal ≤ 1 %); blocked incl. inconclusive ${pct(aa.blockedRate)}; mean trials/arm ${aa.meanTrialsPerArm.toFixed(1)}`,
  );
  ctx.log(`verdict: power at 3 trials ${pct(r3.power)} (mean trials/arm ${r3.meanTrialsPerArm.toFixed(1)})`);
  ctx.log(`verdict: power at 5 trials ${pct(r5.power)} (goal ≥ 80 %); blocked ${pct(r5.blockedRate)}`);
  ctx.log(
    `verdict: mean trials per arm per case ${r5.meanTrialsPerArm.toFixed(2)} (goal ≤ 12); suspect case mean ${r5.meanMaxTrialsPerArm.toFixed(1)}`,
  );
  return fig;
}
