/**
 * Red team: a hostile `command` agent fills its workspace, the one place it may write, with many files each under
 * the per-file size limit. On a tmpfs workspace (/dev/shm, the default on Linux) the pages count against the run's
 * memory cgroup; on a disk workspace the trial fails once the agent ends with more than its workspace cap.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { chooseWorkspaceParent } from "../../../src/agents/workspace-parent.js";
import { isolation } from "../../../src/sandbox/isolation/detect.js";
import { runHostileTrial } from "./hostile-trial.js";

const AGENT = join(import.meta.dirname, "fixtures", "disk-fill-agent.mjs");
/** The workspace cap the trusted config sets for these trials, MiB: the agent writes 3 × 60% of it. */
const DISK_MB = 100;
const saved = { ...process.env };

beforeEach(() => {
  Object.assign(process.env, { REDTEAM_FILL_FILES: "3", REDTEAM_FILL_MB: String(DISK_MB * 0.6) });
});
afterEach(() => {
  process.env = saved;
});

async function fill(workspaceDir: string | undefined, sandbox = { diskMb: DISK_MB, memoryMb: 2 * DISK_MB }) {
  if (workspaceDir) process.env.SKILLGATE_WORKSPACE_DIR = workspaceDir;
  const out = await runHostileTrial(AGENT, {
    prompt: "fill",
    name: "disk",
    sandbox,
    extraEnv: ["REDTEAM_FILL_FILES", "REDTEAM_FILL_MB"],
  });
  return out.records[0]!;
}

describe.runIf(process.platform === "linux")("red team: filling the workspace", () => {
  it("on disk: a trial that leaves more than its workspace cap fails, saying so", async () => {
    if ((await isolation()).level === "none") return;
    const record = await fill(mkdtempSync(join(tmpdir(), "sg-redteam-disk-ws-")));
    expect(record.error?.message).toMatch(/left more than 100 MiB in its workspace/);
  }, 120_000);

  it("on a tmpfs, with a cgroup: the workspace's pages count against the run's memory while it runs", async () => {
    const iso = await isolation();
    if (iso.level === "none" || iso.resources.level === "rlimits") return;
    delete process.env.SKILLGATE_WORKSPACE_DIR;
    if (!chooseWorkspaceParent().next().startsWith("/dev/shm")) return;
    // Only the memory cap acts: a workspace cap far above what is written, memory well below it.
    const record = await fill(undefined, { diskMb: 100_000, memoryMb: DISK_MB });
    if (record.error) expect(record.error.message).toMatch(/killed|memory/i);
    else expect(JSON.parse(record.output).writtenMb).toBeLessThan(DISK_MB);
  }, 120_000);
});
