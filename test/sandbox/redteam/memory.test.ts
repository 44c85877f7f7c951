import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runSandboxedCommand } from "../../../src/sandbox/index.js";
import { resetResourceHost } from "../../../src/sandbox/isolation/cgroup.js";
import { isolation } from "../../../src/sandbox/isolation/detect.js";
import { runHostileTrial } from "./hostile-trial.js";

const AGENT = join(import.meta.dirname, "fixtures", "memory-bomb-agent.mjs");
/** Small, so the bomb stays small: 4 × 60% of it at once. */
const CAP_MB = 200;
const saved = { ...process.env };

beforeAll(() => {
  process.env.REDTEAM_CAP_MB = String(CAP_MB);
});
afterAll(() => {
  process.env = saved;
});

describe.runIf(process.platform === "linux")("red team: memory bombs", () => {
  it("a command agent's tree stays under its memory cap", async () => {
    const iso = await isolation();
    if (iso.level === "none") return;
    const out = await runHostileTrial(AGENT, {
      prompt: "bomb",
      name: "mem",
      sandbox: { memoryMb: CAP_MB },
      extraEnv: ["REDTEAM_CAP_MB"],
    });
    const record = out.records[0]!;
    // Under a cgroup the OOM killer may pick the agent itself: then the trial is an error, and nothing was held.
    if (record.error) {
      expect(iso.resources.level).toMatch(/^cgroup/);
      return;
    }
    const found = JSON.parse(record.output);
    expect(found.single).not.toBe("held");
    if (iso.resources.level !== "rlimits") expect(found.held).toBeLessThan(2);
    if (process.env.CI === "true") expect(iso.resources.level).toMatch(/^cgroup/);
  }, 120_000);

  it("a sandboxed command's tree (an oracle) stays under its memory cap", async () => {
    const iso = await isolation();
    if (iso.level === "none") return;
    const out = await runSandboxedCommand(`${process.execPath} ${AGENT}`, {
      cwd: join(import.meta.dirname, "fixtures"),
      timeoutMs: 60_000,
      memoryMb: CAP_MB,
      env: { REDTEAM_CAP_MB: String(CAP_MB) },
    });
    if (!out.ok) {
      expect(out.failure).toBe("memory");
      return;
    }
    const found = JSON.parse(out.stdout);
    expect(found.single).not.toBe("held");
    if (iso.resources.level !== "rlimits") expect(found.held).toBeLessThan(2);
  }, 120_000);

  it("without a cgroup, each process still stops at its data limit, and the resident-memory watch ends the tree", async () => {
    if ((await isolation()).level === "none") return;
    resetResourceHost("rlimits");
    try {
      const out = await runSandboxedCommand(`${process.execPath} ${AGENT}`, {
        cwd: join(import.meta.dirname, "fixtures"),
        timeoutMs: 60_000,
        memoryMb: CAP_MB,
        env: { REDTEAM_CAP_MB: String(CAP_MB) },
      });
      if (out.ok) expect(JSON.parse(out.stdout).single).not.toBe("held");
      else expect(out.failure).toBe("memory");
    } finally {
      resetResourceHost();
    }
  }, 120_000);
});
