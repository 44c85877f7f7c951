/**
 * Cost per verdict (#19): agent calls of a standard PR set, each PR cold (empty trial cache) and warm (the default
 * branch's own run, a sweep of the base, filled the cache first), measured end to end: each run is a fresh
 * `dist/cli.js run` process with a deterministic `command` agent (a shell script: it fires the skill whose name the
 * prompt contains, and answers 42). The PRs:
 * - `descriptionEdit`: one description reworded in a 30-skill catalogue, each skill with 10 should-fire and 10
 *   should-not-fire queries (the routing does not change: no confirmation trials);
 * - `bodyEdit`: the body of a skill with a 3-case suite; `suiteOnlyEdit`: an assertion added to that suite;
 * - `readmeOnlyEdit`: a README change, no skill touched;
 * - `descriptionEditNoTriggerSuite`: the description of a skill gated by a 3-case suite and no trigger set reworded
 *   (its case prompts run as should-fire queries, `routing.casePrompts`, beside the competitor prompts);
 * - `newSkillNoSuite`: a skill without a suite added, its description close to that skill's (the gated skill's case
 *   prompts run against the catalogue as the new skill's negatives).
 * Goals: description edit (either kind) and a new skill ≤ 300 cold / ≤ 150 warm; body edit ≤ 120 / ≤ 60; a PR that touches no skill 0.
 * `descriptionEditAllCompetitors` is the first batch `skillgate plan` forecasts for the description edit with every
 * competitor prompt (the cost before the cap; forecast, not run: 1,860 trials would double the section's time).
 * The default branch's sweep runs once, beside the cold PRs; each warm PR starts from a copy of the cache it filled
 * (each PR its own CLI process), with `SKILLGATE_ISOLATION=none`: agent calls are what is counted here, and
 * confinement changes none of them (the `isolation` section measures what it costs per trial).
 */
import { execFile } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import type { Report } from "../src/model/index.js";
import type { BenchContext } from "./types.js";

const run = promisify(execFile);

export const CATALOGUE_SKILLS = 30;
export const QUERIES_PER_LIST = 10;
const EDITED = "topic07";
const CASES_SKILL = "topic03";
/** A skill gated by cases only (no trigger set): its routing is checked with its case prompts. */
const CASES_ONLY_SKILL = "ledger";

// Shell built-ins only: a $(basename …) per installed skill forked 30 processes a trial, which made the agent,
// not skillgate, most of the section's time (266 s against 43 s for the default branch's sweep, idle machine).
export const AGENT = `#!/bin/sh
IFS= read -r p
for d in .agents/skills/*/; do
  [ -d "$d" ] || continue
  n=\${d%/}
  n=\${n##*/}
  case "$p" in *"$n"*) printf '{"output":"42","skillsActivated":["%s"]}' "$n"; exit 0;; esac
done
printf '{"output":"42","skillsActivated":[]}'
`;

const name = (i: number) => `topic${String(i).padStart(2, "0")}`;

/** The base repository: 30 skills with trigger sets, one of them with a 3-case suite. */
export function writeBase(dir: string, config: string): void {
  const put = (rel: string, text: string) => {
    mkdirSync(join(dir, rel, ".."), { recursive: true });
    writeFileSync(join(dir, rel), text);
  };
  put(".skillgate.yml", config);
  put("README.md", "# skills\n");
  for (let i = 0; i < CATALOGUE_SKILLS; i++) {
    const n = name(i);
    put(
      `.claude/skills/${n}/SKILL.md`,
      `---\nname: ${n}\ndescription: Handles ${n} requests.\n---\nDo ${n} work.\n`,
    );
    const fire = Array.from({ length: QUERIES_PER_LIST }, (_, q) => `please do ${n} task number ${q}`);
    const nofire = Array.from({ length: QUERIES_PER_LIST }, (_, q) => `unrelated chore ${i}-${q}`);
    put(`.agent/evals/${n}/trigger-eval.json`, JSON.stringify({ shouldFire: fire, shouldNotFire: nofire }));
  }
  put(`.agent/evals/${CASES_SKILL}/meta.json`, JSON.stringify({ trials: 3 }));
  for (const c of ["a", "b", "c"])
    put(
      `.agent/evals/${CASES_SKILL}/prompts/${c}.yaml`,
      `id: ${c}\nprompt: Case ${c} for ${CASES_SKILL}, answer with a number.\nassertions:\n  - id: is-42\n    type: contains\n    value: "42"\n`,
    );
  put(
    `.claude/skills/${CASES_ONLY_SKILL}/SKILL.md`,
    `---\nname: ${CASES_ONLY_SKILL}\ndescription: Handles ${CASES_ONLY_SKILL} requests.\n---\nDo ${CASES_ONLY_SKILL} work.\n`,
  );
  for (const c of ["a", "b", "c"])
    put(
      `.agent/evals/${CASES_ONLY_SKILL}/prompts/${c}.yaml`,
      `id: ${c}\nprompt: Case ${c} for ${CASES_ONLY_SKILL}, answer with a number.\nassertions:\n  - id: is-42\n    type: contains\n    value: "42"\n`,
    );
}

type Edit = (dir: string) => void;
export const EDITS: Record<string, Edit> = {
  descriptionEdit: (d) =>
    writeFileSync(
      join(d, `.claude/skills/${EDITED}/SKILL.md`),
      `---\nname: ${EDITED}\ndescription: Handles every ${EDITED} request, start to finish.\n---\nDo ${EDITED} work.\n`,
    ),
  bodyEdit: (d) =>
    writeFileSync(
      join(d, `.claude/skills/${CASES_SKILL}/SKILL.md`),
      `---\nname: ${CASES_SKILL}\ndescription: Handles ${CASES_SKILL} requests.\n---\nDo ${CASES_SKILL} work carefully.\n`,
    ),
  suiteOnlyEdit: (d) =>
    writeFileSync(
      join(d, `.agent/evals/${CASES_SKILL}/prompts/a.yaml`),
      `id: a\nprompt: Case a for ${CASES_SKILL}, answer with a number.\nassertions:\n  - id: is-42\n    type: contains\n    value: "42"\n  - id: no-41\n    type: not-contains\n    value: "41"\n`,
    ),
  readmeOnlyEdit: (d) => writeFileSync(join(d, "README.md"), "# skills\n\nNow with a table of contents.\n"),
  descriptionEditNoTriggerSuite: (d) =>
    writeFileSync(
      join(d, `.claude/skills/${CASES_ONLY_SKILL}/SKILL.md`),
      `---\nname: ${CASES_ONLY_SKILL}\ndescription: Handles every ${CASES_ONLY_SKILL} request, start to finish.\n---\nDo ${CASES_ONLY_SKILL} work.\n`,
    ),
  newSkillNoSuite: (d) => {
    mkdirSync(join(d, ".claude/skills/ledger-lite"), { recursive: true });
    writeFileSync(
      join(d, ".claude/skills/ledger-lite/SKILL.md"),
      `---\nname: ledger-lite\ndescription: Handles ${CASES_ONLY_SKILL} requests, quickly.\n---\nDo less work.\n`,
    );
  },
};

async function cli(ctx: BenchContext, args: string[]): Promise<Report> {
  return runReport(ctx, args, join(ctx.tmp, `cost-${Math.random().toString(36).slice(2)}.json`));
}

/** One whole `dist/cli.js run` (isolation off: the bench's agents are its own); its JSON report, at `out`. */
export async function runReport(ctx: BenchContext, args: string[], out: string): Promise<Report> {
  try {
    await run(process.execPath, [join(ctx.root, "dist/cli.js"), "run", ...args, "--json", out, "--quiet"], {
      maxBuffer: 64 * 1024 * 1024,
      env: { ...process.env, SKILLGATE_ISOLATION: "none" },
    });
  } catch (e) {
    // exit 1 (a failing verdict) still writes the report; anything else is a bench failure
    if ((e as { code?: number }).code !== 1) throw e;
  }
  return JSON.parse(readFileSync(out, "utf8")) as Report;
}

export async function bench(ctx: BenchContext): Promise<Record<string, unknown>> {
  const root = join(ctx.tmp, "cost");
  mkdirSync(root, { recursive: true });
  const agent = join(root, "agent.sh");
  writeFileSync(agent, AGENT, { mode: 0o755 });
  const config = (cacheDir: string, extra = "") =>
    `agent:\n  adapter: command\n  command: ${JSON.stringify(agent)}\nconcurrency: 8\nbudget:\n  maxAgentCalls: 5000\ncache:\n  dir: ${JSON.stringify(cacheDir)}\n${extra}`;
  const figures: Record<string, unknown> = {};
  const t0 = Date.now();
  // The base of every PR, and the default branch's own run on it (a sweep, as a push to main runs). Cold PRs need
  // no cache, so they run while the sweep does; warm PRs wait for it.
  const mainCache = join(root, "main-cache");
  const base = join(root, "base");
  writeBase(base, config(mainCache));
  const sweep = cli(ctx, ["--repo", base]).then((main) => {
    figures["cost.mainSweep.agentCalls"] = main.cost.agentCalls;
    ctx.log(
      `cost: the default branch's sweep (fills the cache PRs read): ${main.cost.agentCalls} agent calls`,
    );
  });
  // Awaited below; until then a failure must not end the process as an unhandled rejection.
  sweep.catch(() => undefined);
  let n = 0;
  const scenario = async (pr: string, warm: boolean) => {
    if (warm) await sweep;
    const dir = join(root, `${pr}-${warm ? "warm" : "cold"}-${n++}`);
    const cacheDir = join(dir, "cache");
    if (warm && existsSync(mainCache)) cpSync(mainCache, cacheDir, { recursive: true });
    const prBase = join(dir, "base");
    const head = join(dir, "head");
    writeBase(prBase, config(cacheDir));
    cpSync(prBase, head, { recursive: true });
    EDITS[pr]!(head);
    const r = await cli(ctx, ["--repo", head, "--base-dir", prBase]);
    rmSync(dir, { recursive: true, force: true });
    if (r.verdict === "error") throw new Error(`${pr}: the run ended in error: ${r.errors.join("; ")}`);
    return r;
  };
  // One CLI process for the sweep and one for the PRs at a time, cold ones first: the agent is a shell script, so
  // a run mostly waits on process starts.
  const runs = [
    ...Object.keys(EDITS).map((pr) => ({ pr, warm: false })),
    ...Object.keys(EDITS).map((pr) => ({ pr, warm: true })),
  ];
  const reports = new Map<string, Report>();
  for (const { pr, warm } of runs) reports.set(`${pr}-${warm}`, await scenario(pr, warm));
  await sweep;
  for (const pr of Object.keys(EDITS)) {
    const cold = reports.get(`${pr}-false`)!;
    const warm = reports.get(`${pr}-true`)!;
    figures[`cost.${pr}.cold`] = cold.cost.agentCalls;
    figures[`cost.${pr}.warm`] = warm.cost.agentCalls;
    figures[`cost.${pr}.forecastCold`] = cold.forecast?.total.agentCalls;
    figures[`cost.${pr}.forecastWarm`] = warm.forecast?.total.agentCalls;
    ctx.log(
      `cost: ${pr}: ${cold.cost.agentCalls} agent calls cold, ${warm.cost.agentCalls} warm (forecast ${cold.forecast?.total.agentCalls} / ${warm.forecast?.total.agentCalls}); verdict ${cold.verdict} / ${warm.verdict}`,
    );
  }
  // Before the cap: every competitor prompt, forecast by `skillgate plan` (no trial runs).
  const uncapped = join(root, "uncapped");
  writeBase(join(uncapped, "base"), config(join(uncapped, "cache"), "competitors:\n  maxPrompts: 10000\n"));
  cpSync(join(uncapped, "base"), join(uncapped, "head"), { recursive: true });
  EDITS.descriptionEdit!(join(uncapped, "head"));
  const planJson = join(uncapped, "plan.json");
  await run(process.execPath, [
    join(ctx.root, "dist/cli.js"),
    "plan",
    "--repo",
    join(uncapped, "head"),
    "--base-dir",
    join(uncapped, "base"),
    "--json",
    planJson,
  ]).catch((e: { code?: number }) => {
    if (e.code !== 3) throw e; // 3: over the budget, which the forecast says
  });
  const allCompetitors = (
    JSON.parse(readFileSync(planJson, "utf8")) as { forecast: { total: { agentCalls: number } } }
  ).forecast.total.agentCalls;
  figures["cost.descriptionEditAllCompetitors.forecastCold"] = allCompetitors;
  ctx.log(
    `cost: the description edit with every competitor prompt (no cap) would take ${allCompetitors} calls cold`,
  );
  const goals = {
    descriptionEdit: [300, 150],
    descriptionEditNoTriggerSuite: [300, 150],
    newSkillNoSuite: [300, 150],
    bodyEdit: [120, 60],
    readmeOnlyEdit: [0, 0],
  } as const;
  const met = Object.entries(goals).every(
    ([pr, [c, w]]) =>
      (figures[`cost.${pr}.cold`] as number) <= c && (figures[`cost.${pr}.warm`] as number) <= w,
  );
  figures["cost.goalsMet"] = met;
  figures["cost.seconds"] = Math.round((Date.now() - t0) / 100) / 10;
  ctx.log(
    `cost: goals (description, new skill ≤ 300 / 150, body ≤ 120 / 60, no skill 0) ${met ? "met" : "NOT met"}; ${figures["cost.seconds"]} s`,
  );
  return figures;
}
