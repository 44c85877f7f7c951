import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compileModule } from "../../src/sandbox/compile.js";
import { runSandboxed, runSandboxedCommand, scrubbedEnv } from "../../src/sandbox/index.js";
import { SANDBOX_CONCURRENCY } from "../../src/sandbox/process.js";

const fx = (f: string) => join(import.meta.dirname, "fixtures", f);
const limits = { timeoutMs: 10_000, memoryMb: 128 };
const SECRET = "sk-test-5f1e2d3c4b5a69788796a5b4c3d2e1f0";
const predicate = (module: string, args: unknown[], exp?: string) =>
  ({ kind: "predicate", module: fx(module), export: exp, args }) as const;

describe("scrubbedEnv", () => {
  it("keeps PATH-like basics and drops credentials and CI context", () => {
    const saved = { ...process.env };
    Object.assign(process.env, {
      GITHUB_TOKEN: "ghp_x",
      ANTHROPIC_API_KEY: "k",
      OPENAI_BASE_URL: "u",
      MY_SECRET: "s",
      NPM_CONFIG_USERCONFIG: "n",
      AWS_PROFILE: "p",
    });
    try {
      const env = scrubbedEnv({ EXTRA: "1" });
      expect(env.PATH).toBe(process.env.PATH);
      expect(env.EXTRA).toBe("1");
      for (const k of Object.keys(env))
        expect(k).not.toMatch(/TOKEN|KEY|SECRET|^GITHUB_|^ANTHROPIC_|^OPENAI_|^AWS_|^NPM_/);
    } finally {
      process.env = saved;
    }
  });
});

describe("compileModule", () => {
  it("compiles a module once for every gate on it, again when a file it bundles changes, never keeps a failure", async () => {
    const dir = mkdtempSync(join(tmpdir(), "sg-compile-"));
    // The compile runs as a sandbox uid: the module's folder must be readable by others.
    chmodSync(dir, 0o755);
    const main = join(dir, "main.ts");
    writeFileSync(main, "import { k } from './helper';\nexport const f = (x: number): number => x * k;\n");
    writeFileSync(join(dir, "helper.ts"), "export const k: number = 2;\n");
    const [a, b] = await Promise.all([compileModule(main), compileModule(main)]);
    const c = await compileModule(main);
    expect(a.ok && b.ok && c.ok).toBe(true);
    if (!a.ok || !b.ok || !c.ok) return;
    expect(new Set([a.file, b.file, c.file]).size).toBe(1);
    writeFileSync(join(dir, "helper.ts"), "export const k: number = 3;\n");
    const d = await compileModule(main);
    expect(d.ok && d.file !== a.file && readFileSync(d.file, "utf8")).toContain("3");
    writeFileSync(join(dir, "helper.ts"), "export const k: number = ;\n");
    expect(await compileModule(main)).toMatchObject({ ok: false });
    writeFileSync(join(dir, "helper.ts"), "export const k: number = 4;\n");
    const e = await compileModule(main);
    expect(e.ok && readFileSync(e.file, "utf8")).toContain("4");
  });
});

describe("runSandboxed", () => {
  beforeAll(() => {
    process.env.SKILLGATE_TEST_TOKEN = SECRET;
  });
  afterAll(() => {
    delete process.env.SKILLGATE_TEST_TOKEN;
  });

  it("calls a TS predicate's default export and returns its JSON value", async () => {
    const out = await runSandboxed(predicate("predicate.ts", ["hello", 3]), limits);
    expect(out).toMatchObject({ ok: true, value: { pass: true, length: 5 } });
  });

  it("awaits async exports, bundles relative TS imports and loads top-level-await ESM", async () => {
    expect(await runSandboxed(predicate("predicate.ts", [4], "asyncPredicate"), limits)).toMatchObject({
      value: 8,
    });
    expect(await runSandboxed(predicate("imports-helper.ts", [5]), limits)).toMatchObject({ value: 11 });
    expect(await runSandboxed(predicate("tla.mjs", [21]), limits)).toMatchObject({ value: 42 });
  });

  it("a timer left running by the module does not keep the child alive", async () => {
    expect(await runSandboxed(predicate("leaves-timer.js", []), limits)).toMatchObject({
      ok: true,
      value: "done",
    });
  });

  it("kills an infinite loop at import on timeout and says it was loading", async () => {
    const out = await runSandboxed(predicate("loop-at-import.js", []), { timeoutMs: 1500, memoryMb: 128 });
    expect(out).toMatchObject({ ok: false, failure: "timeout", phase: "load" });
  });

  it("stops a heap bomb at the memory cap", async () => {
    const out = await runSandboxed(predicate("heap-bomb.js", []), { timeoutMs: 20_000, memoryMb: 96 });
    expect(out).toMatchObject({ ok: false, failure: "memory", phase: "run" });
  });

  it("stops a Buffer bomb (outside the V8 heap) by the resident-memory watch", async () => {
    const out = await runSandboxed(predicate("buffer-bomb.js", []), { timeoutMs: 20_000, memoryMb: 96 });
    expect(out).toMatchObject({ ok: false, failure: "memory" });
  });

  it("watches the memory of every sandbox running at once (one shared poller)", async () => {
    const [bombA, ok, bombB] = await Promise.all([
      runSandboxed(predicate("buffer-bomb.js", []), { timeoutMs: 20_000, memoryMb: 96 }),
      runSandboxed(predicate("predicate.ts", ["hello", 3]), limits),
      runSandboxed(predicate("buffer-bomb.js", []), { timeoutMs: 20_000, memoryMb: 96 }),
    ]);
    expect(bombA).toMatchObject({ ok: false, failure: "memory" });
    expect(bombB).toMatchObject({ ok: false, failure: "memory" });
    expect(ok).toMatchObject({ ok: true, value: { pass: true } });
    // and again once the poller has stopped with the last group
    const again = await runSandboxed(predicate("buffer-bomb.js", []), { timeoutMs: 20_000, memoryMb: 96 });
    expect(again).toMatchObject({ ok: false, failure: "memory" });
  });

  it("fails a module that forges a result on fd 3 and exits at import as tampered, while loading", async () => {
    const out = await runSandboxed(predicate("forge-result.js", []), limits);
    // The forged line on fd 3 is not signed with the run's key: the whole run fails, never a pass.
    expect(out).toMatchObject({ ok: false, failure: "tamper", phase: "load" });
    expect(out.ok === false && out.message).toMatch(/unsigned line/);
  });

  it("reports a throw at import and a syntax error as load failures with the location", async () => {
    const threw = await runSandboxed(predicate("throws-at-import.ts", []), limits);
    expect(threw).toMatchObject({ ok: false, failure: "load" });
    expect(threw.ok === false && threw.message).toContain("boom at import");
    const syntax = await runSandboxed(predicate("syntax-error.js", []), limits);
    expect(syntax.ok === false && syntax.message).toMatch(/fixtures\/syntax-error\.js:\d+:\d+: Expected/);
    const missing = await runSandboxed(predicate("predicate.ts", [], "nope"), limits);
    expect(missing.ok === false && missing.message).toMatch(/no export 'nope' \(exports: .*asyncPredicate/);
    const absent = await runSandboxed(predicate("does-not-exist.ts", []), limits);
    expect(absent).toMatchObject({ ok: false, failure: "load" });
  });

  it("never shows a parent secret: the child env is scrubbed and /proc reads are redacted", async () => {
    const out = await runSandboxed(predicate("read-secrets.js", []), limits);
    const text = JSON.stringify(out);
    expect(out.ok).toBe(true);
    expect(text).not.toContain(SECRET);
    const childEnv = out.ok ? (out.value as { env: Record<string, string> }).env : {};
    expect(childEnv.PATH).toBeDefined();
    expect(Object.keys(childEnv)).not.toContain("SKILLGATE_TEST_TOKEN");
  });

  it("may not read the parent's /proc environ, nor spawn processes (permission model)", async () => {
    const environ = await runSandboxed(predicate("read-secrets.js", [], "readParentEnviron"), limits);
    expect(environ).toMatchObject({ ok: false, failure: "crash" });
    expect(environ.ok === false && environ.message).toMatch(
      /ERR_ACCESS_DENIED|Access to this API has been restricted/,
    );
    const spawned = await runSandboxed(predicate("read-secrets.js", [], "spawnSomething"), limits);
    expect(spawned).toMatchObject({ ok: false, failure: "crash" });
  });

  it("redacts a parent secret the module got hold of from its result and stderr", async () => {
    const out = await runSandboxed(predicate("echo.js", [`prefix ${SECRET} suffix`]), limits);
    expect(out).toMatchObject({ ok: true, value: { found: "prefix [REDACTED] suffix" } });
    expect(out.stderr).toContain("found: prefix [REDACTED] suffix");
  });
});

describe("runSandboxedCommand", () => {
  it("runs a shell command with a scrubbed env", async () => {
    process.env.SKILLGATE_TEST_TOKEN = SECRET;
    try {
      const out = await runSandboxedCommand("env; echo $SKILLGATE_TEST_TOKEN", {
        cwd: import.meta.dirname,
        timeoutMs: 5000,
      });
      expect(out.ok).toBe(true);
      expect(out.stdout).toContain("PATH=");
      expect(out.stdout).not.toContain(SECRET);
      expect(out.stdout).not.toContain("SKILLGATE_TEST_TOKEN");
    } finally {
      delete process.env.SKILLGATE_TEST_TOKEN;
    }
  });

  it("passes stdin and explicit env, reports a non-zero exit", async () => {
    const out = await runSandboxedCommand('read x; echo "$x-$ORACLE_VAR"; exit 3', {
      cwd: import.meta.dirname,
      timeoutMs: 5000,
      stdin: "in\n",
      env: { ORACLE_VAR: "v" },
    });
    expect(out).toMatchObject({ ok: false, exitCode: 3, failure: "exit", stdout: "in-v\n" });
  });

  it("kills the whole tree on timeout (background children included)", async () => {
    const out = await runSandboxedCommand("sleep 30 & sleep 30; echo never", {
      cwd: import.meta.dirname,
      timeoutMs: 500,
    });
    expect(out).toMatchObject({ ok: false, failure: "timeout" });
    expect(out.stdout).not.toContain("never");
  });
});

describe("sandbox concurrency", () => {
  it("runs at most one child per core and queues the rest; every queued child still runs, timed from its start", async () => {
    const dir = mkdtempSync(join(tmpdir(), "sg-slots-"));
    // The children write their log here: a folder this test made, writable by any sandbox uid.
    chmodSync(dir, 0o777);
    const n = SANDBOX_CONCURRENCY + 3;
    // Each child logs its start and end (monotonic ns from /proc/uptime is coarse; date +%s%N is fine here).
    const outs = await Promise.all(
      Array.from({ length: n }, (_, i) =>
        runSandboxedCommand(
          // Each run has a uid of its own: the log must stay writable for the next.
          `umask 0; echo "${i} start $(date +%s%N)" >> log; sleep 0.3; echo "${i} end $(date +%s%N)" >> log`,
          { cwd: dir, timeoutMs: 5_000, writable: [dir] },
        ),
      ),
    );
    expect(outs.every((o) => o.ok)).toBe(true);
    const events = readFileSync(join(dir, "log"), "utf8")
      .trim()
      .split("\n")
      .map((l) => l.split(" "))
      .map(([, kind, t]) => ({ kind, t: BigInt(t!) }))
      .sort((a, b) => (a.t < b.t ? -1 : a.t > b.t ? 1 : a.kind === "end" ? -1 : 1));
    let running = 0;
    let peak = 0;
    for (const e of events) {
      running += e.kind === "start" ? 1 : -1;
      peak = Math.max(peak, running);
    }
    expect(events).toHaveLength(2 * n);
    expect(peak).toBe(SANDBOX_CONCURRENCY);
  });
});
