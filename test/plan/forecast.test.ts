/**
 * A forecast before spending (#19.5): `skillgate plan` and the first lines of a run say per skill and battery what
 * the first batch runs, the cache hits expected and the cost estimated from recorded usage; a run whose first
 * batch would exceed the budget (default or configured) spends nothing and ends in an error naming the setting;
 * `--trials` overrides meta.json. End to end through the CLI with a `command` agent that reports usage.
 */
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { Forecast, Report, TrialRequest } from "../../src/model/index.js";
import { buildForecast, renderForecast } from "../../src/plan/forecast.js";
import { DEFAULT_BUDGET } from "../../src/settings/defaults.js";
import { writeRepo } from "../support/repo-files.js";
import { runCli } from "../support/run-cli.js";

const scratch: string[] = [];
afterAll(() => {
  for (const d of scratch) rmSync(d, { recursive: true, force: true });
});
const temp = (files: Record<string, string>, prefix: string) => {
  const d = writeRepo(files, prefix);
  scratch.push(d);
  return d;
};

const req = (key: string, mode: TrialRequest["mode"]): TrialRequest => ({
  key,
  skill: "s",
  caseId: "c",
  mode,
  trial: 0,
  prompt: "p",
  files: [],
  install: [],
  seed: 1,
});

describe("buildForecast", () => {
  const planned = [
    { skill: "s", battery: "discriminator" as const, arm: "head" as const, request: req("k1", "skill") },
    { skill: "s", battery: "discriminator" as const, arm: "head" as const, request: req("k2", "baseline") },
    { skill: "s", battery: "discriminator" as const, arm: "base" as const, request: req("k3", "skill") },
    // the base's baseline trial is the head's (same key): one trial
    { skill: "s", battery: "discriminator" as const, arm: "base" as const, request: req("k2", "baseline") },
    { skill: "s", battery: "trigger" as const, arm: "head" as const, request: req("k4", "trigger") },
  ];
  const usage = {
    skill: { trials: 4, usd: 0.4, inputTokens: 0, outputTokens: 0 },
    trigger: { trials: 10, usd: 0.1, inputTokens: 0, outputTokens: 0 },
  };
  const input = {
    planned,
    cached: new Set(["k3"]),
    live: true,
    identity: "claude-code/2/x",
    usage,
    budget: { maxAgentCalls: 10, maxUsd: 1 },
    budgetSource: "the default",
    maxConfirmationTrials: 55,
    baseTrialsPerHeadTrial: 4,
  };

  it("counts shared keys once, expects the cached ones, prices the rest by recorded usage per mode", () => {
    const f = buildForecast(input);
    expect(f.lines).toEqual([
      // baseline has no recorded usage: priced at the mean of every recorded mode (0.5 / 14)
      { skill: "s", battery: "discriminator", trials: 3, cacheHits: 1, agentCalls: 2, usd: 0.1 + 0.5 / 14 },
      { skill: "s", battery: "trigger", trials: 1, cacheHits: 0, agentCalls: 1, usd: 0.01 },
    ]);
    expect(f.total).toMatchObject({ trials: 4, cacheHits: 1, agentCalls: 3 });
    expect(f.overBudget).toBeUndefined();
  });

  it("names the setting when the first batch alone is over budget, calls first", () => {
    const calls = buildForecast({ ...input, budget: { maxAgentCalls: 2, maxUsd: 100 } });
    expect(calls.overBudget).toMatch(/3 agent calls, more than budget\.maxAgentCalls 2 \(the default\)/);
    const usd = buildForecast({ ...input, budget: { maxAgentCalls: 100, maxUsd: 0.05 } });
    expect(usd.overBudget).toMatch(/more than budget\.maxUsd \$0\.05/);
    expect(renderForecast(usd).at(-1)).toMatch(/^ {2}over budget: /);
  });

  it("without recorded usage says so and never blocks on USD; a replay makes no calls", () => {
    const f = buildForecast({ ...input, usage: {}, budget: { maxUsd: 0.000001 } });
    expect(f.total.usd).toBeUndefined();
    expect(f.costBasis).toMatch(/no usage recorded for claude-code\/2\/x/);
    expect(f.overBudget).toBeUndefined();
    expect(buildForecast({ ...input, live: false }).total.agentCalls).toBe(0);
  });
});

/**
 * Answers every case correctly and reports a price per call, so recorded usage can be checked. A shell script, not
 * a Node one: a Node start-up costs ~0.15 s of CPU per trial on the 2-core test machine.
 */
const AGENT = `printf '%s' '${JSON.stringify({ output: "42", skillsActivated: [], usage: { inputTokens: 100, outputTokens: 10, costUsd: 0.002 } })}'\n`;

function repo(body: string, agentFile: string, config = "") {
  return {
    ".skillgate.yml": `agent:\n  adapter: command\n  command: ${JSON.stringify(`sh ${agentFile}`)}\nconcurrency: 2\n${config}`,
    ".claude/skills/answer/SKILL.md": `---\nname: answer\ndescription: Answer questions with the number 42\n---\n${body}\n`,
    ".agent/evals/answer/meta.json": JSON.stringify({ trials: 3 }),
    ".agent/evals/answer/prompts/a.yaml":
      "id: a\nprompt: What is six times seven?\nassertions:\n  - id: is-42\n    type: contains\n    value: '42'\n",
    ".agent/evals/answer/prompts/b.yaml":
      "id: b\nprompt: What is forty plus two?\nassertions:\n  - id: is-42\n    type: contains\n    value: '42'\n",
  };
}

describe("skillgate plan and the run's budget, end to end", () => {
  it("forecasts a body edit cold, runs within it, then forecasts the cache hits and the recorded price", async () => {
    const agentDir = temp({ "agent.sh": AGENT }, "sg-fc-agent-");
    const cacheDir = join(temp({}, "sg-fc-cache-"), "trials");
    const cfg = `cache:\n  dir: ${JSON.stringify(cacheDir)}\n`;
    const base = temp(repo("Say 42.", join(agentDir, "agent.sh"), cfg), "sg-fc-base-");
    const head = temp(repo("Say 42, always.", join(agentDir, "agent.sh"), cfg), "sg-fc-head-");
    const json = join(agentDir, "plan.json");

    const cold = await runCli(["plan", "--repo", head, "--base-dir", base, "--json", json]);
    expect(cold.code).toBe(0);
    const f = (JSON.parse(readFileSync(json, "utf8")) as { forecast: Forecast }).forecast;
    // 2 cases × 3 trials: skill at head, skill at base, one baseline shared by both arms
    expect(f.lines).toEqual([
      { skill: "answer", battery: "discriminator", trials: 18, cacheHits: 0, agentCalls: 18 },
    ]);
    expect(f.budget).toMatchObject({ ...DEFAULT_BUDGET, source: expect.stringMatching(/^the default/) });
    expect(cold.stdout).toMatch(/answer discriminator: 18 trial\(s\), 0 cached, 18 call\(s\), \$\?/);

    const out = join(agentDir, "report.json");
    const run = await runCli(["run", "--repo", head, "--base-dir", base, "--json", out, "--quiet"]);
    expect(run.code).toBe(0);
    const report = JSON.parse(readFileSync(out, "utf8")) as Report;
    expect(report.cost.agentCalls).toBe(18);
    expect(report.forecast!.total.agentCalls).toBe(18);

    const warm = await runCli(["plan", "--repo", head, "--base-dir", base, "--json", json]);
    const w = (JSON.parse(readFileSync(json, "utf8")) as { forecast: Forecast }).forecast;
    expect(w.total).toEqual({ trials: 18, cacheHits: 18, agentCalls: 0, usd: 0 });
    expect(w.costBasis).toMatch(/mean usage of 18 trial\(s\)/);
    // a different edit: its 6 head skill trials are new, priced at the recorded $0.002 per skill trial
    const head2 = temp(repo("Say 42, never 41.", join(agentDir, "agent.sh"), cfg), "sg-fc-head2-");
    await runCli(["plan", "--repo", head2, "--base-dir", base, "--json", json]);
    const w2 = (JSON.parse(readFileSync(json, "utf8")) as { forecast: Forecast }).forecast;
    expect(w2.total.agentCalls).toBe(6);
    expect(w2.total.usd).toBeCloseTo(0.012, 10);
    expect(warm.code).toBe(0);
  }, 120_000);

  it("--trials overrides meta.json, and a first batch over the default budget spends nothing and names the setting", async () => {
    const agentDir = temp({ "agent.sh": AGENT }, "sg-fc-agent-");
    const base = temp(repo("Say 42.", join(agentDir, "agent.sh")), "sg-fc-base-");
    const head = temp(repo("Say 42, always.", join(agentDir, "agent.sh")), "sg-fc-head-");
    const json = join(agentDir, "plan.json");
    await runCli(["plan", "--repo", head, "--base-dir", base, "--trials", "5", "--no-cache", "--json", json]);
    expect((JSON.parse(readFileSync(json, "utf8")) as { forecast: Forecast }).forecast.total.trials).toBe(
      2 * 5 * 3,
    );

    const over = await runCli(["plan", "--repo", head, "--base-dir", base, "--trials", "90", "--no-cache"]);
    expect(over.code).toBe(3);
    expect(over.stdout).toMatch(/540 agent calls, more than budget\.maxAgentCalls 500 \(the default/);
    const out = join(agentDir, "report.json");
    const run = await runCli([
      "run",
      "--repo",
      head,
      "--base-dir",
      base,
      "--trials",
      "90",
      "--no-cache",
      "--json",
      out,
      "--quiet",
    ]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(3);
    const report = JSON.parse(readFileSync(out, "utf8")) as Report;
    expect(report.verdict).toBe("error");
    expect(report.cost.agentCalls).toBe(0);
    expect(report.errors.join("\n")).toMatch(
      /not run: .*budget\.maxAgentCalls 500.*raise budget\.maxAgentCalls in the base branch's \.skillgate\.yml/,
    );
  }, 120_000);
});
