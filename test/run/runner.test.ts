import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { TrialRequest } from "../../src/model/index.js";
import { type RunOptions, runTrials } from "../../src/run/runner.js";
import { makeRequest, recordingLogger, skill } from "../support/trials.js";

const FAKE_AGENT = resolve("test/support/fake-agent.mjs");
let repo: string;
let state: string;
let cacheDir: string;
const savedToken = process.env.GITHUB_TOKEN;

/** Host pids of the processes in pid namespace `ns` (`pid:[inode]`). */
function processesIn(ns: string): number[] {
  return readdirSync("/proc")
    .filter((e) => /^\d+$/.test(e))
    .filter((pid) => {
      try {
        const zombie = /^\d+ \(.*\) [ZX]/.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
        return !zombie && readlinkSync(`/proc/${pid}/ns/pid`) === ns;
      } catch {
        return false;
      }
    })
    .map(Number);
}

function opts(p: Partial<RunOptions> = {}): RunOptions {
  return {
    // The fake agent keeps its state in a folder of the test: granted by the (trusted) config, as a maintainer would.
    agent: {
      adapter: "command",
      command: `node ${FAKE_AGENT}`,
      options: { sandbox: { writable: [state], readOnly: [repo] } },
    },
    repoDir: repo,
    concurrency: 2,
    timeoutMs: 10_000,
    maxRetries: 0,
    cache: { enabled: false, dir: cacheDir },
    budget: {},
    logger: recordingLogger(),
    extraEnv: ["SKILLGATE_TEST_AGENT_STATE", "SKILLGATE_TEST_AGENT_REPO"],
    retryBaseMs: 10,
    ...p,
  };
}

/** Alive and not a zombie (a killed orphan may wait for a reaper that a container's PID 1 never is). */
function pidAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return !/^\d+ \(.*\) [ZX]/.test(stat);
  } catch {
    return false;
  }
}

beforeAll(() => {
  repo = mkdtempSync(join(tmpdir(), "runner-repo-"));
  state = mkdtempSync(join(tmpdir(), "runner-state-"));
  // Each confined trial has a uid of its own: the state folder is writable by any (sticky, like /tmp).
  chmodSync(state, 0o1777);
  cacheDir = mkdtempSync(join(tmpdir(), "runner-cache-"));
  const skillDir = join(repo, ".claude/skills/split-cents");
  mkdirSync(join(skillDir, "evals"), { recursive: true });
  mkdirSync(join(skillDir, "references"), { recursive: true });
  writeFileSync(
    join(skillDir, "SKILL.md"),
    "---\nname: split-cents\ndescription: Split cents.\n---\nLargest remainder.\n",
  );
  writeFileSync(join(skillDir, "references/notes.md"), "notes\n");
  writeFileSync(join(skillDir, "evals/answers.json"), '{"secret": true}\n');
  mkdirSync(join(repo, "fixtures"), { recursive: true });
  writeFileSync(join(repo, "fixtures/package.json"), '{"name":"fixture"}\n');
  process.env.SKILLGATE_TEST_AGENT_STATE = state;
  process.env.SKILLGATE_TEST_AGENT_REPO = repo;
  process.env.GITHUB_TOKEN = "ghs_secret_must_not_leak";
  process.env.ANTHROPIC_API_KEY_FOR_TEST_ONLY = "not-for-command";
});
afterAll(() => {
  if (savedToken === undefined) delete process.env.GITHUB_TOKEN;
  else process.env.GITHUB_TOKEN = savedToken;
});

const splitCents = () =>
  // the files discovery lists for the agent: its suite's (evals/answers.json, on disk) withheld (withheld.ts)
  skill("split-cents", join(repo, ".claude/skills/split-cents"), ["SKILL.md", "references/notes.md"]);

describe("command adapter through the runner", () => {
  test("workspace: case files, the skill's listed files only, temp HOME, SKILLGATE_* env, no GITHUB_TOKEN", async () => {
    const req = makeRequest({
      prompt: "ECHOENV please",
      install: [splitCents()],
      files: [{ from: join(repo, "fixtures/package.json"), to: "package.json" }],
      caseId: "echo-case",
      trial: 2,
      seed: 99,
    });
    const out = await runTrials([req], opts());
    const rec = out.records[0]!;
    expect(rec.error).toBeUndefined();
    const seen = JSON.parse(rec.output) as { env: Record<string, string>; listing: string[]; prompt: string };
    expect(seen.listing).toContain(".agents/skills/split-cents/SKILL.md");
    expect(seen.listing).toContain(".agents/skills/split-cents/references/notes.md");
    expect(seen.listing.some((f) => f.includes("evals"))).toBe(false);
    expect(seen.listing).toContain("package.json");
    expect(seen.env.GITHUB_TOKEN).toBeUndefined();
    expect(seen.env.ANTHROPIC_API_KEY_FOR_TEST_ONLY).toBeUndefined();
    expect(seen.env.HOME).not.toBe(process.env.HOME);
    expect(seen.env.HOME).toMatch(/\/work-\w+\/\d+$/);
    expect(seen.env.SKILLGATE_CASE).toBe("echo-case");
    expect(seen.env.SKILLGATE_TRIAL).toBe("2");
    expect(seen.env.SKILLGATE_SEED).toBe("99");
    expect(seen.prompt).toBe("ECHOENV please");
    expect(rec).toMatchObject({
      key: req.key,
      skill: "split-cents",
      caseId: "echo-case",
      mode: "skill",
      trial: 2,
    });
    expect(existsSync(seen.env.HOME!)).toBe(false); // workspace removed afterwards
  });

  test("baseline: no skill installed, constraint block before the prompt on stdin", async () => {
    const req = makeRequest({
      prompt: "ECHOENV base",
      mode: "baseline",
      constraints: ["Do not look for skills."],
    });
    const rec = (await runTrials([req], opts())).records[0]!;
    const seen = JSON.parse(rec.output) as { listing: string[]; prompt: string };
    expect(seen.listing.some((f) => f.startsWith(".agents"))).toBe(false);
    expect(seen.prompt).toBe("Constraints for this task:\n- Do not look for skills.\n\nECHOENV base");
  });

  test("files the agent wrote come back in the record; case files it left alone do not", async () => {
    const req = makeRequest({
      prompt: "WRITE",
      files: [{ from: join(repo, "fixtures/package.json"), to: "package.json" }],
    });
    const rec = (await runTrials([req], opts())).records[0]!;
    expect(rec.files).toEqual({ "src/answer.ts": "export const answer = 42;\n" });
    expect(rec.output).toBe("I wrote src/answer.ts; the answer is 42.");
  });

  test("JSON protocol: activated skills, tool calls and usage", async () => {
    const out = await runTrials([makeRequest({ prompt: "JSON" })], opts());
    const rec = out.records[0]!;
    expect(rec.output).toBe("334 333 333");
    expect(rec.skillsActivated).toEqual(["split-cents"]);
    expect(rec.toolCalls[0]).toMatchObject({ name: "Read", turn: 0 });
    expect(rec.usage).toEqual({ inputTokens: 1000, outputTokens: 50, costUsd: 0.25 });
    expect(out.cost).toMatchObject({
      usd: 0.25,
      agentCalls: 1,
      cacheHits: 0,
      inputTokens: 1000,
      outputTokens: 50,
    });
  });

  test("a JSON object without output is a protocol error, never a pass", async () => {
    const rec = (await runTrials([makeRequest({ prompt: "BADJSON" })], opts())).records[0]!;
    expect(rec.error?.kind).toBe("protocol");
    expect(rec.error?.message).toMatch(/lacks a string "output"/);
  });

  test("garbage on stdout is plain output", async () => {
    const rec = (await runTrials([makeRequest({ prompt: "GARBAGE" })], opts())).records[0]!;
    expect(rec.error).toBeUndefined();
    expect(rec.output.length).toBeGreaterThan(0);
  });

  test("10 MB of output is cut with a note, and the cut answer is an error, never graded", async () => {
    const rec = (await runTrials([makeRequest({ prompt: "HUGE" })], opts())).records[0]!;
    expect(rec.error?.kind).toBe("protocol");
    expect(rec.output.length).toBe(1024 * 1024);
    expect(rec.notes?.join(" ")).toMatch(/output capped/);
  });

  test("a crash is an error of kind crash with stderr, and is not retried", async () => {
    const out = await runTrials([makeRequest({ prompt: "CRASH" })], opts({ maxRetries: 3 }));
    expect(out.records[0]!.error).toMatchObject({ kind: "crash" });
    expect(out.records[0]!.error?.message).toMatch(/exited with code 3: fake agent: segmentation fault/);
    expect(out.cost.agentCalls).toBe(1);
  });

  test("a hang times out and the whole process tree is killed", async () => {
    const req = makeRequest({ prompt: "HANG", trial: 41 });
    const out = await runTrials([req], opts({ timeoutMs: 5000 }));
    expect(out.records[0]!.error).toMatchObject({ kind: "timeout", transient: true });
    const pid = Number(readFileSync(join(state, "grandchild-41.pid"), "utf8"));
    expect(pid).toBeGreaterThan(0);
    const ns = readFileSync(join(state, "grandchild-41.ns"), "utf8");
    if (ns === readlinkSync("/proc/self/ns/pid")) expect(pidAlive(pid)).toBe(false);
    // Confined: that pid is the agent's own namespace's; no process of that namespace may be left (its init,
    // killed with bubblewrap, takes every other with it; a zombie init has already done so).
    else {
      const deadline = Date.now() + 3000;
      while (processesIn(ns).length > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      expect(processesIn(ns)).toEqual([]);
    }
  });

  test("a transient fault is retried with backoff and the retry's answer is kept", async () => {
    const logger = recordingLogger();
    const out = await runTrials(
      [makeRequest({ prompt: "FLAKY", caseId: "flaky-case" })],
      opts({ timeoutMs: 5000, maxRetries: 2, logger }),
    );
    expect(out.records[0]!.error).toBeUndefined();
    expect(out.records[0]!.output).toBe("plain answer to: FLAKY");
    expect(out.cost.agentCalls).toBe(2);
    expect(logger.lines.some((l) => /retrying split-cents\/flaky-case .* after timeout/.test(l))).toBe(true);
  });

  test("a baseline that reads the skill from the checkout is contaminated, with the offending call", async () => {
    const rec = (await runTrials([makeRequest({ prompt: "READSKILL", mode: "baseline" })], opts()))
      .records[0]!;
    expect(rec.error?.kind).toBe("contaminated");
    expect(rec.error?.offendingCall?.name).toBe("Read");
    expect(JSON.stringify(rec.error?.offendingCall?.input)).toContain(".claude/skills/split-cents/SKILL.md");
  });

  test("the same agent reading its installed skill in skill mode is fine", async () => {
    const rec = (await runTrials([makeRequest({ prompt: "READSKILL", install: [splitCents()] })], opts()))
      .records[0]!;
    expect(rec.error).toBeUndefined();
    expect(rec.output).toMatch(/^read \d+ chars$/);
    expect(rec.output).not.toBe("read 0 chars");
  });
});

describe("runner", () => {
  test("cache: each trial its own entry; a second run makes no agent call; errors are not stored", async () => {
    const dir = mkdtempSync(join(tmpdir(), "runner-cache-"));
    const reqs: TrialRequest[] = [0, 1, 2].map((trial) => makeRequest({ prompt: "plain cached", trial }));
    reqs.push(makeRequest({ prompt: "CRASH cached" }));
    const first = await runTrials(reqs, opts({ cache: { enabled: true, dir } }));
    expect(first.cost).toMatchObject({ agentCalls: 4, cacheHits: 0 });
    const second = await runTrials(reqs, opts({ cache: { enabled: true, dir } }));
    expect(second.cost).toMatchObject({ agentCalls: 1, cacheHits: 3 });
    expect(second.records.slice(0, 3).every((r) => r.cached === true)).toBe(true);
    expect(second.records.map((r) => r.trial)).toEqual([0, 1, 2, 0]);
    expect(second.records[3]!.error?.kind).toBe("crash");
    const noCache = await runTrials(reqs, opts({ cache: { enabled: false, dir } }));
    expect(noCache.cost).toMatchObject({ agentCalls: 4, cacheHits: 0 });
  });

  test("a different agent identity never reuses cached answers", async () => {
    const dir = mkdtempSync(join(tmpdir(), "runner-cache-"));
    const reqs = [makeRequest({ prompt: "plain identity" })];
    await runTrials(reqs, opts({ cache: { enabled: true, dir } }));
    const other = await runTrials(
      reqs,
      opts({
        cache: { enabled: true, dir },
        agent: { adapter: "command", command: `node ${FAKE_AGENT} --v2` },
      }),
    );
    expect(other.cost.cacheHits).toBe(0);
  });

  test("budget: after max agent calls no new trial starts and the outcome says why", async () => {
    const reqs = [0, 1, 2, 3, 4].map((trial) => makeRequest({ prompt: "plain budget", trial }));
    const out = await runTrials(reqs, opts({ concurrency: 1, budget: { maxAgentCalls: 2 } }));
    expect(out.records.filter((r) => !r.error)).toHaveLength(2);
    expect(out.records.slice(2).every((r) => r.error?.kind === "budget")).toBe(true);
    expect(out.budgetExhausted).toMatch(/2 agent calls of max 2/);
    expect(out.cost.agentCalls).toBe(2);
  });

  test("budget in USD counts reported cost", async () => {
    const reqs = [0, 1, 2].map((trial) => makeRequest({ prompt: "JSON", trial }));
    const out = await runTrials(reqs, opts({ concurrency: 1, budget: { maxUsd: 0.5 } }));
    expect(out.records.map((r) => r.error?.kind)).toEqual([undefined, undefined, "budget"]);
    expect(out.budgetExhausted).toMatch(/\$0\.5000 of max \$0\.5/);
  });

  test("concurrency limit holds while trials run in parallel; progress reports every trial", async () => {
    writeFileSync(join(state, "overlap.log"), "");
    chmodSync(join(state, "overlap.log"), 0o666);
    const logger = recordingLogger();
    const reqs = [0, 1, 2, 3, 4, 5].map((trial) => makeRequest({ prompt: "SLOW", trial }));
    const out = await runTrials(reqs, opts({ concurrency: 2, logger }));
    expect(out.records.map((r) => r.error?.message ?? r.output)).toEqual(Array(6).fill("slow done"));
    let inFlight = 0;
    let max = 0;
    for (const line of readFileSync(join(state, "overlap.log"), "utf8").split("\n").filter(Boolean)) {
      inFlight += line === "start" ? 1 : -1;
      max = Math.max(max, inFlight);
    }
    expect(max).toBe(2);
    expect(logger.progressCalls.map((p) => p.done)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(logger.progressCalls.at(-1)).toMatchObject({ total: 6, errors: 0 });
  });

  test("unknown adapter names the registered ones", async () => {
    await expect(runTrials([], opts({ agent: { adapter: "nope" } }))).rejects.toThrow(
      /registered adapters: .*command/,
    );
  });
});
