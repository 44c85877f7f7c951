/**
 * The routing watchers on streams recorded from the real CLIs (test/fixtures/trigger-stop/, Claude Code 2.x and
 * Codex with a scripted model), fed in every chunking (split mid-line, mid-JSON); and the process layer's stop:
 * a watched agent ends on purpose, not as a timeout, its group with it.
 */
import { readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { parseClaudeStream } from "../../src/agents/claude-code.js";
import { parseCodexEvents } from "../../src/agents/codex.js";
import { runAgentProcess } from "../../src/agents/process.js";
import {
  claudeRoutingWatcher,
  codexRoutingWatcher,
  LineReader,
  type RoutingWatcher,
  triggerStopPolicy,
} from "../../src/agents/trigger-stop.js";

const fixture = (name: string) => readFileSync(join("test/fixtures/trigger-stop", name), "utf8");
const CLAUDE = fixture("claude-bash-then-skill.jsonl");
const CODEX = fixture("codex-reads-skill.jsonl");
const lineEnd = (text: string, n: number) => text.split("\n").slice(0, n).join("\n").length + 1;

/** Feeds `text` in chunks of `size` characters; the chunk index at which the watcher decided. */
function feed(w: RoutingWatcher, text: string, size: number): number {
  for (let i = 0; i * size < text.length; i++) if (w.feed(text.slice(i * size, (i + 1) * size))) return i;
  return -1;
}

/** Alive and not a zombie. */
function pidAlive(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) [ZX]/.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return false;
  }
}

async function waitDead(pid: number, ms = 3000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline && pidAlive(pid)) await new Promise((r) => setTimeout(r, 20));
  return !pidAlive(pid);
}

const SIZES = [1, 3, 7, 64, 500, 100_000];

describe("LineReader", () => {
  test("lines split anywhere come out whole, with the offset after each", () => {
    const r = new LineReader();
    expect(r.push('{"a":')).toEqual([]);
    expect(r.push('1}\n{"b"')).toEqual([{ line: '{"a":1}', end: 8 }]);
    expect(r.push(":2}\n\n")).toEqual([
      { line: '{"b":2}', end: 16 },
      { line: "", end: 17 },
    ]);
  });
});

describe("claudeRoutingWatcher on a recorded Claude Code stream (text + Bash, then Skill)", () => {
  test.each(SIZES)(
    "first-action: the Bash turn decides 'not routed' once its result arrives (chunks of %i)",
    (size) => {
      const w = claudeRoutingWatcher("first-action");
      expect(feed(w, CLAUDE, size)).toBeGreaterThanOrEqual(0);
      // The message ends at line 3 (its Bash block); the decision shows at line 4 (the tool result).
      expect(w.decision).toEqual({ end: lineEnd(CLAUDE, 3), turn: 1 });
      const { result, complete } = parseClaudeStream(CLAUDE.slice(0, w.decision!.end));
      expect(complete).toBe(false);
      expect(result.skillsActivated).toEqual([]);
      expect(result.skillsRegistered).toContain("split-cents");
      expect(result.toolCalls.map((c) => c.name)).toEqual(["Bash"]);
      // usage as the stream reports it per assistant message (its message_start figures)
      expect(result.usage).toMatchObject({ inputTokens: 100, outputTokens: 1 });
    },
  );

  test.each(SIZES)("skill-or-end: the Skill call decides 'routed' (chunks of %i)", (size) => {
    const w = claudeRoutingWatcher("skill-or-end");
    feed(w, CLAUDE, size);
    expect(w.decision).toEqual({ end: lineEnd(CLAUDE, 5), turn: 2, skill: "split-cents" });
    const { result } = parseClaudeStream(CLAUDE.slice(0, w.decision!.end));
    expect(result.skillsActivated).toEqual(["split-cents"]);
    expect(result.usage.inputTokens).toBe(200);
  });

  test("the full stream says the same as skill-or-end", () => {
    expect(parseClaudeStream(CLAUDE).result.skillsActivated).toEqual(["split-cents"]);
  });

  const ev = (id: string, content: unknown[]) =>
    `${JSON.stringify({ type: "assistant", message: { id, content, usage: { input_tokens: 10, output_tokens: 2 } } })}\n`;
  const user = `${JSON.stringify({ type: "user", message: { content: [{ type: "tool_result", tool_use_id: "t" }] } })}\n`;

  test("text then a Skill call in the same message is routed (a text block does not decide alone)", () => {
    const w = claudeRoutingWatcher("first-action");
    expect(w.feed(ev("m1", [{ type: "text", text: "I'll use the skill." }]))).toBe(false);
    expect(
      w.feed(ev("m1", [{ type: "tool_use", id: "t", name: "Skill", input: { skill: "acme:split-cents" } }])),
    ).toBe(true);
    expect(w.decision).toMatchObject({ turn: 1, skill: "split-cents" });
  });

  test("a read of a SKILL.md is a skill load; TodoWrite is not an action; a new message settles the pending one", () => {
    const w = claudeRoutingWatcher("first-action");
    w.feed(ev("m1", [{ type: "tool_use", id: "t", name: "TodoWrite", input: { todos: [] } }]) + user);
    expect(w.decision).toBeUndefined();
    expect(
      w.feed(
        ev("m2", [
          { type: "tool_use", id: "u", name: "Read", input: { file_path: "/w/.claude/skills/x/SKILL.md" } },
        ]),
      ),
    ).toBe(true);
    expect(w.decision).toMatchObject({ turn: 2, skill: "x" });
    const v = claudeRoutingWatcher("first-action");
    const first = ev("m1", [{ type: "tool_use", id: "t", name: "Glob", input: { pattern: "*" } }]);
    expect(v.feed(first)).toBe(false);
    expect(v.feed(ev("m2", [{ type: "text", text: "hi" }]))).toBe(true);
    expect(v.decision).toEqual({ end: first.length, turn: 1 });
  });

  test("a plain answer never stops the run: the result event is left to arrive", () => {
    const w = claudeRoutingWatcher("first-action");
    const result = `${JSON.stringify({ type: "result", subtype: "success", result: "Paris." })}\n`;
    expect(w.feed(ev("m1", [{ type: "text", text: "Paris." }]) + result)).toBe(false);
    expect(w.decision).toBeUndefined();
  });
});

describe("codexRoutingWatcher on a recorded Codex stream (reads SKILL.md)", () => {
  test.each(SIZES)("the started command decides 'routed' before it runs (chunks of %i)", (size) => {
    const w = codexRoutingWatcher("first-action");
    feed(w, CODEX, size);
    expect(w.decision).toEqual({ end: lineEnd(CODEX, 4), turn: 1, skill: "split-cents" });
    const { result } = parseCodexEvents(CODEX.slice(0, w.decision!.end));
    expect(result.skillsActivated).toEqual(["split-cents"]);
    expect(result.toolCalls).toHaveLength(1);
  });

  test("another command first is 'not routed' under first-action, undecided under skill-or-end", () => {
    const other = CODEX.replaceAll("cat .agents/skills/split-cents/SKILL.md", "ls");
    const w = codexRoutingWatcher("first-action");
    feed(w, other, 10);
    expect(w.decision).toEqual({ end: lineEnd(other, 4), turn: 1 });
    const v = codexRoutingWatcher("skill-or-end");
    expect(feed(v, other, 10)).toBe(-1);
  });

  test("an agent message never decides (it may be a preamble)", () => {
    const w = codexRoutingWatcher("first-action");
    expect(
      w.feed(
        `${JSON.stringify({ type: "item.completed", item: { id: "i", type: "agent_message", text: "Let me look" } })}\n`,
      ),
    ).toBe(false);
  });
});

test("triggerStopPolicy: default first-action; a bad value is an input error", () => {
  expect(triggerStopPolicy({ adapter: "claude-code" })).toBe("first-action");
  expect(triggerStopPolicy({ adapter: "codex", options: { triggerStop: "off" } })).toBe("off");
  expect(() => triggerStopPolicy({ adapter: "codex", options: { triggerStop: "early" } })).toThrow(
    /triggerStop/,
  );
});

describe("runAgentProcess watch", () => {
  test("the agent is stopped on purpose when the watcher says so: not a timeout, its group gone", async () => {
    // Writes "é" (2 bytes) lines forever, and leaves a grandchild behind in its group.
    const script = `
      const g = require("child_process").spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" });
      process.stdout.write("g" + g.pid + "\\n");
      let n = 0; setInterval(() => process.stdout.write("é".repeat(3) + (n++) + "\\n"), 5);`;
    let seen = "";
    const p = await runAgentProcess(process.execPath, ["-e", script], {
      cwd: tmpdir(),
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin" },
      timeoutMs: 20_000,
      maxStdoutBytes: 1 << 20,
      watch: (t) => {
        seen += t;
        return seen.includes("ééé5\n");
      },
    });
    expect(p).toMatchObject({ stopped: true, timedOut: false, aborted: false, signal: "SIGKILL" });
    expect(seen).not.toContain("\uFFFD");
    expect(p.stdout).toMatch(/^g\d+\nééé0\nééé1\n/);
    const grandchild = Number(/^g(\d+)/.exec(p.stdout)![1]);
    expect(await waitDead(grandchild)).toBe(true);
  }, 30_000);

  test("without watch nothing changes: the result has no stopped flag", async () => {
    const p = await runAgentProcess(process.execPath, ["-e", 'process.stdout.write("x")'], {
      cwd: tmpdir(),
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin" },
      timeoutMs: 20_000,
      maxStdoutBytes: 1024,
    });
    expect(p.stopped).toBeUndefined();
    expect(p.stdout).toBe("x");
  });
});
