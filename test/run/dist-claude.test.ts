/**
 * The bundle as the Action ships it, with the real Claude Code CLI: a copy of dist/ with no node_modules and no
 * sources near it runs `skillgate run` on a repository whose `.skillgate.yml` names claude-code. The agent runs
 * confined, so the relay inside its sandbox must come from dist/ itself, and the report carries the machine's
 * level, not `none`.
 */
import { spawn } from "node:child_process";
import { chmodSync, cpSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Report } from "../../src/model/index.js";
import { isolation } from "../../src/sandbox/isolation/detect.js";
import { splitCentsClaudeFiles, writeRepo } from "../support/repo-files.js";
import { type ScriptedServer, startScriptedAnthropic, text, toolUse } from "../support/scripted-anthropic.js";

const root = resolve(import.meta.dirname, "..", "..");
const CLAUDE = resolve(root, "node_modules/.bin/claude");
let server: ScriptedServer;

beforeAll(async () => {
  server = await startScriptedAnthropic((r) => {
    if (!r.hasTools) return text("ok");
    if (r.turn === 0 && r.raw.includes("- split-cents:")) return toolUse("Skill", { skill: "split-cents" });
    return text(r.raw.includes("largest remainder method") ? "334, 333 and 333" : "333 each");
  });
});
afterAll(() => server?.close());

function makeRepo(): string {
  return writeRepo(splitCentsClaudeFiles(CLAUDE), "dist-cc-repo-");
}

describe.runIf(process.platform === "linux")("dist/cli.js with claude-code", () => {
  it("runs the agent confined from a lone copy of dist/ and reports the machine's level", async () => {
    const dir = mkdtempSync(join(tmpdir(), "sg-dist-cc-"));
    chmodSync(dir, 0o755);
    cpSync(join(root, "dist"), join(dir, "dist"), { recursive: true });
    cpSync(join(root, "package.json"), join(dir, "package.json"));
    const repo = makeRepo();
    const out = join(dir, "report.json");
    const child = spawn(
      process.execPath,
      [join(dir, "dist/cli.js"), "run", "--repo", repo, "--no-cache", "--quiet", "--json", out],
      {
        cwd: dir,
        env: {
          PATH: process.env.PATH ?? "",
          ANTHROPIC_BASE_URL: server.url,
          ANTHROPIC_API_KEY: "sk-ant-dummy",
          CLAUDE_CODE_MAX_RETRIES: "0",
        },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let stderr = "";
    child.stderr.on("data", (d) => {
      stderr += d;
    });
    child.stdout.resume();
    const code = await new Promise<number | null>((r) => child.on("close", r));
    const report = JSON.parse(readFileSync(out, "utf8")) as Report;
    expect(report.errors, stderr).toEqual([]);
    // 3 is an agent error (a relay missing from dist/ ends every trial so: checked by removing it).
    expect(code, stderr).not.toBe(3);
    expect(report.isolation?.level).toBe((await isolation()).level);
    // Skill and baseline trials reached the scripted model through the relay, and the skill fired.
    expect(report.cost.agentCalls).toBeGreaterThanOrEqual(2);
    expect(server.requests.some((r) => r.raw.includes("largest remainder method"))).toBe(true);
  }, 300_000);
});
