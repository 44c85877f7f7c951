import { mkdirSync, mkdtempSync, readdirSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { TrialWorkspaces, WORKSPACE_BATCH } from "../../src/agents/workspace.js";
import {
  chooseWorkspaceParent,
  mountAt,
  type ParentProbe,
  SHM_MIN_FREE_BYTES,
  STALE_BATCH_MS,
  sweepStaleBatches,
} from "../../src/agents/workspace-parent.js";
import { makeRequest } from "../support/trials.js";

// Lines as Linux writes them: optional fields ("shared:5") before the "-" separator; a later mount covers an earlier.
const GITHUB_RUNNER = [
  "22 1 8:1 / / rw,relatime shared:1 - ext4 /dev/root rw,discard,errors=remount-ro",
  "25 22 0:23 / /dev rw,nosuid,relatime shared:2 - devtmpfs udev rw,size=8139416k,mode=755",
  "26 25 0:25 / /dev/shm rw,nosuid,nodev shared:3 - tmpfs tmpfs rw,inode64",
].join("\n");
const DOCKER = [
  "500 400 0:52 / / rw,relatime master:1 - overlay overlay rw,lowerdir=/l,upperdir=/u,workdir=/w",
  "510 500 0:55 / /dev/shm rw,nosuid,nodev,noexec,relatime - tmpfs shm rw,size=65536k",
].join("\n");
const GiB = 2 ** 30;

function probe(over: Partial<ParentProbe> & { free?: number } = {}): ParentProbe {
  return {
    env: {},
    platform: "linux",
    mountinfo: () => GITHUB_RUNNER,
    freeBytes: () => over.free ?? 8 * GiB,
    writable: () => true,
    tmpdir: () => "/tmp",
    ...over,
  };
}

describe("mountinfo", () => {
  test("finds the mount's type and per-mount options past the optional fields", () => {
    expect(mountAt(GITHUB_RUNNER, "/dev/shm")).toEqual({
      fstype: "tmpfs",
      options: ["rw", "nosuid", "nodev"],
    });
    expect(mountAt(DOCKER, "/dev/shm")?.options).toContain("noexec");
    expect(mountAt(DOCKER, "/mnt")).toBeUndefined();
  });

  test("a later mount on the same point wins", () => {
    const stacked = `${GITHUB_RUNNER}\n30 26 0:40 / /dev/shm rw,noexec - ramfs none rw`;
    expect(mountAt(stacked, "/dev/shm")).toEqual({ fstype: "ramfs", options: ["rw", "noexec"] });
  });
});

describe("where trial workspaces go", () => {
  test("a roomy exec-able tmpfs at /dev/shm is preferred over the disk", () => {
    const p = chooseWorkspaceParent(undefined, probe());
    expect(p.next()).toBe("/dev/shm");
    expect(p.reason).toMatch(/\/dev\/shm \(tmpfs\)/);
  });

  test("an explicit folder, SKILLGATE_WORKSPACE_DIR and TMPDIR each win over /dev/shm, in that order", () => {
    const env = { SKILLGATE_WORKSPACE_DIR: "/work/ws", TMPDIR: "/scratch" };
    expect(chooseWorkspaceParent("/run/x", probe({ env })).next()).toBe("/run/x");
    expect(chooseWorkspaceParent(undefined, probe({ env })).next()).toBe("/work/ws");
    const onlyTmp = chooseWorkspaceParent(
      undefined,
      probe({ env: { TMPDIR: "/scratch" }, tmpdir: () => "/scratch" }),
    );
    expect(onlyTmp.next()).toBe("/scratch");
    expect(onlyTmp.reason).toMatch(/TMPDIR/);
  });

  test("a container's small noexec /dev/shm is not used: agents run what they write there", () => {
    const p = chooseWorkspaceParent(undefined, probe({ mountinfo: () => DOCKER, free: 64 * 2 ** 20 }));
    expect(p.next()).toBe("/tmp");
    expect(p.reason).toMatch(/noexec/);
    const small = chooseWorkspaceParent(undefined, probe({ free: 64 * 2 ** 20 }));
    expect(small.next()).toBe("/tmp");
    expect(small.reason).toMatch(/0\.1 GiB free, below 4 GiB/);
  });

  test("an agent whose own sandbox mounts a new /dev (Codex) gets the OS temp folder, saying why", () => {
    const p = chooseWorkspaceParent(
      undefined,
      probe(),
      "codex's workspace-write sandbox mounts its own /dev",
    );
    expect(p.next()).toBe("/tmp");
    expect(p.reason).toMatch(/not used: codex's workspace-write sandbox mounts its own \/dev/);
  });

  test("not Linux, not a tmpfs, not writable, no mountinfo: the OS temp folder", () => {
    expect(chooseWorkspaceParent(undefined, probe({ platform: "darwin" })).reason).toMatch(/not Linux/);
    const disk = GITHUB_RUNNER.replace("- tmpfs tmpfs", "- ext4 /dev/sdb");
    expect(chooseWorkspaceParent(undefined, probe({ mountinfo: () => disk })).reason).toMatch(
      /ext4, not a tmpfs/,
    );
    expect(chooseWorkspaceParent(undefined, probe({ writable: () => false })).next()).toBe("/tmp");
    expect(chooseWorkspaceParent(undefined, probe({ mountinfo: () => undefined })).next()).toBe("/tmp");
  });

  test("room is checked for every batch: once RAM runs short, new batches go to the disk", () => {
    let free = 6 * GiB;
    const p = chooseWorkspaceParent(undefined, probe({ freeBytes: () => free }));
    expect(p.next()).toBe("/dev/shm");
    free = SHM_MIN_FREE_BYTES - 1;
    expect(p.next()).toBe("/tmp");
    free = SHM_MIN_FREE_BYTES;
    expect(p.next()).toBe("/dev/shm");
  });

  test("on this machine the choice is a folder workspaces can be made in", async () => {
    const p = chooseWorkspaceParent();
    const pool = new TrialWorkspaces(".agents/skills", p.next);
    try {
      const ws = pool.prepare(makeRequest({ prompt: "p" }));
      expect(ws.dir.startsWith(`${p.next()}/work-`)).toBe(true);
      // the workspace is a project in its HOME, beside the HOME's temp folder
      expect(ws.dir).toBe(`${ws.home}/project`);
      expect(readdirSync(ws.home).sort()).toEqual(["project", "tmp"]);
      pool.dispose(ws);
    } finally {
      await pool.drain();
    }
  });

  test("each new batch asks for its folder again", async () => {
    const a = mkdtempSync(join(tmpdir(), "ws-a-"));
    const b = mkdtempSync(join(tmpdir(), "ws-b-"));
    let parent = a;
    const pool = new TrialWorkspaces(".agents/skills", () => parent);
    const first = Array.from({ length: WORKSPACE_BATCH }, () => pool.prepare(makeRequest({ prompt: "p" })));
    parent = b;
    const next = pool.prepare(makeRequest({ prompt: "p" }));
    expect(first.every((ws) => ws.dir.startsWith(a))).toBe(true);
    expect(next.dir.startsWith(b)).toBe(true);
    for (const ws of [...first, next]) pool.dispose(ws);
    await pool.drain();
    expect([...readdirSync(a), ...readdirSync(b)]).toEqual([]);
  });
});

describe("batches left by killed runs", () => {
  test("a batch folder untouched for a day is removed; a live one, other names, files and foreign folders are not", () => {
    const parent = mkdtempSync(join(tmpdir(), "ws-sweep-"));
    const now = Date.now();
    const old = (now - STALE_BATCH_MS - 60_000) / 1000;
    mkdirSync(join(parent, "work-dead01/0/project"), { recursive: true });
    utimesSync(join(parent, "work-dead01"), old, old);
    mkdirSync(join(parent, "work-live01/0"), { recursive: true });
    const almost = (now - STALE_BATCH_MS + 60_000) / 1000;
    utimesSync(join(parent, "work-live01"), almost, almost);
    mkdirSync(join(parent, "someone-else"));
    utimesSync(join(parent, "someone-else"), old, old);
    // another program's folder of the same prefix: it holds more than numbered trial folders
    mkdirSync(join(parent, "work-notes/drafts"), { recursive: true });
    utimesSync(join(parent, "work-notes"), old, old);
    writeFileSync(join(parent, "work-file"), "x");
    utimesSync(join(parent, "work-file"), old, old);
    expect(sweepStaleBatches(parent, now)).toEqual([join(parent, "work-dead01")]);
    expect(readdirSync(parent).sort()).toEqual(["someone-else", "work-file", "work-live01", "work-notes"]);
    expect(sweepStaleBatches(join(parent, "missing"), now)).toEqual([]);
  });

  test("only /dev/shm is swept: on disk the OS cleans its temp folder", () => {
    expect(chooseWorkspaceParent(undefined, probe()).sweep).toBeTypeOf("function");
    expect(chooseWorkspaceParent(undefined, probe({ free: 0 })).sweep).toBeUndefined();
    expect(chooseWorkspaceParent("/x", probe()).sweep).toBeUndefined();
  });
});
