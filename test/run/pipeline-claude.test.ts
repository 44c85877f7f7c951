import { resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Report, Settings } from "../../src/model/index.js";
import { runPipeline } from "../../src/pipeline.js";
import { IsolationRefused, REQUIRED_ISOLATION } from "../../src/run/isolation.js";
import { isolation } from "../../src/sandbox/isolation/detect.js";
import { resolveSettings } from "../../src/settings/resolve.js";
import { splitCentsClaudeFiles, writeRepo } from "../support/repo-files.js";
import {
  apiError,
  type ScriptedServer,
  startScriptedAnthropic,
  text,
  toolUse,
} from "../support/scripted-anthropic.js";
import { recordingLogger } from "../support/trials.js";

const CLAUDE = resolve("node_modules/.bin/claude");
const saved = { ...process.env };

function makeRepo(): string {
  return writeRepo(
    {
      ...splitCentsClaudeFiles(CLAUDE, "triggerRuns: 1\n"),
      ".claude/skills/split-cents/evals/trigger-eval.json": JSON.stringify({
        shouldFire: [{ prompt: "Help me split the bill of 1000 cents" }],
        shouldNotFire: [{ prompt: "What is the capital of France?" }],
      }),
    },
    "pipeline-cc-",
  );
}

async function pipeline(repo: string, policy?: Settings["isolation"]): Promise<Report> {
  const settings = await resolveSettings({ repo, noCache: true }, recordingLogger());
  if (policy) settings.isolation = policy;
  return runPipeline(settings);
}

beforeAll(() => {
  process.env.ANTHROPIC_API_KEY = "sk-ant-dummy";
  process.env.CLAUDE_CODE_MAX_RETRIES = "0";
});
afterAll(() => {
  for (const k of ["ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL", "CLAUDE_CODE_MAX_RETRIES"]) {
    if (saved[k] === undefined) delete process.env[k];
    else process.env[k] = saved[k];
  }
});

describe("runPipeline with the real Claude Code CLI", () => {
  let server: ScriptedServer;
  afterAll(() => server?.close());

  test("a working model, under the Action's isolation policy: the batteries run, the skill fires, the verdict is not error", async () => {
    server = await startScriptedAnthropic((r) => {
      if (!r.hasTools) return text("ok");
      const prompt =
        /(Split 1000 cents among 3 people|Help me split the bill|What is the capital)[^"]*/.exec(
          r.raw,
        )?.[0] ?? "";
      if (r.turn === 0 && r.raw.includes("- split-cents:") && /split/i.test(prompt))
        return toolUse("Skill", { skill: "split-cents" });
      if (prompt.startsWith("Split 1000"))
        return text(r.raw.includes("largest remainder method") ? "334, 333 and 333" : "333 each");
      return text("Paris.");
    });
    process.env.ANTHROPIC_BASE_URL = server.url;
    // What the Action sets (run-action.ts): the strongest level required, nothing weaker accepted. Claude Code is
    // confined, so a machine that reaches that level runs it; one that does not is refused before any trial.
    const policy = { required: true, allowWeaker: false };
    if ((await isolation()).level !== REQUIRED_ISOLATION) {
      await expect(pipeline(makeRepo(), policy)).rejects.toBeInstanceOf(IsolationRefused);
      expect(server.requests).toEqual([]);
      return;
    }
    const report = await pipeline(makeRepo(), policy);
    expect(report.agent.adapter).toBe("claude-code");
    expect(report.agent.identity).toMatch(/^claude-code\/2\.1\./);
    // Claude Code runs confined like every agent: the run is at the machine's level, not `none`.
    expect(report.isolation?.level).toBe((await isolation()).level);
    expect(report.errors).toEqual([]);
    expect(report.verdict).not.toBe("error");
    expect(report.cost.agentCalls).toBeGreaterThanOrEqual(4);
    const skill = report.skills.find((s) => s.name === "split-cents")!;
    expect(skill.trigger?.recall).toMatchObject({ rate: 1 });
    expect(skill.trigger?.precision).toMatchObject({ rate: 1 });
  }, 300_000);

  test("a model that answers only errors: verdict error, never pass", async () => {
    await server?.close();
    server = await startScriptedAnthropic(() => apiError(500, "internal error", "api_error"));
    process.env.ANTHROPIC_BASE_URL = server.url;
    const report = await pipeline(makeRepo());
    expect(report.verdict).toBe("error");
    expect(report.skills.every((s) => s.verdict !== "pass")).toBe(true);
  }, 300_000);
});
