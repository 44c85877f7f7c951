/**
 * Red team: a hostile `command` agent through the real runner and adapter, with a token planted in skillgate's
 * environment. It reads every environ it sees, the checkout, writes outside its workspace, signals everything,
 * leaves a setsid survivor, forks 300 times under its process limit and connects to a loopback port of the host that is not a model API.
 */
import { chmodSync, existsSync, mkdtempSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AGENT_CONFINE_LIMITS } from "../../../src/agents/confine.js";
import { isolation } from "../../../src/sandbox/isolation/detect.js";
import { runHostileTrial } from "./hostile-trial.js";
import { processesIn } from "./namespace.js";

const SECRET = "ghs_redteam_agent_0a1b2c3d4e5f60718293a4b5c6d7e8f9";
const repo = resolve(import.meta.dirname, "..", "..", "..");
const AGENT = join(import.meta.dirname, "fixtures", "hostile-agent.mjs");

let server: Server;
let connections = 0;
const saved = { ...process.env };

beforeAll(async () => {
  server = createServer((s) => {
    connections++;
    s.destroy();
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const outside = mkdtempSync(join(tmpdir(), "sg-redteam-outside-"));
  chmodSync(outside, 0o1777);
  Object.assign(process.env, {
    SKILLGATE_REDTEAM_TOKEN: SECRET,
    REDTEAM_REPO: repo,
    REDTEAM_OUTSIDE: outside,
    REDTEAM_PORT: String((server.address() as { port: number }).port),
  });
});
afterAll(async () => {
  process.env = saved;
  await new Promise((r) => server.close(r));
});

describe.runIf(process.platform === "linux")("red team: a hostile command agent", () => {
  it("is contained on every count, and no secret reaches its record", async () => {
    if ((await isolation()).level === "none") return;
    const out = await runHostileTrial(AGENT, {
      prompt: "escape",
      name: "agent",
      timeoutMs: 150_000,
      extraEnv: ["REDTEAM_REPO", "REDTEAM_OUTSIDE", "REDTEAM_PORT"],
    });
    const record = out.records[0]!;
    expect(record.error, record.error?.message).toBeUndefined();
    expect(JSON.stringify(out)).not.toContain(SECRET);
    const found = JSON.parse(record.output);
    expect(found.environ).not.toContain(SECRET);
    expect(found.pids).toBeLessThan(AGENT_CONFINE_LIMITS.processes);
    expect(found.checkout.ok).toBe(false);
    expect(found.git.ok).toBe(false);
    expect(found.outside.ok).toBe(false);
    expect(existsSync(join(process.env.REDTEAM_OUTSIDE!, "pwned"))).toBe(false);
    expect(found.signals).toEqual([]);
    expect(found.egress).not.toBe("connected");
    expect(connections).toBe(0);
    expect(found.forked).toBeGreaterThan(10);
    expect(Number(found.maxProcesses)).toBe(AGENT_CONFINE_LIMITS.processes);
    if ((await isolation()).level === "uid+namespaces") expect(found.uid).not.toBe(process.getuid?.());
    // The survivor and the 'sleep 30's die with the run: nothing of its namespace is left.
    const deadline = Date.now() + 5000;
    while (processesIn(found.ns).length > 0 && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 50));
    expect(processesIn(found.ns)).toEqual([]);
  }, 240_000);
});
