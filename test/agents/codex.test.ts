/**
 * The codex adapter against the real Codex CLI (pinned devDependency) and a scripted Responses API on loopback,
 * reached through the provider in the `config.toml` the adapter writes. A handful of trials.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { parseCodexEvents } from "../../src/agents/codex.js";
import type { TrialRecord } from "../../src/model/index.js";
import { type RunOptions, runTrials } from "../../src/run/runner.js";
import { isolation } from "../../src/sandbox/isolation/detect.js";
import { EGRESS_PORT_BASE } from "../../src/sandbox/isolation/egress.js";
import {
  type ResponsesRequest,
  respCall,
  respError,
  respText,
  type ScriptedResponsesServer,
  startScriptedResponses,
} from "../support/scripted-responses.js";
import { makeRequest, recordingLogger, skill } from "../support/trials.js";

const CODEX = resolve("node_modules/.bin/codex");
let server: ScriptedResponsesServer;
let repo: string;
let confined: boolean;
const saved = { ...process.env };

const listed = (r: ResponsesRequest, name: string) => r.raw.includes(`- ${name}:`);
const promptOf = (r: ResponsesRequest, scenario: string) =>
  new RegExp(`${scenario}:([^"]*)`).exec(r.raw)?.[1] ?? "";

function model(r: ResponsesRequest) {
  if (r.raw.includes("SCENARIO-SKILL")) {
    if (r.turn === 0) return respCall("exec_command", { cmd: "cat .agents/skills/split-cents/SKILL.md" });
    if (r.turn === 1) {
      const learned = r.raw.includes("Largest remainder") ? "largest remainder" : "naive";
      return respCall("exec_command", { cmd: `mkdir -p src && echo '// ${learned}' > src/split.ts` });
    }
    return respText("334, 333, 333");
  }
  if (r.raw.includes("SCENARIO-BASELINE")) {
    if (r.turn === 0)
      return respCall("exec_command", {
        cmd: 'env | sort; find . -name SKILL.md; cat "$CODEX_HOME/config.toml"',
      });
    return respText(
      `listed=${listed(r, "split-cents")} constrained=${r.raw.includes("Do not look for skills.")}`,
    );
  }
  if (r.raw.includes("SCENARIO-TRIGGER")) {
    if (r.turn === 0 && /bill/.test(promptOf(r, "SCENARIO-TRIGGER")) && listed(r, "split-cents")) {
      return respCall("exec_command", { cmd: "cat .agents/skills/split-cents/SKILL.md" });
    }
    return respText("done");
  }
  if (r.raw.includes("SCENARIO-ERROR")) return respError(400, "scripted bad request");
  if (r.raw.includes("SCENARIO-HANG")) return { kind: "hang" } as const;
  return respText("plain");
}

function opts(p: Partial<RunOptions> = {}): RunOptions {
  return {
    agent: { adapter: "codex", command: CODEX, model: "gpt-test", baseUrl: `${server.url}/v1` },
    repoDir: repo,
    concurrency: 3,
    timeoutMs: 60_000,
    maxRetries: 0,
    cache: { enabled: false, dir: "" },
    budget: {},
    logger: recordingLogger(),
    ...p,
  };
}

beforeAll(async () => {
  confined = (await isolation()).level !== "none";
  server = await startScriptedResponses(model);
  repo = mkdtempSync(join(tmpdir(), "codex-repo-"));
  for (const [name, desc] of [
    ["split-cents", "Split money amounts in cents without losing a cent."],
    ["weather-report", "Write weather reports."],
  ]) {
    mkdirSync(join(repo, ".agents/skills", name!), { recursive: true });
    writeFileSync(
      join(repo, ".agents/skills", name!, "SKILL.md"),
      `---\nname: ${name}\ndescription: ${desc}\n---\n\nLargest remainder.\n`,
    );
  }
  process.env.OPENAI_API_KEY = "sk-dummy";
  process.env.GITHUB_TOKEN = "ghs_must_not_leak";
});

afterAll(async () => {
  for (const k of ["OPENAI_API_KEY", "GITHUB_TOKEN"]) {
    if (saved[k] === undefined) delete process.env[k];
    else process.env[k] = saved[k];
  }
  await server?.close();
});

const inst = (name: string) => skill(name, join(repo, ".agents/skills", name), ["SKILL.md"]);

describe("codex adapter with the real CLI", () => {
  let records: TrialRecord[];
  beforeAll(async () => {
    const catalogue = [inst("split-cents"), inst("weather-report")];
    records = (
      await runTrials(
        [
          makeRequest({ prompt: "SCENARIO-SKILL: split 1000 cents", install: [inst("split-cents")] }),
          makeRequest({
            prompt: "SCENARIO-BASELINE: split 1000 cents",
            mode: "baseline",
            constraints: ["Do not look for skills."],
          }),
          makeRequest({ prompt: "SCENARIO-TRIGGER: split the bill", mode: "trigger", install: catalogue }),
          makeRequest({ prompt: "SCENARIO-TRIGGER: capital of France", mode: "trigger", install: catalogue }),
          makeRequest({ prompt: "SCENARIO-ERROR: hi" }),
        ],
        opts(),
      )
    ).records;
  }, 180_000);

  test("skill trial: reading SKILL.md is the activation, and the agent writes files", () => {
    const r = records[0]!;
    expect(r.error).toBeUndefined();
    expect(r.skillsActivated).toEqual(["split-cents"]);
    expect(r.toolCalls[0]).toMatchObject({ name: "command_execution", turn: 0 });
    expect(r.files["src/split.ts"]).toBe("// largest remainder\n");
    expect(r.output).toBe("334, 333, 333");
    expect(r.usage.inputTokens).toBeGreaterThan(0);
  });

  test("baseline: no skills on disk or listed, constraint block given, GITHUB_TOKEN absent", () => {
    const r = records[1]!;
    expect(r.error).toBeUndefined();
    expect(r.output).toBe("listed=false constrained=true");
    const shell = r.toolCalls[0]!.output ?? "";
    expect(shell).toMatch(/HOME=.*\/work-\w+\/\d+$/m);
    // its temp folder is the trial's own (Codex's sandbox wants a user-owned 0700 folder for its socket)
    expect(shell).toContain(`\nTMPDIR=${/^HOME=(.*)$/m.exec(shell)![1]}/tmp\n`);
    expect(shell).not.toMatch(/split-cents|SKILL\.md/);
    expect(shell).not.toMatch(/GITHUB_TOKEN|ghs_must_not_leak/);
    // Inside skillgate's sandbox Codex runs its commands without its own (danger-full-access: it would nest); its
    // model URL is the relay's inside the sandbox. Unconfined, its own sandbox (workspace-write) is all there is.
    if (confined) {
      expect(shell).not.toMatch(/^CODEX_SANDBOX/m);
      expect(shell).toContain(`base_url = "http://127.0.0.1:${EGRESS_PORT_BASE}/v1"`);
    } else {
      expect(shell).toMatch(/^CODEX_SANDBOX_NETWORK_DISABLED=1$/m);
      expect(shell).toContain(`base_url = "${server.url}/v1"`);
    }
  });

  test("trigger and non-trigger", () => {
    expect(records[2]!.skillsActivated).toEqual(["split-cents"]);
    expect(records[3]!.error).toBeUndefined();
    expect(records[3]!.skillsActivated).toEqual([]);
  });

  test("an API error is an error record, never an answer", () => {
    expect(records[4]!.error).toBeDefined();
    expect(records[4]!.error?.message).toMatch(/400|bad request/i);
  });

  test("a hang is a timeout", async () => {
    const out = await runTrials([makeRequest({ prompt: "SCENARIO-HANG: hi" })], opts({ timeoutMs: 6_000 }));
    expect(out.records[0]!.error).toMatchObject({ kind: "timeout" });
  }, 60_000);
});

describe("parseCodexEvents", () => {
  test("turn.failed is an error even after an agent message", () => {
    const events = [
      { type: "item.completed", item: { type: "agent_message", text: "partial" } },
      { type: "turn.failed", error: { message: "unexpected status 429 Too Many Requests" } },
    ];
    const { result } = parseCodexEvents(events.map((e) => JSON.stringify(e)).join("\n"));
    expect(result.error).toMatchObject({ kind: "rate-limit", transient: true });
  });
});
