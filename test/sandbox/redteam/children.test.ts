/**
 * Red team: hostile gate modules, `javascript` predicates and oracles against the sandbox. Each attack is bounded
 * and each test shows it contained; skillgate's environment holds a planted token that must appear nowhere.
 * (Compile-time inlining and /dev/zero: compile-confined.test.ts; SIGUSR1 and the inspector: inspector.test.ts.)
 */
import { chmodSync, existsSync, mkdtempSync, readFileSync, statSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runGate } from "../../../gates/registry.js";
import { CHILD_CONFINE_LIMITS, runSandboxed, runSandboxedCommand } from "../../../src/sandbox/index.js";
import { isolation } from "../../../src/sandbox/isolation/detect.js";

const SECRET = "ghs_redteam_9f8e7d6c5b4a39281706f5e4d3c2b1a0";
const repo = resolve(import.meta.dirname, "..", "..", "..");
const fixture = join(import.meta.dirname, "fixtures", "hostile-predicate.mjs");
const limits = { timeoutMs: 20_000, memoryMb: 256 };
const isolated = async () => (await isolation()).level !== "none";

let server: Server;
let port = 0;
let connections = 0;

/** A folder the test made, writable by any sandbox uid (a stand-in for a shared /tmp). */
function sharedFolder(): string {
  const dir = mkdtempSync(join(tmpdir(), "sg-redteam-"));
  chmodSync(dir, 0o777);
  return dir;
}

async function predicate(exportName: string, vars: Record<string, unknown> = {}) {
  return runSandboxed(
    { kind: "predicate", module: fixture, export: exportName, args: [null, { vars }] },
    limits,
  );
}

beforeAll(async () => {
  process.env.SKILLGATE_REDTEAM_TOKEN = SECRET;
  server = createServer((s) => {
    connections++;
    s.destroy();
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  port = (server.address() as { port: number }).port;
});
afterAll(async () => {
  delete process.env.SKILLGATE_REDTEAM_TOKEN;
  await new Promise((r) => server.close(r));
});

describe("red team: predicates and gate modules", () => {
  it("/proc/<pid>/environ of every pid it sees holds no secret; it sees no host pid", async () => {
    const out = await predicate("environments");
    expect(out.ok).toBe(true);
    expect(JSON.stringify(out)).not.toContain(SECRET);
    if (out.ok && (await isolated())) expect((out.value as { pids: number }).pids).toBeLessThanOrEqual(3);
  });

  it("a gate module throwing every environment it read shows no secret in the gate result", async () => {
    const r = await runGate("conservation", join(import.meta.dirname, "fixtures", "environ-gate.mjs"), {
      seed: 1,
    });
    expect(r.passed).toBe(false);
    expect(r.checks[0]?.message).toContain("ENVIRON");
    expect(JSON.stringify(r)).not.toContain(SECRET);
  });

  it.runIf(process.platform === "linux")("cannot read the repository checkout or its .git", async () => {
    const out = await predicate("checkout", { repo });
    expect(out).toMatchObject({ ok: true, value: { pkg: { ok: false }, git: { ok: false } } });
  });

  it("cannot write outside (the host file never appears)", async () => {
    const target = join(sharedFolder(), "pwned");
    const out = await predicate("writeOutside", { target });
    expect(out).toMatchObject({ ok: true, value: { ok: false } });
    expect(existsSync(target)).toBe(false);
  });

  it("signals reach no process of the host (skillgate keeps running)", async () => {
    const out = await predicate("signalAll");
    expect(out.ok).toBe(true);
    // bubblewrap's init runs as root: the sandbox uid may signal nothing but its own processes
    if (out.ok && (await isolated())) expect(out.value).toEqual([]);
    expect(readFileSync("/proc/self/stat", "latin1").split(") ")[1]?.[0]).not.toBe("T");
  });

  it.runIf(process.platform === "linux")("reaches no loopback port of the host", async () => {
    if (!(await isolated())) return;
    const before = connections;
    const out = await predicate("egress", { port });
    expect(out.ok).toBe(true);
    expect(out.ok && out.value).not.toBe("connected");
    expect(connections).toBe(before);
  });
});

describe.runIf(process.platform === "linux")("red team: oracles (shell commands)", () => {
  it("read every environ, the checkout and .git/config: no secret, no checkout", async () => {
    const out = await runSandboxedCommand(
      `cat /proc/*/environ 2>/dev/null | tr '\\0' '\\n'; cat ${repo}/package.json ${repo}/.git 2>&1 | head -3; ls /proc | grep -c '^[0-9]'`,
      { cwd: import.meta.dirname, timeoutMs: 10_000 },
    );
    expect(JSON.stringify(out)).not.toContain(SECRET);
    if (!(await isolated())) return;
    expect(out.stdout).toContain("No such file or directory");
    expect(out.stdout).not.toContain('"name": "skillgate"');
  });

  it("SIGSTOP to everything it sees, its parent included, stops nothing of skillgate", async () => {
    if (!(await isolated())) return;
    const out = await runSandboxedCommand("kill -STOP -1; kill -STOP $PPID; kill -USR1 1; echo done", {
      cwd: import.meta.dirname,
      timeoutMs: 10_000,
    });
    expect(out.stdout).toContain("done");
    expect(readFileSync("/proc/self/stat", "latin1").split(") ")[1]?.[0]).not.toBe("T");
  });

  it("network egress to a loopback port of the host fails", async () => {
    if (!(await isolated())) return;
    const before = connections;
    const out = await runSandboxedCommand(
      `${process.execPath} -e "require('net').connect(${port}, '127.0.0.1').on('connect', () => console.log('CONNECTED')).on('error', (e) => console.log(e.code))"`,
      { cwd: import.meta.dirname, timeoutMs: 10_000 },
    );
    expect(out.stdout.trim()).toMatch(/^E[A-Z]+$/);
    expect(connections).toBe(before);
  });

  it("setsid and double-forked survivors die with the run", async () => {
    if (!(await isolated())) return;
    const dir = sharedFolder();
    const out = await runSandboxedCommand(
      `setsid sh -c 'i=0; while [ $i -lt 400 ]; do echo x >> ${dir}/beat; sleep 0.05; i=$((i+1)); done' & (sh -c 'sleep 20' &) ; sleep 0.3; echo started`,
      { cwd: import.meta.dirname, timeoutMs: 10_000, writable: [dir] },
    );
    expect(out.stdout).toContain("started");
    const size = statSync(join(dir, "beat")).size;
    await new Promise((r) => setTimeout(r, 500));
    expect(statSync(join(dir, "beat")).size).toBe(size);
  });

  it("a fork bomb stops at the process limit and dies with the run", async () => {
    if (!(await isolated())) return;
    // Bounded: 600 attempts at most, each a process that would live 20 s; Node counts the ones that started.
    const bomb = `let n = 0; for (let i = 0; i < 600; i++) { try { const c = require('child_process').spawn('sleep', ['20'], { detached: true, stdio: 'ignore' }); c.on('error', () => {}); if (c.pid) n++; } catch {} } setTimeout(() => { console.log(n); process.exit(0); }, 300);`;
    const out = await runSandboxedCommand(`${process.execPath} -e "${bomb}"`, {
      cwd: import.meta.dirname,
      timeoutMs: 60_000,
    });
    expect(out.ok).toBe(true);
    const started = Number(out.stdout.trim());
    expect(started).toBeGreaterThan(10);
    expect(started).toBeLessThan(CHILD_CONFINE_LIMITS.processes);
  });

  it("filling the disk stops at the file-size limit and the size of its private /tmp", async () => {
    if (!(await isolated())) return;
    const dir = sharedFolder();
    const out = await runSandboxedCommand(
      `head -c 200000000 /dev/zero > ${dir}/fill; echo "host:$?"; i=0; while [ $i -lt 20 ]; do head -c 10000000 /dev/zero > /tmp/f$i 2>/dev/null || break; i=$((i+1)); done; echo "tmp:$i"`,
      { cwd: import.meta.dirname, timeoutMs: 30_000, writable: [dir] },
    );
    expect(statSync(join(dir, "fill")).size).toBeLessThanOrEqual(CHILD_CONFINE_LIMITS.fileSizeBytes);
    expect(out.stdout).not.toContain("host:0");
    const files = Number(/tmp:(\d+)/.exec(out.stdout)?.[1]);
    expect(files * 10_000_000).toBeLessThanOrEqual(CHILD_CONFINE_LIMITS.tmpBytes);
  });
});
