/**
 * Trigger trials stop at the routing decision, against the real Claude Code and Codex CLIs and a scripted model on
 * loopback that, like a real one, goes on for several turns after loading the skill. Each scenario runs twice,
 * stopped (the default policy) and in full (`triggerStop: off`): the routing verdict must be the same, and the
 * model must see fewer requests. Nothing may keep running after a stopped trial.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import type { TrialRecord, TrialRequest } from "../../src/model/index.js";
import { type RunOptions, runTrials } from "../../src/run/runner.js";
import { writeRepo } from "../support/repo-files.js";
import {
  type ScriptedRequest,
  type ScriptedServer,
  startScriptedAnthropic,
  text,
  toolUse,
} from "../support/scripted-anthropic.js";
import {
  type ResponsesRequest,
  respCall,
  respText,
  type ScriptedResponsesServer,
  startScriptedResponses,
} from "../support/scripted-responses.js";
import { makeRequest, recordingLogger, skill } from "../support/trials.js";

const CLAUDE = resolve("node_modules/.bin/claude");
const CODEX = resolve("node_modules/.bin/codex");

const scenarioOf = (raw: string) => /SCENARIO-([A-Z]+)/.exec(raw)?.[1] ?? "";

/** After the Skill call a real model works on: reads a file, runs a command, writes, answers (4 more turns). */
function claudeModel(r: ScriptedRequest) {
  if (!r.hasTools) return text("ok");
  const s = scenarioOf(r.raw);
  const t = r.turn;
  if (s === "ROUTED") {
    return [
      toolUse("Skill", { skill: "split-cents" }),
      toolUse("Read", { file_path: "notes.txt" }),
      toolUse("Bash", { command: "echo 334 333 333" }),
      toolUse("Write", { file_path: "out.txt", content: "334,333,333\n" }),
      text("The parts are 334, 333 and 333."),
    ][Math.min(t, 4)]!;
  }
  if (s === "TEXT") return text("Paris.");
  if (s === "OTHER") {
    return [toolUse("Bash", { command: "ls" }), toolUse("Read", { file_path: "notes.txt" }), text("Done.")][
      Math.min(t, 2)
    ]!;
  }
  if (s === "TODO") {
    return [
      toolUse("TodoWrite", { todos: [{ content: "split", status: "in_progress", activeForm: "Splitting" }] }),
      toolUse("Skill", { skill: "split-cents" }),
      toolUse("Bash", { command: "echo 334 333 333" }),
      text("334, 333, 333"),
    ][Math.min(t, 3)]!;
  }
  if (s === "LOOK") {
    // Looks around first, then loads the skill: the one case where the first action and the full run differ.
    return [
      toolUse("Glob", { pattern: "*" }),
      toolUse("Skill", { skill: "split-cents" }),
      toolUse("Bash", { command: "echo 334 333 333" }),
      text("334, 333, 333"),
    ][Math.min(t, 3)]!;
  }
  return text("plain");
}

/** Codex: reading SKILL.md is the activation; then a command, another, and an answer. */
function codexModel(r: ResponsesRequest) {
  const s = scenarioOf(r.raw);
  const t = r.turn;
  if (s === "ROUTED") {
    return [
      respCall("exec_command", { cmd: "cat .agents/skills/split-cents/SKILL.md" }),
      respCall("exec_command", { cmd: "cat notes.txt" }),
      respCall("exec_command", { cmd: "echo 334 333 333 > out.txt" }),
      respCall("exec_command", { cmd: "cat out.txt" }),
      respText("334, 333, 333"),
    ][Math.min(t, 4)]!;
  }
  if (s === "TEXT") return respText("Paris.");
  if (s === "OTHER") {
    return [
      respCall("exec_command", { cmd: "ls" }),
      respCall("exec_command", { cmd: "pwd" }),
      respText("Done."),
    ][Math.min(t, 2)]!;
  }
  return respText("plain");
}

let claudeServer: ScriptedServer;
let codexServer: ScriptedResponsesServer;
let repo: string;

beforeAll(async () => {
  claudeServer = await startScriptedAnthropic(claudeModel);
  codexServer = await startScriptedResponses(codexModel);
  const skillMd = (name: string, desc: string) =>
    `---\nname: ${name}\ndescription: ${desc}\n---\n\nUse the largest remainder method.\n`;
  repo = writeRepo(
    {
      ".claude/skills/split-cents/SKILL.md": skillMd(
        "split-cents",
        "Split money in cents without losing one.",
      ),
      ".claude/skills/weather-report/SKILL.md": skillMd("weather-report", "Write weather reports."),
      ".agents/skills/split-cents/SKILL.md": skillMd(
        "split-cents",
        "Split money in cents without losing one.",
      ),
      ".agents/skills/weather-report/SKILL.md": skillMd("weather-report", "Write weather reports."),
    },
    "sg-trigstop-",
  );
  vi.stubEnv("ANTHROPIC_BASE_URL", claudeServer.url);
  vi.stubEnv("ANTHROPIC_API_KEY", "sk-ant-dummy");
  vi.stubEnv("OPENAI_API_KEY", "sk-dummy");
});

afterAll(async () => {
  vi.unstubAllEnvs();
  await claudeServer?.close();
  await codexServer?.close();
});

/** Pids of this process's descendants. */
function descendants(): number[] {
  const parent = new Map<number, number>();
  for (const d of readdirSync("/proc")) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, "utf8");
      parent.set(Number(d), Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]));
    } catch {
      // gone
    }
  }
  const out: number[] = [];
  const walk = (pid: number) => {
    for (const [child, ppid] of parent) {
      if (ppid === pid) {
        out.push(child);
        walk(child);
      }
    }
  };
  walk(process.pid);
  return out;
}

const commandOf = (pid: number) => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" ");
  } catch {
    return "";
  }
};

function opts(adapter: "claude-code" | "codex", triggerStop?: string): RunOptions {
  return {
    agent:
      adapter === "claude-code"
        ? { adapter, command: CLAUDE, ...(triggerStop ? { options: { triggerStop } } : {}) }
        : {
            adapter,
            command: CODEX,
            model: "gpt-test",
            baseUrl: `${codexServer.url}/v1`,
            ...(triggerStop ? { options: { triggerStop } } : {}),
          },
    repoDir: repo,
    concurrency: 2,
    timeoutMs: 90_000,
    maxRetries: 0,
    cache: { enabled: false, dir: join(repo, ".cache") },
    budget: {},
    logger: recordingLogger(),
  };
}

interface Observed {
  record: TrialRecord;
  /** Model requests of the agent's main loop (with tools) for this trial. */
  requests: number;
}

/** Rounds of trials run so far: a round's prompts carry its number, so its requests are told from later rounds'. */
let rounds = 0;

/**
 * Runs one round of trials (`make` builds its requests from the round's tag). `settled` checks that nothing of the
 * round's agents talked to the model after the round ended: called once every round has run and 1.5 s more have
 * passed (a wait per round idled the test ~10 s; a stray agent of an early round is watched for longer this way).
 */
async function observe(
  adapter: "claude-code" | "codex",
  make: (tag: string) => TrialRequest[],
  triggerStop?: string,
): Promise<{ observed: Observed[]; settled: () => void }> {
  const server = adapter === "claude-code" ? claudeServer : codexServer;
  const tag = `[ROUND-${++rounds}]`;
  const reqs = make(tag);
  const loop = (raw: string, hasTools: boolean) =>
    (adapter === "codex" || hasTools) && raw.includes(tag) ? scenarioOf(raw) : "";
  const { records } = await runTrials(reqs, opts(adapter, triggerStop));
  const count = () => {
    const mark = new Map<string, number>();
    for (const r of server.requests as (ScriptedRequest | ResponsesRequest)[]) {
      const s = loop(r.raw, "hasTools" in r ? r.hasTools : true);
      if (s) mark.set(s, (mark.get(s) ?? 0) + 1);
    }
    return mark;
  };
  const after = count();
  return {
    observed: records.map((record, i) => ({ record, requests: after.get(scenarioOf(reqs[i]!.prompt)) ?? 0 })),
    // Nothing of a stopped agent may go on talking to the model.
    settled: () => expect(count(), `round ${tag} (${adapter}, triggerStop ${triggerStop})`).toEqual(after),
  };
}

function agentsLeft(): string[] {
  return descendants()
    .map(commandOf)
    .filter((c) => /claude|codex|bwrap/.test(c) && !c.includes("spawner"));
}

describe.each([
  ["claude-code", ".claude/skills", ["ROUTED", "TEXT", "OTHER", "TODO", "LOOK"]],
  ["codex", ".agents/skills", ["ROUTED", "TEXT", "OTHER"]],
] as const)("%s trigger trials stop at the routing decision", (adapter, dir, scenarios) => {
  const inst = (name: string) => skill(name, join(repo, dir, name), ["SKILL.md"]);
  const trigger = (s: string, tag: string) =>
    makeRequest({
      prompt: `SCENARIO-${s} ${tag}: split 1000 cents among 3`,
      mode: "trigger",
      install: [inst("split-cents"), inst("weather-report")],
    });
  const triggers = (tag: string) => scenarios.map((s) => trigger(s, tag));
  let stopped: Observed[];
  let full: Observed[];
  let skillOrEnd: Observed[];
  let skillMode: Observed;
  beforeAll(async () => {
    const ran = [await observe(adapter, triggers)];
    expect(agentsLeft()).toEqual([]);
    ran.push(await observe(adapter, triggers, "off"));
    if (adapter === "claude-code") ran.push(await observe(adapter, triggers, "skill-or-end"));
    ran.push(
      await observe(adapter, (tag) => [
        makeRequest({
          prompt: `SCENARIO-ROUTED ${tag}: split 1000 cents among 3`,
          install: [inst("split-cents")],
        }),
      ]),
    );
    expect(agentsLeft()).toEqual([]);
    await new Promise((r) => setTimeout(r, 1500));
    for (const r of ran) r.settled();
    [stopped, full] = [ran[0]!.observed, ran[1]!.observed];
    skillOrEnd = adapter === "claude-code" ? ran[2]!.observed : [];
    skillMode = ran.at(-1)!.observed[0]!;
    const show = (o: Observed[]) => o.map((x, i) => `${scenarios[i]}=${x.requests}`).join(" ");
    console.log(`${adapter} requests: stopped ${show(stopped)} | full ${show(full)}`);
  }, 400_000);

  const at = (s: string) => scenarios.indexOf(s as never);

  test("routed: the skill call decides; the model is not asked for the 4 turns after it", () => {
    const { record, requests } = stopped[at("ROUTED")]!;
    expect(record.error).toBeUndefined();
    expect(record.skillsActivated).toEqual(["split-cents"]);
    expect(record.skillsRegistered ?? ["split-cents"]).toContain("split-cents");
    expect(record.notes).toContainEqual(
      expect.stringMatching(/^stopped at the routing decision \(turn 1, routed to split-cents/),
    );
    expect(record.toolCalls).toHaveLength(1);
    expect(full[at("ROUTED")]!.requests).toBe(5);
    // The decision is in the first reply; the kill can come after the CLI sent its next request, never later.
    expect(requests).toBeGreaterThanOrEqual(1);
    expect(requests).toBeLessThanOrEqual(2);
    if (adapter === "claude-code") {
      // usage up to the stop, from the streamed assistant message (the scripted server's 100 in per reply)
      expect(record.usage.inputTokens).toBeGreaterThanOrEqual(100);
      expect(record.usage.outputTokens).toBeGreaterThan(0);
      expect(record.usage.inputTokens).toBeLessThan(full[at("ROUTED")]!.record.usage.inputTokens);
    }
  });

  test("not routed, plain answer: the run ends on its own (nothing to stop)", () => {
    const { record, requests } = stopped[at("TEXT")]!;
    expect(record.error).toBeUndefined();
    expect(record.skillsActivated).toEqual([]);
    expect(record.output).toBe("Paris.");
    expect(requests).toBe(1);
  });

  test("not routed, another tool first: stopped after its first action", () => {
    const { record, requests } = stopped[at("OTHER")]!;
    expect(record.error).toBeUndefined();
    expect(record.skillsActivated).toEqual([]);
    expect(record.notes).toContainEqual(expect.stringMatching(/turn 1, not routed/));
    expect(full[at("OTHER")]!.requests).toBe(3);
    expect(requests).toBeLessThanOrEqual(2);
  });

  test("stopped and full runs give the same trigger verdict on every scenario but the look-first one", () => {
    for (const s of scenarios) {
      const a = [...stopped[at(s)]!.record.skillsActivated].sort();
      const b = [...full[at(s)]!.record.skillsActivated].sort();
      expect(full[at(s)]!.record.error).toBeUndefined();
      expect(full[at(s)]!.record.notes ?? []).not.toContainEqual(expect.stringMatching(/^stopped/));
      if (s === "LOOK") {
        // first-action: a Glob before the Skill call is "not routed"; skill-or-end keeps the full run's verdict
        expect(a).toEqual([]);
        expect(b).toEqual(["split-cents"]);
      } else expect(a).toEqual(b);
    }
    for (const s of adapter === "claude-code" ? scenarios : []) {
      expect([...skillOrEnd[at(s)]!.record.skillsActivated].sort()).toEqual(
        [...full[at(s)]!.record.skillsActivated].sort(),
      );
    }
  });

  test("the TodoWrite before a Skill call is bookkeeping, not the decision", () => {
    if (adapter !== "claude-code") return;
    const { record } = stopped[at("TODO")]!;
    expect(record.skillsActivated).toEqual(["split-cents"]);
    expect(record.notes).toContainEqual(expect.stringMatching(/turn 2, routed to split-cents/));
  });

  test("a skill (non-trigger) trial is unaffected: it runs to completion", () => {
    const { record, requests } = skillMode;
    expect(record.error).toBeUndefined();
    expect(requests).toBe(5);
    expect(record.notes ?? []).not.toContainEqual(expect.stringMatching(/^stopped/));
    expect(record.output).toMatch(/334, 333/);
  });
});
