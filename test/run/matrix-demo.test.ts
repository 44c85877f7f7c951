/**
 * Issue #32: the demo PR (examples/demo-repo against examples/demo-repo-base) evaluated by an agent matrix of two
 * cells, the real Claude Code and Codex CLIs against scripted models on loopback (test/support/demo-models.ts):
 * a verdict per cell, the PR's effect per cell and the interaction between the cells, from `skillgate run`.
 */
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import type { Report } from "../../src/model/index.js";
import { demoAnthropic, demoResponses } from "../support/demo-models.js";
import { runCli } from "../support/run-cli.js";
import { type ScriptedServer, startScriptedAnthropic } from "../support/scripted-anthropic.js";
import { type ScriptedResponsesServer, startScriptedResponses } from "../support/scripted-responses.js";

const CLAUDE = resolve("node_modules/.bin/claude");
const CODEX = resolve("node_modules/.bin/codex");
const saved = { ...process.env };
const scratch = mkdtempSync(join(tmpdir(), "sg-matrix-demo-"));

/** Every prompt of the demo's suites: what the scripted models look for in a request. */
function demoPrompts(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.(json|ya?ml)$/.test(e.name)) {
        const text = readFileSync(p, "utf8");
        const v = e.name.endsWith(".json") ? JSON.parse(text) : parse(text);
        JSON.stringify(v, (k, x) => {
          if ((k === "prompt" || k === "query") && typeof x === "string") out.push(x);
          if (Array.isArray(x)) for (const s of x) if (typeof s === "string") out.push(s);
          return x;
        });
      }
    }
  };
  walk(join(dir, ".agent/evals"));
  walk(join(dir, ".claude/skills"));
  return [...new Set(out)].sort((a, b) => b.length - a.length);
}

let anthropic: ScriptedServer;
let responses: ScriptedResponsesServer;
beforeAll(async () => {
  const prompts = [
    ...new Set([...demoPrompts("examples/demo-repo"), ...demoPrompts("examples/demo-repo-base")]),
  ];
  // Claude Code's model follows the skill; Codex's knows the rule without it.
  anthropic = await startScriptedAnthropic(demoAnthropic({ knower: false, prompts }));
  responses = await startScriptedResponses(demoResponses({ knower: true, prompts }));
  process.env.ANTHROPIC_BASE_URL = anthropic.url;
  process.env.ANTHROPIC_API_KEY = "sk-ant-scripted";
  process.env.OPENAI_API_KEY = "sk-scripted";
  process.env.CLAUDE_CODE_MAX_RETRIES = "0";
});
afterAll(async () => {
  await anthropic?.close();
  await responses?.close();
  for (const k of ["ANTHROPIC_BASE_URL", "ANTHROPIC_API_KEY", "OPENAI_API_KEY", "CLAUDE_CODE_MAX_RETRIES"]) {
    if (saved[k] === undefined) delete process.env[k];
    else process.env[k] = saved[k];
  }
  rmSync(scratch, { recursive: true, force: true });
});

function matrixConfig(): string {
  return [
    "agents:",
    "  - name: claude",
    "    adapter: claude-code",
    `    command: ${CLAUDE}`,
    "  - name: codex",
    "    adapter: codex",
    `    command: ${CODEX}`,
    "    model: gpt-scripted",
    `    baseUrl: ${responses.url}/v1`,
    "trials: 1",
    "triggerRuns: 1",
    "concurrency: 4",
    "timeoutSeconds: 120",
    "competitors:",
    "  maxPrompts: 0",
    "verdict:",
    "  alpha: 0.01",
    "  maxConfirmationTrials: 3",
    // a cold suspect's base is filled to baseDepth (30 by default): each trial here is a real CLI process
    "  baseDepth: 3",
    "",
  ].join("\n");
}

describe("an agent matrix of the real Claude Code and Codex CLIs on the demo PR", () => {
  it("a verdict per cell, the effect per cell and the interaction; the check fails on the cell with new roots", async () => {
    const head = join(scratch, "head");
    const base = join(scratch, "base");
    cpSync("examples/demo-repo", head, { recursive: true });
    cpSync("examples/demo-repo-base", base, { recursive: true });
    for (const d of [head, base]) {
      writeFileSync(join(d, ".skillgate.yml"), matrixConfig());
      // Two queries of each kind (the same at head and base): real CLIs cost seconds a trial on a busy runner.
      const file = join(d, ".agent/evals/split-cents/trigger-eval.json");
      const t = JSON.parse(readFileSync(file, "utf8"));
      writeFileSync(
        file,
        JSON.stringify({ shouldFire: t.shouldFire.slice(0, 2), shouldNotFire: t.shouldNotFire.slice(0, 2) }),
      );
    }
    const out = join(scratch, "report.json");
    const r = await runCli([
      "run",
      "--repo",
      head,
      "--base-dir",
      base,
      "--json",
      out,
      "--no-cache",
      "--quiet",
      "--no-color",
    ]);
    const report = JSON.parse(readFileSync(out, "utf8")) as Report;
    if (r.code !== 1) console.log(r.stdout, r.stderr);
    expect(report.errors).toEqual([]);
    expect(report.agent.adapter).toBe("matrix");
    expect(report.agent.identity).toMatch(/^claude=claude-code\/2\.1\.\d+.*, codex=codex\//);
    const m = report.matrix!;
    expect(m.cells.map((c) => c.name)).toEqual(["claude", "codex"]);
    for (const c of m.cells) expect(c.cost.agentCalls).toBeGreaterThan(0);
    expect(anthropic.requests.length).toBeGreaterThan(0);
    expect(responses.requests.length).toBeGreaterThan(0);
    // The edit took the largest-remainder rule out of split-cents: Claude Code's model, which follows the skill,
    // loses the discriminators; Codex's knows the rule anyway.
    const claude = report.skills.find((s) => s.name === "split-cents" && s.cell === "claude")!;
    const codex = report.skills.find((s) => s.name === "split-cents" && s.cell === "codex")!;
    // (D:no-lost-cent reads the first number, 1000 in both answers: it passes in both, as in the replayed demo.)
    const blocking = (s: typeof claude) => s.blockingRoots.map((x) => `${x.id} ${x.status}`);
    const lost = [
      "split-refund/D:sums-to-total",
      "split-1000-3/split-conserves",
      "split-weights/D:not-33-each",
    ];
    const lostIn = (s: typeof claude) => s.blockingRoots.filter((x) => lost.includes(x.id));
    expect(lostIn(claude).length, blocking(claude).join("; ")).toBeGreaterThan(0);
    expect(lostIn(codex), blocking(codex).join("; ")).toEqual([]);
    expect(m.cells.find((c) => c.name === "claude")!.verdict).toBe("fail");
    expect(report.verdict).toBe("fail");
    expect(r.code).toBe(1);
    const effect = (cell: string) =>
      m.entries.find((e) => e.cell === cell && e.skill === "split-cents")!.effect!;
    expect(effect("claude").effect).toBeLessThan(-0.2);
    expect(effect("claude").high).toBeLessThan(0);
    expect(Math.abs(effect("codex").effect)).toBeLessThan(Math.abs(effect("claude").effect));
    const inter = m.interactions.find((i) => i.skill === "split-cents")!;
    expect(inter).toMatchObject({ a: "claude", b: "codex", excludesZero: true });
    expect(inter.difference).toBeCloseTo(effect("claude").effect - effect("codex").effect, 10);
    // the terminal shows the matrix
    expect(r.stdout).toMatch(/agent matrix/);
    expect(r.stdout).toMatch(/interaction split-cents, claude vs codex/);
  }, 900_000);
});
