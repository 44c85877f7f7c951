import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { runAgentProcess } from "../../src/agents/process.js";

const env = { PATH: process.env.PATH ?? "/usr/bin:/bin" };

/** Alive and not a zombie (a killed orphan may wait for a reaper that a container's PID 1 never is). */
function pidAlive(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) [ZX]/.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return false;
  }
}

async function waitDead(pid: number, ms = 3000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (!pidAlive(pid)) return true;
    await new Promise((r) => setTimeout(r, 20));
  }
  return !pidAlive(pid);
}

const run = (script: string, o: { stdin?: string; timeoutMs?: number; maxStdoutBytes?: number } = {}) =>
  runAgentProcess(process.execPath, ["-e", script], {
    cwd: tmpdir(),
    env,
    stdin: o.stdin ?? "",
    timeoutMs: o.timeoutMs ?? 20_000,
    maxStdoutBytes: o.maxStdoutBytes ?? 1024,
  });

describe("runAgentProcess", () => {
  test("stdin in, stdout and stderr out, exit code", async () => {
    const p = await run(
      'const s = require("fs").readFileSync(0, "utf8"); process.stdout.write("got " + s); process.stderr.write("warn"); process.exitCode = 4;',
      { stdin: "hello" },
    );
    expect(p).toMatchObject({ stdout: "got hello", stderr: "warn", exitCode: 4, timedOut: false });
    expect(p.stdoutTruncated).toBe(false);
  });

  test("stdout beyond the cap is dropped and flagged", async () => {
    const p = await run('process.stdout.write("x".repeat(5000))', { maxStdoutBytes: 100 });
    expect(p.stdout).toBe("x".repeat(100));
    expect(p.stdoutTruncated).toBe(true);
    expect(p.exitCode).toBe(0);
  });

  test("a background process the agent left behind dies with it", async () => {
    const dir = mkdtempSync(join(tmpdir(), "proc-test-"));
    const pidFile = join(dir, "pid");
    const p = await run(
      `const c = require("child_process").spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" });
       require("fs").writeFileSync(${JSON.stringify(pidFile)}, String(c.pid)); c.unref(); process.stdout.write("done");`,
    );
    expect(p).toMatchObject({ stdout: "done", exitCode: 0 });
    const pid = Number(readFileSync(pidFile, "utf8"));
    expect(pid).toBeGreaterThan(0);
    expect(await waitDead(pid)).toBe(true);
  });

  test("a hang is killed at the timeout, its whole group with it", async () => {
    const dir = mkdtempSync(join(tmpdir(), "proc-test-"));
    const pidFile = join(dir, "pid");
    const p = await run(
      `const c = require("child_process").spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" });
       require("fs").writeFileSync(${JSON.stringify(pidFile)}, String(c.pid)); setInterval(() => {}, 1000);`,
      { timeoutMs: 1500 },
    );
    expect(p.timedOut).toBe(true);
    expect(p.signal).toBe("SIGKILL");
    expect(await waitDead(Number(readFileSync(pidFile, "utf8")))).toBe(true);
  });

  test("a timeout beyond what a timer can hold (or infinite) is the longest one, not an immediate kill", async () => {
    for (const timeoutMs of [Number.POSITIVE_INFINITY, 1e13]) {
      const p = await run('setTimeout(() => process.stdout.write("done"), 200)', { timeoutMs });
      expect(p).toMatchObject({ stdout: "done", timedOut: false, exitCode: 0 });
    }
  });

  test("a missing executable is a spawn error, not a crash of the runner", async () => {
    const p = await runAgentProcess(join(tmpdir(), "no-such-agent-binary"), [], {
      cwd: tmpdir(),
      env,
      timeoutMs: 5000,
      maxStdoutBytes: 100,
    });
    expect(p.spawnError).toMatch(/ENOENT/);
  });
});

describe("aborting", () => {
  test("an abort from the runner kills the agent", async () => {
    const controller = new AbortController();
    const pending = runAgentProcess(process.execPath, ["-e", "setInterval(() => {}, 1000)"], {
      cwd: tmpdir(),
      env,
      timeoutMs: 20_000,
      maxStdoutBytes: 100,
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(), 300);
    const p = await pending;
    expect(p).toMatchObject({ aborted: true, timedOut: false, signal: "SIGKILL" });
  });
});
