/**
 * End to end through the real Claude Code CLI: a repository with a skill, its suite and a second skill is
 * discovered, planned, run through `runTrials` with `agent: {adapter: claude-code, command: <claude>}` and the
 * model URL in ANTHROPIC_BASE_URL, then graded. The scripted model only knows the largest-remainder answer when
 * the skill body reaches it, so the discriminator separates skill from baseline for real. A model that answers
 * only errors yields error records that grade as errors, never as passes.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { assertionLookup } from "../../src/detect/assertion-types.js";
import { discoverRepository } from "../../src/detect/discover.js";
import "../../src/grade/assertions/index.js";
import * as assertionRegistry from "../../src/grade/assertions/registry.js";
import { gradeTrial } from "../../src/grade/grade-trial.js";
import type { Skill, TrialRecord, TrialRequest } from "../../src/model/index.js";
import { planTrials } from "../../src/plan/plan.js";
import { triggerCheckId, triggerQueries } from "../../src/plan/queries.js";
import { type RunOptions, runTrials } from "../../src/run/runner.js";
import {
  apiError,
  type ScriptedServer,
  startScriptedAnthropic,
  text,
  toolUse,
} from "../support/scripted-anthropic.js";
import { recordingLogger } from "../support/trials.js";

const CLAUDE = resolve("node_modules/.bin/claude");
let repo: string;
let skills: Skill[];
const saved = { ...process.env };

function write(rel: string, content: string) {
  mkdirSync(dirname(join(repo, rel)), { recursive: true });
  writeFileSync(join(repo, rel), content);
}

beforeAll(() => {
  repo = mkdtempSync(join(tmpdir(), "e2e-repo-"));
  write(
    ".claude/skills/split-cents/SKILL.md",
    "---\nname: split-cents\ndescription: Split money amounts in cents among people without losing a cent.\n---\n\nUse the largest remainder method: 1000 among 3 is 334, 333, 333.\n",
  );
  write(
    ".claude/skills/split-cents/evals/meta.json",
    JSON.stringify({ skillVersion: "1", suiteVersion: "1", trials: 1, thresholds: {} }),
  );
  write(
    ".claude/skills/split-cents/evals/prompts/split.json",
    JSON.stringify({
      id: "split-1000-3",
      prompt: "Split 1000 cents among 3 people and write src/split.ts.",
      assertions: [
        { id: "mentions-total", type: "contains", value: "1000" },
        { id: "D:no-lost-cent", type: "not-one-of", extract: "first-number", values: [333] },
        { id: "wrote-module", type: "file-exists", value: "src/split.ts" },
      ],
    }),
  );
  write(
    ".claude/skills/split-cents/evals/trigger-eval.json",
    JSON.stringify({
      shouldFire: [{ prompt: "Help me split the bill of 1000 cents" }],
      shouldNotFire: [{ prompt: "What is the capital of France?" }],
    }),
  );
  write(
    ".claude/skills/weather-report/SKILL.md",
    "---\nname: weather-report\ndescription: Write short weather reports.\n---\n\nBe brief.\n",
  );
  const found = discoverRepository(repo, {
    profile: "claude-code",
    assertionTypes: assertionLookup(assertionRegistry),
  });
  expect(found.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  skills = found.skills;
  process.env.ANTHROPIC_API_KEY = "sk-ant-dummy";
  process.env.CLAUDE_CODE_MAX_RETRIES = "0";
});

afterAll(() => {
  for (const k of ["ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL", "CLAUDE_CODE_MAX_RETRIES"]) {
    if (saved[k] === undefined) delete process.env[k];
    else process.env[k] = saved[k];
  }
});

function plan(): TrialRequest[] {
  const skill = skills.find((s) => s.name === "split-cents")!;
  expect(skill.suite?.cases).toHaveLength(1);
  const queries = triggerQueries(skill.suite!.trigger!).map((q) => ({
    checkId: triggerCheckId(q),
    prompt: q.prompt,
  }));
  return planTrials({
    repoDir: repo,
    skill,
    catalogue: skills,
    batteries: { discriminator: true, trigger: true },
    trials: 1,
    triggerRuns: 1,
    seed: 1,
    triggerQueries: queries,
  });
}

function opts(p: Partial<RunOptions> = {}): RunOptions {
  return {
    agent: { adapter: "claude-code", command: CLAUDE },
    repoDir: repo,
    concurrency: 4,
    timeoutMs: 90_000,
    maxRetries: 1,
    retryBaseMs: 10,
    cache: { enabled: true, dir: join(repo, ".skillgate-cache") },
    budget: {},
    logger: recordingLogger(),
    ...p,
  };
}

async function grade(req: TrialRequest, record: TrialRecord) {
  const skill = skills.find((s) => s.name === "split-cents")!;
  const caseDef = skill.suite!.cases.find((c) => c.id === req.caseId)!;
  const checks = await gradeTrial({
    suite: skill.suite!,
    caseDef,
    trial: record,
    vars: {},
    repoDir: repo,
    gateSeed: 1,
  });
  return Object.fromEntries(checks.map((c) => [c.assertionId, c.status]));
}

describe("batteries end to end through the real Claude Code CLI", () => {
  let server: ScriptedServer;
  beforeAll(async () => {
    server = await startScriptedAnthropic((r) => {
      if (!r.hasTools) return text("ok");
      const prompt =
        /(Split 1000 cents among 3 people|Help me split the bill|What is the capital)[^"]*/.exec(
          r.raw,
        )?.[0] ?? "";
      const offered = r.raw.includes("- split-cents:");
      if (r.turn === 0 && offered && /split/i.test(prompt)) return toolUse("Skill", { skill: "split-cents" });
      const knows = r.raw.includes("largest remainder method");
      if (prompt.startsWith("Split 1000")) {
        const last = r.body.messages.at(-1);
        const wrote = JSON.stringify(last).includes("File created");
        if (!wrote) {
          return toolUse("Write", {
            file_path: "src/split.ts",
            content: `export const parts = [${knows ? "334, 333, 333" : "333, 333, 333"}];\n`,
          });
        }
        return text(knows ? "334, 333 and 333: the 1000 cents are all kept." : "333 each, from 1000 cents.");
      }
      return text("Done.");
    });
    process.env.ANTHROPIC_BASE_URL = server.url;
  });
  afterAll(() => server.close());

  test("skill trials load the skill and write files; baselines cannot see it; triggers route; a repeat run is cached", async () => {
    const requests = plan();
    expect(requests.map((r) => `${r.mode}:${r.caseId}`)).toEqual([
      "skill:split-1000-3",
      "baseline:split-1000-3",
      "trigger:trigger/fire/0",
      "trigger:trigger/nofire/0",
    ]);
    const out = await runTrials(requests, opts());
    const [skillRec, baseRec, fire, nofire] = out.records;
    for (const r of out.records) expect(r.error).toBeUndefined();
    expect(skillRec!.skillsActivated).toEqual(["split-cents"]);
    expect(skillRec!.files["src/split.ts"]).toBe("export const parts = [334, 333, 333];\n");
    expect(baseRec!.skillsActivated).toEqual([]);
    expect(baseRec!.skillsRegistered).not.toContain("split-cents");
    expect(baseRec!.files["src/split.ts"]).toBe("export const parts = [333, 333, 333];\n");
    expect(fire!.skillsActivated).toEqual(["split-cents"]);
    expect(nofire!.skillsActivated).toEqual([]);

    expect(await grade(requests[0]!, skillRec!)).toMatchObject({
      "trial-ok": "pass",
      "mentions-total": "pass",
      "D:no-lost-cent": "pass",
      "wrote-module": "pass",
    });
    expect(await grade(requests[1]!, baseRec!)).toMatchObject({
      "trial-ok": "pass",
      "D:no-lost-cent": "fail",
    });

    expect(out.cost.agentCalls).toBe(4);
    const again = await runTrials(requests, opts());
    expect(again.cost).toMatchObject({ agentCalls: 0, cacheHits: 4 });
  }, 240_000);
});

describe("a model that answers only errors", () => {
  let server: ScriptedServer;
  beforeAll(async () => {
    server = await startScriptedAnthropic(() => apiError(500, "internal error", "api_error"));
    process.env.ANTHROPIC_BASE_URL = server.url;
  });
  afterAll(() => server.close());

  test("yields error records that grade as errors, never a pass", async () => {
    const requests = plan().slice(0, 2);
    const out = await runTrials(
      requests,
      opts({ cache: { enabled: true, dir: join(repo, ".cache-errors") } }),
    );
    for (const r of out.records) {
      expect(r.error).toMatchObject({ kind: "crash", transient: true });
      expect(r.error?.message).toMatch(/500/);
    }
    expect(out.cost.agentCalls).toBe(4); // one retry each
    const grades = await grade(requests[0]!, out.records[0]!);
    expect(grades["trial-ok"]).toBe("error");
    expect(Object.values(grades)).not.toContain("pass");
  }, 240_000);
});
