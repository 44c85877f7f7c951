/**
 * Power planning before spending (#38 item 7): what a run of this shape can detect, by simulating the real decision
 * (`decideNewRoots`, the confirmation looks and the α split) over the skill's own numbers of cases, trigger queries,
 * first-batch trials and stored base trials. Seeded, so `skillgate plan` prints the same figures for the same
 * suite. The other units are assumed to behave as a typical suite's do (cases passing 95 %, queries firing as they
 * should): a suite noisier than that spends more of α on its flaky units and detects less.
 */
import type { CheckResult, VerdictPolicy } from "../model/index.js";
import { type ConfirmFn, decideNewRoots } from "./new-roots.js";
import { seededRandom } from "./stats.js";

/** A skill's batteries as the first batch runs them. */
export interface PowerShape {
  cases: number;
  queries: number;
  trialsPerCase: number;
  triggerRuns: number;
  /** Base trials per case the default branch stored (0: a cold PR, the base arm runs its first batch). */
  storedBase: number;
}

export interface PowerFigure {
  /** Share of simulated PRs that name the regressed unit new; undefined when the shape has no such unit. */
  caseDrop?: number;
  queryDrop?: number;
  prs: number;
}

/** The regressions a team most needs found: a case 0.9 → 0.5, a should-fire query 1.0 → 0.3 (docs/verdict.md). */
export const CASE_DROP = { from: 0.9, to: 0.5 } as const;
export const QUERY_DROP = { from: 1, to: 0.3 } as const;
const OTHER_CASES_PASS = 0.95;

interface Unit {
  id: string;
  mode: "skill" | "trigger";
  pass: { head: number; base: number };
}

function check(u: Unit, trial: number, pass: boolean): CheckResult {
  return {
    checkId: u.mode === "skill" ? `${u.id}/answer` : u.id,
    skill: "power",
    caseId: u.id,
    assertionId: u.mode === "skill" ? "answer" : u.id,
    mode: u.mode,
    trial,
    status: pass ? "pass" : "fail",
    discriminator: false,
    message: "",
    dependsOn: [],
    loc: { file: "power", line: 1, column: 1 },
  };
}

/** One simulated PR: true when the regressed unit (index 0 of its kind) is decided new. */
async function onePr(units: Unit[], shape: PowerShape, policy: VerdictPolicy, random: () => number) {
  const ran = { head: new Map<string, number>(), base: new Map<string, number>() };
  const run = (arm: "head" | "base", us: Unit[], n: (u: Unit) => number) =>
    us.flatMap((u) => {
      const from = ran[arm].get(u.id) ?? 0;
      const k = n(u);
      ran[arm].set(u.id, from + k);
      return Array.from({ length: k }, (_, t) => check(u, from + t, random() < u.pass[arm]));
    });
  const first = (u: Unit) => (u.mode === "skill" ? shape.trialsPerCase : shape.triggerRuns);
  const stored = (u: Unit) => (u.mode === "skill" ? Math.max(shape.storedBase, first(u)) : first(u));
  const byCheck = new Map(units.map((u) => [u.mode === "skill" ? `${u.id}/answer` : u.id, u]));
  const confirm: ConfirmFn = async (roots) => {
    const extra = (arm: "head" | "base") => (u: Unit) =>
      roots.find((r) => byCheck.get(r.checkId) === u)?.extraTrials[arm] ?? 0;
    const us = roots.map((r) => byCheck.get(r.checkId)!);
    return { head: run("head", us, extra("head")), base: run("base", us, extra("base")) };
  };
  const decisions = await decideNewRoots(
    run("head", units, first),
    run("base", units, stored),
    policy,
    confirm,
  );
  const target = units[0]!;
  const id = target.mode === "skill" ? `${target.id}/answer` : target.id;
  return decisions.some((d) => d.checkId === id && d.status === "new");
}

/** A regression to simulate: one unit of `mode` whose pass rate drops from `from` at base to `to` at head. */
export interface Drop {
  mode: "skill" | "trigger";
  from: number;
  to: number;
}

function unitsFor(shape: PowerShape, drop: Drop): Unit[] {
  const cases = Array.from({ length: shape.cases }, (_, i): Unit => {
    const dropped = drop.mode === "skill" && i === 0;
    return {
      id: `c${i}`,
      mode: "skill",
      pass: dropped ? { head: drop.to, base: drop.from } : { head: OTHER_CASES_PASS, base: OTHER_CASES_PASS },
    };
  });
  const queries = Array.from({ length: shape.queries }, (_, i): Unit => {
    const dropped = drop.mode === "trigger" && i === 0;
    return {
      id: `trigger/fire/${i}`,
      mode: "trigger",
      pass: dropped ? { head: drop.to, base: drop.from } : { head: 1, base: 1 },
    };
  });
  return drop.mode === "skill" ? [...cases, ...queries] : [...queries, ...cases];
}

/** Share of `prs` simulated PRs of this shape in which the unit of `drop` is decided new. */
export async function simulateDrop(
  shape: PowerShape,
  policy: VerdictPolicy,
  drop: Drop,
  opts: { prs?: number; seed?: number } = {},
): Promise<number> {
  const prs = opts.prs ?? 200;
  const random = seededRandom(opts.seed ?? 42);
  const units = unitsFor(shape, drop);
  let found = 0;
  for (let k = 0; k < prs; k++) if (await onePr(units, shape, policy, random)) found++;
  return found / prs;
}

/** Simulated power of a run of this shape against each regression, over `prs` PRs from `seed`. */
export async function simulatePower(
  shape: PowerShape,
  policy: VerdictPolicy,
  opts: { prs?: number; seed?: number } = {},
): Promise<PowerFigure> {
  const prs = opts.prs ?? 200;
  return {
    ...(shape.cases > 0 && shape.trialsPerCase > 0
      ? { caseDrop: await simulateDrop(shape, policy, { mode: "skill", ...CASE_DROP }, opts) }
      : {}),
    ...(shape.queries > 0 && shape.triggerRuns > 0
      ? { queryDrop: await simulateDrop(shape, policy, { mode: "trigger", ...QUERY_DROP }, opts) }
      : {}),
    prs,
  };
}
