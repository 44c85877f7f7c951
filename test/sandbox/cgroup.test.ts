/**
 * A run's cgroup (where this machine lets root make one): made with its limits, joined by the launcher before the
 * command starts, its process cap enforced, and emptied and removed by `end()` whatever is still running.
 */
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { LAUNCHER } from "../../src/sandbox/isolation/bwrap.js";
import { makeRunCgroup, resourceHost } from "../../src/sandbox/isolation/cgroup.js";

const MIB = 1024 * 1024;

describe.runIf(process.platform === "linux" && process.getuid?.() === 0)("a run's cgroup", () => {
  it("caps memory and processes, holds the launched tree from its start, and end() kills and removes it", async () => {
    if (resourceHost().level === "rlimits") return;
    const cg = makeRunCgroup({ memoryBytes: 64 * MIB, processes: 8 });
    expect(cg).toBeDefined();
    if (!cg) return;
    const dirs = cg.procs.map((p) => dirname(p));
    const limits = dirs.flatMap((d) =>
      ["memory.max", "memory.limit_in_bytes", "pids.max"]
        .filter((f) => existsSync(join(d, f)))
        .map((f) => `${f}=${readFileSync(join(d, f), "utf8").trim()}`),
    );
    expect(limits).toContain("pids.max=8");
    expect(
      limits.some((l) => l === `memory.max=${64 * MIB}` || l === `memory.limit_in_bytes=${64 * MIB}`),
    ).toBe(true);
    // 20 sleepers under a cap of 8 processes: some forks fail; the shell then waits on the ones that started.
    const script =
      "for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do sleep 30 2>/dev/null & done; wait";
    const child = spawn(
      "/bin/bash",
      ["-c", LAUNCHER, "launch", ...cg.procs, "--", "--", "/bin/sh", "-c", script],
      {
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let err = "";
    child.stderr.on("data", (c: Buffer) => {
      err += c.toString();
    });
    // The shell may die at its first refused fork (dash does): the sleepers it started stay in the cgroup.
    const deadline = Date.now() + 10_000;
    while (!/fork|resource|retry/i.test(err) && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 50));
    const members = readFileSync(cg.procs[cg.procs.length - 1] as string, "utf8")
      .split("\n")
      .filter(Boolean);
    expect(err).toMatch(/fork|resource|retry/i);
    expect(members.length).toBeGreaterThan(1);
    expect(members.length).toBeLessThanOrEqual(8);
    expect(await cg.end()).toBe(true);
    for (const pid of members)
      expect(
        existsSync(`/proc/${pid}/cgroup`) && !/ Z /.test(readFileSync(`/proc/${pid}/stat`, "utf8")),
      ).toBe(false);
    for (const d of dirs) expect(existsSync(d)).toBe(false);
  }, 30_000);
});
