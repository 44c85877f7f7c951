/**
 * Trust of the verdict measured end to end (#19, DESIGN.md § Verdict): every simulated PR is one whole
 * `dist/cli.js run --repo HEAD --base-dir BASE` process, with a `command` agent (a `sh` script) whose randomness
 * comes from `/dev/urandom`, independent of skillgate's seed: the same PR run twice gives other trials. The suite is
 * `verdict-suite.ts`'s (ten one-assertion cases, six should-fire and four should-not-fire queries); the agent reads
 * the pass probability of each case from the installed SKILL.md's body (`pass-7=900`, in thousandths) and each
 * query's firing probability from its description (`fire-0=1000`), so head and base behave as their SKILL.md say.
 * Every PR edits both the body and the description (so both batteries run in both arms):
 * - A/A PRs reword them without changing a probability → `aaFalseRegressionRate`: PRs with any new root;
 * - assertion regression PRs change `pass-7` from 900 to 500 → `power`: PRs naming `case-7/answer` new;
 * - trigger regression PRs change `fire-0` from 1000 to 300 → `triggerPower`: PRs naming `trigger/fire/0` new.
 * `meanTrialsPerArm`: per PR, the trials the head arm ran of the ten cases (first batch and confirmation, from the
 * report's per-trial evidence) divided by ten, averaged over the PRs of a kind; the base arm's the same way
 * (`meanBaseTrialsPerArm`); `suspectHeadTrials`: the regressed case's (or query's) head trials. Rates come with the
 * half-width of their 95 % Wilson interval. Trials run without a trial cache (each PR cold) and with
 * `SKILLGATE_ISOLATION=none` (confinement does not change outcomes; it costs ~0.1 s per trial on this machine).
 */
import { execFile } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import type { EvidenceCheck, Report } from "../src/model/index.js";
import type { BenchContext } from "./types.js";
import {
  armProbabilities,
  CASE_PASS,
  caseCheckId,
  FIRE_PROB,
  NOFIRE_PROB,
  rateWithHalfWidth,
  regressedCheckId,
  type Scenario,
  START_TRIALS,
  TRIGGER_RUNS,
} from "./verdict-suite.js";

const run = promisify(execFile);
const SKILL = "sim-skill";

/**
 * Without `--verdict-e2e-prs N`, the section runs rounds of PRs until its share of the bench's time allotment is
 * spent (or for `--verdict-e2e-seconds S`), at least `MIN_ROUNDS`: the whole bench must finish within 10 minutes on
 * a busy 2-core machine, and the figures come with their Wilson half-widths, so a short run says how little it
 * shows. Long measurements give `--verdict-e2e-prs`.
 */
const MIN_ROUNDS = 2;
const UNBOUNDED_SECONDS = 120;

/**
 * The agent: one line of prompt on stdin. `case-<i> …` (skill and baseline modes) passes with the body's
 * `pass-<i>` probability when the skill is installed, and fails without it; `fire-<i> …` / `nofire-<i> …`
 * (trigger mode) activates the skill with the description's probability. Only shell built-ins and `od`.
 */
export const AGENT = `#!/bin/sh
IFS= read -r p
f=.agents/skills/${SKILL}/SKILL.md
r=$(od -An -N2 -tu2 /dev/urandom)
r=$(( r * 1000 / 65536 ))
want=\${p%% *}
prob=0
if [ -f "$f" ]; then
  while IFS= read -r line; do
    case "$line" in
      *" $want="*) v=\${line#*" $want="}; prob=\${v%%[!0-9]*}; break;;
    esac
  done < "$f"
fi
case "$want" in
  case-*) if [ "$r" -lt "$prob" ]; then echo '{"output":"PASS"}'; else echo '{"output":"FAIL"}'; fi;;
  *) if [ "$r" -lt "$prob" ]; then echo '{"output":"ok","skillsActivated":["${SKILL}"]}'; else echo '{"output":"ok","skillsActivated":[]}'; fi;;
esac
`;

const milli = (p: number) => Math.round(p * 1000);

/** The simulated skill of an arm (`reworded`: the same probabilities in other words). */
export function skillMd(s: Scenario | "base", reworded: boolean): string {
  const p = armProbabilities(s);
  // Every token has a leading space (the agent looks for " fire-0="), so `fire-0=` never matches inside `nofire-0=`.
  const fire = p.fire.map((x, i) => ` fire-${i}=${milli(x)}`).join("");
  const nofire = p.nofire.map((x, i) => ` nofire-${i}=${milli(x)}`).join("");
  const body = p.cases.map((x, i) => ` case-${i}=${milli(x)}`).join("\n");
  return `---\nname: ${SKILL}\ndescription: Simulated skill${reworded ? ", reworded" : ""} for verdict trials.${fire}${nofire}\n---\n${reworded ? "Follow these, reworded.\n" : "Follow these.\n"}${body}\n`;
}

/**
 * A repository of the simulated skill and its suite; `config` replaces the default `.skillgate.yml` (the `command`
 * agent, 8 at once, the trigger runs, a budget that never stops the run).
 */
export function writeRepo(
  dir: string,
  s: Scenario | "base",
  reworded: boolean,
  agent: string,
  config?: string,
): void {
  const put = (rel: string, text: string) => {
    mkdirSync(join(dir, rel, ".."), { recursive: true });
    writeFileSync(join(dir, rel), text);
  };
  put(
    ".skillgate.yml",
    config ??
      `agent:\n  adapter: command\n  command: ${JSON.stringify(agent)}\nconcurrency: 8\ntriggerRuns: ${TRIGGER_RUNS}\nbudget:\n  maxAgentCalls: 5000\n`,
  );
  put(`.claude/skills/${SKILL}/SKILL.md`, skillMd(s, reworded));
  const evals = `.agent/evals/${SKILL}`;
  put(`${evals}/meta.json`, JSON.stringify({ trials: START_TRIALS }));
  for (let i = 0; i < CASE_PASS.length; i++)
    put(
      `${evals}/prompts/case-${i}.yaml`,
      `id: case-${i}\nprompt: case-${i} answer PASS or FAIL\nassertions:\n  - id: answer\n    type: contains\n    value: PASS\n`,
    );
  put(
    `${evals}/trigger-eval.json`,
    JSON.stringify({
      shouldFire: FIRE_PROB.map((_, i) => `fire-${i} please do the simulated task`),
      shouldNotFire: NOFIRE_PROB.map((_, i) => `nofire-${i} an unrelated chore`),
    }),
  );
}

interface PrResult {
  falseNew: boolean;
  blocked: boolean;
  found: boolean;
  inconclusive: boolean;
  headPerCase: number;
  basePerCase: number;
  suspectHead: number;
  agentCalls: number;
  seconds: number;
}

const trialsOf = (xs: EvidenceCheck[] | undefined, checkId: string) =>
  new Set((xs ?? []).filter((c) => c.checkId === checkId && c.mode !== "baseline").map((c) => c.trial)).size;

async function onePr(ctx: BenchContext, dir: string, s: Scenario, agent: string): Promise<PrResult> {
  const base = join(dir, "base");
  const head = join(dir, "head");
  writeRepo(base, "base", false, agent);
  writeRepo(head, s, true, agent);
  const out = join(dir, "report.json");
  const t0 = Date.now();
  try {
    await run(
      process.execPath,
      [
        join(ctx.root, "dist/cli.js"),
        "run",
        "--repo",
        head,
        "--base-dir",
        base,
        "--no-cache",
        "--json",
        out,
        "--quiet",
      ],
      { maxBuffer: 64 * 1024 * 1024, env: { ...process.env, SKILLGATE_ISOLATION: "none" } },
    );
  } catch (e) {
    // exit 1 (a failing verdict) still writes the report; anything else is a bench failure
    if ((e as { code?: number }).code !== 1) throw e;
  }
  const seconds = (Date.now() - t0) / 1000;
  const report = JSON.parse(readFileSync(out, "utf8")) as Report;
  if (report.verdict === "error")
    throw new Error(`verdict e2e: the run ended in error: ${report.errors.join("; ")}`);
  const skill = report.skills.find((x) => x.name === SKILL);
  if (!skill?.evidence)
    throw new Error("verdict e2e: the report carries no evidence for the simulated skill");
  const target = regressedCheckId(s);
  const statistical = skill.roots.filter((r) => ["assertion", "gate", "trigger"].includes(r.kind));
  const mine = statistical.find((r) => r.id === target);
  const cases = CASE_PASS.map((_, i) => caseCheckId(i));
  const perCase = (xs: EvidenceCheck[] | undefined) =>
    cases.reduce((sum, id) => sum + trialsOf(xs, id), 0) / cases.length;
  return {
    falseNew: statistical.some((r) => r.status === "new" && r.id !== target),
    blocked: statistical.some((r) => r.status === "new" || r.status === "inconclusive"),
    found: mine?.status === "new",
    inconclusive: mine?.status === "inconclusive",
    headPerCase: perCase(skill.evidence.head),
    basePerCase: perCase(skill.evidence.base),
    suspectHead: target ? trialsOf(skill.evidence.head, target) : 0,
    agentCalls: report.cost.agentCalls,
    seconds,
  };
}

/**
 * Runs PRs round by round (one of each kind per round, `parallel` CLI processes at a time): `prs` rounds when given,
 * otherwise rounds until `seconds` have passed (at least `MIN_ROUNDS`), so the section fits the bench's time budget
 * on a busy machine; each kind reports the PRs it ran.
 */
async function runPrs(
  ctx: BenchContext,
  root: string,
  agent: string,
  kinds: Scenario[],
  plan: { prs?: number; deadline: number },
  parallel: number,
): Promise<Map<Scenario, PrResult[]>> {
  const results = new Map<Scenario, PrResult[]>(kinds.map((k) => [k, []]));
  let issued = 0;
  let finished = 0;
  let finishedSeconds = 0;
  const nextJob = (): { s: Scenario; k: number } | undefined => {
    const round = Math.floor(issued / kinds.length);
    // A PR started now ends about one PR's time from now (each worker runs its PRs one after the other).
    const perPr = finished ? finishedSeconds / finished : 0;
    const done =
      plan.prs !== undefined
        ? round >= plan.prs
        : round >= MIN_ROUNDS && Date.now() + perPr * 1000 > plan.deadline;
    if (done || kinds.length === 0) return undefined;
    const s = kinds[issued % kinds.length]!;
    issued++;
    return { s, k: round };
  };
  const worker = async () => {
    for (let job = nextJob(); job; job = nextJob()) {
      const dir = join(root, `${job.s}-${job.k}`);
      const r = await onePr(ctx, dir, job.s, agent);
      results.get(job.s)!.push(r);
      finished++;
      finishedSeconds += r.seconds;
      rmSync(dir, { recursive: true, force: true });
      // One line per PR, so a long run's log holds every result even if it is stopped.
      if (ctx.flags.verdictE2eLog) ctx.log(`verdict e2e pr ${JSON.stringify({ kind: job.s, ...r })}`);
    }
  };
  await Promise.all(Array.from({ length: parallel }, worker));
  return results;
}

function summarize(results: PrResult[]) {
  const n = results.length;
  const count = (f: (r: PrResult) => boolean) => results.filter(f).length;
  const mean = (f: (r: PrResult) => number) =>
    Number((results.reduce((a, r) => a + f(r), 0) / Math.max(1, n)).toFixed(2));
  return {
    prs: n,
    falseNew: rateWithHalfWidth(
      count((r) => r.falseNew),
      n,
    ),
    blocked: rateWithHalfWidth(
      count((r) => r.blocked),
      n,
    ),
    power: rateWithHalfWidth(
      count((r) => r.found),
      n,
    ),
    inconclusive: rateWithHalfWidth(
      count((r) => r.inconclusive),
      n,
    ),
    meanTrialsPerArm: mean((r) => r.headPerCase),
    meanBaseTrialsPerArm: mean((r) => r.basePerCase),
    suspectHeadTrials: mean((r) => r.suspectHead),
    agentCallsPerPr: mean((r) => r.agentCalls),
    secondsPerPr: mean((r) => r.seconds),
  };
}

export async function bench(ctx: BenchContext): Promise<Record<string, unknown>> {
  const prs = typeof ctx.flags.verdictE2ePrs === "string" ? Number(ctx.flags.verdictE2ePrs) : undefined;
  const seconds =
    typeof ctx.flags.verdictE2eSeconds === "string" ? Number(ctx.flags.verdictE2eSeconds) : undefined;
  const parallel =
    typeof ctx.flags.verdictE2eParallel === "string" ? Number(ctx.flags.verdictE2eParallel) : 3;
  if (
    (prs !== undefined && (!Number.isInteger(prs) || prs < 1)) ||
    (seconds !== undefined && !(seconds > 0)) ||
    !Number.isInteger(parallel) ||
    parallel < 1
  )
    throw new Error(
      "bench verdict e2e: verdictE2ePrs and verdictE2eParallel must be positive integers, verdictE2eSeconds positive",
    );
  const root = join(ctx.tmp, "verdict-e2e");
  mkdirSync(root, { recursive: true });
  const agent = join(root, "agent.sh");
  writeFileSync(agent, AGENT, { mode: 0o755 });
  const t0 = Date.now();
  // `--verdict-e2e-only assertion` runs one kind (a long measurement in parts); the others then report 0 PRs.
  const only = typeof ctx.flags.verdictE2eOnly === "string" ? ctx.flags.verdictE2eOnly : undefined;
  const kinds = (["aa", "assertion", "trigger"] as const).filter((s) => !only || only === s);
  // Without an allotment (`--seconds 0`) the rounds have no natural end: UNBOUNDED_SECONDS of them then.
  const deadline =
    seconds !== undefined
      ? t0 + seconds * 1000
      : Number.isFinite(ctx.deadline)
        ? ctx.deadline
        : t0 + UNBOUNDED_SECONDS * 1000;
  const results = await runPrs(ctx, root, agent, [...kinds], { prs, deadline }, parallel);
  const aa = summarize(results.get("aa") ?? []);
  const assertion = summarize(results.get("assertion") ?? []);
  const trigger = summarize(results.get("trigger") ?? []);
  const pct = (x: { rate: number; halfWidth: number }) =>
    `${(100 * x.rate).toFixed(1)} % ± ${(100 * x.halfWidth).toFixed(1)}`;
  ctx.log(
    `verdict (end to end, ${aa.prs} / ${assertion.prs} / ${trigger.prs} PRs (A/A / assertion / trigger), whole CLI processes, /dev/urandom agent): A/A false-regression ${pct(aa.falseNew)} (goal ≤ 1 %), blocked ${pct(aa.blocked)}; trials per case head ${aa.meanTrialsPerArm} / base ${aa.meanBaseTrialsPerArm}; ${aa.agentCallsPerPr} agent calls per PR`,
  );
  ctx.log(
    `verdict (end to end): power 0.9 → 0.5 ${pct(assertion.power)} (goal ≥ 90 %), inconclusive ${pct(assertion.inconclusive)}; trials per case head ${assertion.meanTrialsPerArm} (goal ≤ 8) / base ${assertion.meanBaseTrialsPerArm}; the regressed case's head trials ${assertion.suspectHeadTrials}; ${assertion.agentCallsPerPr} agent calls per PR`,
  );
  ctx.log(
    `verdict (end to end): power should-fire 1.0 → 0.3 ${pct(trigger.power)} (goal ≥ 90 %), inconclusive ${pct(trigger.inconclusive)}; its head runs ${trigger.suspectHeadTrials}; ${trigger.agentCallsPerPr} agent calls per PR; ${((Date.now() - t0) / 1000).toFixed(0)} s (${aa.secondsPerPr} s per PR)`,
  );
  return { "verdict.endToEnd": { aa, assertion, trigger, seconds: Math.round((Date.now() - t0) / 1000) } };
}
