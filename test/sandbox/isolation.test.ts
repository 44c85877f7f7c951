/**
 * The isolation module: the bubblewrap command line (pure), the level this machine reaches, what a confined run
 * sees, and the safety rule: ownership and modes of any folder skillgate did not make for the run never change.
 */
import { spawnSync } from "node:child_process";
import {
  chmodSync,
  closeSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CHILD_CONFINE_LIMITS, runSandboxedCommand } from "../../src/sandbox/index.js";
import { confinedCommand, LAUNCHER } from "../../src/sandbox/isolation/bwrap.js";
import { detectIsolation, isolation } from "../../src/sandbox/isolation/detect.js";
import {
  drawSandboxUid,
  grantToSandbox,
  registerRunFolder,
  SANDBOX_UID_BASE,
  SANDBOX_UID_RANGE,
} from "../../src/sandbox/isolation/run-folder.js";
import type { Confinement, Isolation } from "../../src/sandbox/isolation/types.js";

const isRoot = process.getuid?.() === 0;

const ISO: Isolation = {
  level: "uid+namespaces",
  reason: "test",
  resources: { level: "rlimits", reason: "test" },
  tools: {
    bwrap: "/usr/bin/bwrap",
    setpriv: "/usr/bin/setpriv",
    prlimit: "/usr/bin/prlimit",
    shell: "/bin/bash",
  },
  layout: { system: [{ path: "/usr" }, { path: "/bin", link: "usr/bin" }], etc: ["/etc/ssl"] },
};

const RUN: Confinement = {
  command: "/usr/bin/node",
  args: ["child.cjs"],
  cwd: "/work/x/ws",
  env: { PATH: "/usr/bin" },
  readOnly: ["/opt/node/bin/node", "/work/x/ws"],
  writable: ["/work/x/ws/out"],
  files: { "/etc/passwd": "/tmp/run/passwd" },
  limits: CHILD_CONFINE_LIMITS,
  uid: 1_600_000_123,
  infoFd: 4,
};

/** The launcher's command, and bubblewrap's arguments within it (after the bwrap path). */
function bwrapOf(run: Confinement, iso: Isolation): { command: string; args: string[]; all: string[] } {
  const { command, args: all } = confinedCommand(run, iso);
  return { command, args: all.slice(all.indexOf("/usr/bin/bwrap") + 1), all };
}

/** Every host path of a folder tree: owner, group, mode and (links) target. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (p: string) => {
    const st = lstatSync(p);
    out[p] = `${st.uid}:${st.gid}:${(st.mode & 0o7777).toString(8)}`;
    if (st.isDirectory()) for (const e of readdirSync(p)) walk(join(p, e));
  };
  walk(dir);
  return out;
}

describe("confinedCommand (pure)", () => {
  it("owns every namespace, dies with skillgate, and drops to the run's uid with limits before the command", () => {
    const { command, args } = bwrapOf(RUN, ISO);
    expect(command).toBe("/bin/bash");
    for (const flag of [
      "--unshare-pid",
      "--unshare-ipc",
      "--unshare-uts",
      "--unshare-net",
      "--die-with-parent",
    ])
      expect(args).toContain(flag);
    expect(args).toContain("--new-session");
    const tail = args.slice(args.indexOf("--") + 1);
    expect(tail.slice(0, 8)).toEqual([
      "/usr/bin/setpriv",
      "--reuid",
      "1600000123",
      "--regid",
      "1600000123",
      "--clear-groups",
      "--inh-caps=-all",
      "--bounding-set=-all",
    ]);
    expect(tail).toContain(`--nproc=${CHILD_CONFINE_LIMITS.processes}`);
    expect(tail).toContain(`--fsize=${CHILD_CONFINE_LIMITS.fileSizeBytes}`);
    expect(tail).toContain(`--data=${CHILD_CONFINE_LIMITS.dataBytes}`);
    expect(tail.slice(-2)).toEqual(["/usr/bin/node", "child.cjs"]);
  });

  it("starts from the launcher: the run's cgroups joined and every descriptor but stdio and the named ones closed", () => {
    const procs = "/sys/fs/cgroup/skillgate-1/run-1/cgroup.procs";
    const { all } = bwrapOf({ ...RUN, cgroupProcs: [procs], keepFds: [3] }, ISO);
    expect(all.slice(0, 5)).toEqual(["--norc", "--noprofile", "-c", LAUNCHER, "skillgate-launch"]);
    expect(all.slice(5, all.indexOf("/usr/bin/bwrap"))).toEqual([procs, "--", "3", "4", "--"]);
    const { all: bare } = bwrapOf({ ...RUN, infoFd: undefined }, ISO);
    expect(bare.slice(5, bare.indexOf("/usr/bin/bwrap"))).toEqual(["--", "--"]);
    // A POSIX sh reads no start-up file when not interactive, and knows no such options.
    const sh = confinedCommand(RUN, { ...ISO, tools: { ...ISO.tools!, shell: "/bin/sh" } });
    expect(sh.args.slice(0, 3)).toEqual(["-c", LAUNCHER, "skillgate-launch"]);
  });

  it("the launcher closes inherited descriptors but stdio and the named ones, whatever their number", () => {
    const file = join(mkdtempSync(join(tmpdir(), "sg-launch-")), "held");
    writeFileSync(file, "x");
    const fd = openSync(file, "r");
    try {
      const stdio = [...["ignore", "pipe", "pipe"], ...Array<"ignore">(97).fill("ignore"), fd] as const;
      // fd 100 (as skillgate would hold it) and fd 3 (a named channel), then the command in place of bubblewrap.
      const run = (shell: string) =>
        spawnSync(shell, ["-c", LAUNCHER, "skillgate-launch", "--", "3", "--", "/bin/ls", "/proc/self/fd"], {
          stdio: [...stdio.slice(0, 3), fd, ...stdio.slice(4)],
          encoding: "utf8",
        });
      const bash = run("/bin/bash");
      expect(bash.status, bash.stderr).toBe(0);
      const fds = bash.stdout.split("\n").filter(Boolean);
      expect(fds).toContain("3");
      expect(fds).not.toContain("100");
    } finally {
      closeSync(fd);
    }
  });

  it("the launcher's shell reads no start-up file: not ~/.bashrc in the trial's HOME, though its stdin is a socket", () => {
    // bash reads /etc/bash.bashrc and ~/.bashrc when stdin is a socket (Node's pipes are); the launcher runs
    // outside the sandbox, as skillgate's uid, with the trial's HOME.
    const home = mkdtempSync(join(tmpdir(), "sg-launch-home-"));
    const marker = join(home, "sourced");
    writeFileSync(join(home, ".bashrc"), `echo yes > ${marker}\n`);
    const { command, args } = confinedCommand(
      { ...RUN, infoFd: undefined, env: { PATH: "/usr/bin:/bin", HOME: home } },
      ISO,
    );
    const launch = args.slice(0, args.indexOf("/usr/bin/bwrap"));
    const out = spawnSync(command, [...launch, "/bin/true"], {
      stdio: "pipe",
      env: { PATH: "/usr/bin:/bin", HOME: home },
      encoding: "utf8",
    });
    expect(out.status, out.stderr).toBe(0);
    expect(existsSync(marker)).toBe(false);
  });

  it("binds read-only paths before writable ones inside them, with mount points the sandbox uid can enter", () => {
    const { args } = bwrapOf(RUN, ISO);
    const at = (...seq: string[]) => args.findIndex((_, i) => seq.every((s, j) => args[i + j] === s));
    expect(at("--ro-bind", "/work/x/ws", "/work/x/ws")).toBeGreaterThan(
      at("--perms", "0755", "--dir", "/work/x"),
    );
    expect(at("--bind", "/work/x/ws/out", "/work/x/ws/out")).toBeGreaterThan(
      at("--ro-bind", "/work/x/ws", "/work/x/ws"),
    );
    // a file under a system folder is visible already: no second bind
    expect(args).not.toContain("/opt/node/bin/node/");
    expect(at("--ro-bind", "/tmp/run/passwd", "/etc/passwd")).toBeGreaterThan(
      at("--perms", "0755", "--dir", "/etc"),
    );
    // the private /tmp comes before any bind, so a bind below /tmp is not hidden by it
    expect(at("--tmpfs", "/tmp")).toBeLessThan(at("--ro-bind", "/work/x/ws", "/work/x/ws"));
    expect(args[args.indexOf("--size") + 1]).toBe(String(CHILD_CONFINE_LIMITS.tmpBytes));
  });

  it("the host's time zone stays a link into zoneinfo: a bound copy makes a runtime scan every zone file", () => {
    const { args } = bwrapOf(RUN, {
      ...ISO,
      layout: { system: [{ path: "/usr" }], etc: ["/etc/ssl"], localtime: "/usr/share/zoneinfo/Etc/UTC" },
    });
    const at = (...seq: string[]) => args.findIndex((_, i) => seq.every((s, j) => args[i + j] === s));
    expect(at("--symlink", "/usr/share/zoneinfo/Etc/UTC", "/etc/localtime")).toBeGreaterThan(
      at("--perms", "0755", "--dir", "/etc"),
    );
    expect(args.join(" ")).not.toContain("--ro-bind-try /etc/localtime");
  });

  it("unprivileged: a user namespace that may not make another and keeps no capability; no uid drop", () => {
    const { args } = bwrapOf(RUN, { ...ISO, level: "namespaces" });
    expect(args).toEqual(expect.arrayContaining(["--unshare-user", "--disable-userns", "--cap-drop", "ALL"]));
    expect(args).not.toContain("/usr/bin/setpriv");
  });

  it("refuses relative paths, the root folder and the folders the sandbox makes itself", () => {
    expect(() => confinedCommand({ ...RUN, readOnly: ["rel/path"] }, ISO)).toThrow(/absolute/);
    expect(() => confinedCommand({ ...RUN, writable: ["/"] }, ISO)).toThrow(/root folder/);
    expect(() => confinedCommand({ ...RUN, readOnly: ["/proc/1"] }, ISO)).toThrow(/makes itself/);
    expect(() => confinedCommand({ ...RUN, writable: ["/dev/shm/ws"] }, ISO)).not.toThrow();
    expect(() => confinedCommand(RUN, { level: "none", reason: "", resources: ISO.resources })).toThrow(
      /bubblewrap/,
    );
  });
});

describe("isolation level", () => {
  it("is detected once: root with bubblewrap reaches uid+namespaces (CI installs it and runs as root)", async () => {
    const iso = await isolation();
    expect(await isolation()).toBe(iso);
    if (isRoot) expect(iso).toMatchObject({ level: "uid+namespaces" });
    else expect(iso.level).not.toBe("uid+namespaces");
  });

  it("SKILLGATE_ISOLATION may lower the level, never raise it", async () => {
    expect(await detectIsolation("none")).toMatchObject({
      level: "none",
      reason: expect.stringContaining("none"),
    });
    const weaker = await detectIsolation("namespaces");
    expect(["namespaces", "none"]).toContain(weaker.level);
    expect((await detectIsolation("uid+namespaces")).level).toBe((await isolation()).level);
  });

  it("sandbox uids are drawn below 2^31 and never 0", () => {
    expect(SANDBOX_UID_BASE + SANDBOX_UID_RANGE).toBeLessThan(2 ** 31);
    for (let i = 0; i < 100; i++) expect(drawSandboxUid()).toBeGreaterThanOrEqual(SANDBOX_UID_BASE);
  });
});

describe("a confined command", () => {
  it.runIf(isRoot)(
    "runs as a uid of its own, in its own pid and network namespaces, without the checkout",
    async () => {
      const repo = join(import.meta.dirname, "..", "..");
      const out = await runSandboxedCommand(
        `id -u; ls /proc | grep -c '^[0-9]'; cat /proc/net/dev | tail -n +3 | cut -d: -f1; test -e ${repo}/package.json && echo CHECKOUT-VISIBLE; hostname; tr '\\n' ' ' < /etc/resolv.conf`,
        { cwd: import.meta.dirname, timeoutMs: 10_000 },
      );
      expect(out).toMatchObject({ ok: true });
      const [uid, pids, ...rest] = out.stdout
        .trim()
        .split("\n")
        .map((l) => l.trim());
      expect(Number(uid)).toBeGreaterThanOrEqual(SANDBOX_UID_BASE);
      // bubblewrap's init, the shell and its pipeline: a handful, never the host's hundreds
      expect(Number(pids)).toBeLessThan(10);
      // The resolver asks only the namespace's own loopback, and does not wait for the answer that cannot come.
      expect(rest).toEqual(["lo", "devbox", "nameserver 127.0.0.1 options timeout:0 attempts:1"]);
    },
  );
});

describe("the host's time zone inside", () => {
  let host: string | undefined;
  try {
    host = lstatSync("/etc/localtime").isSymbolicLink() ? readlinkSync("/etc/localtime") : undefined;
  } catch {
    host = undefined;
  }
  it.runIf(isRoot && host?.includes("zoneinfo/"))(
    "is the same link: no program scans zoneinfo to name it",
    async () => {
      const out = await runSandboxedCommand("readlink /etc/localtime", {
        cwd: import.meta.dirname,
        timeoutMs: 10_000,
      });
      expect(out).toMatchObject({ ok: true });
      expect(out.stdout.trim()).toBe(host);
    },
  );
});

describe("safety rule: no ownership or mode change outside the folders skillgate made for the run", () => {
  it("a shared folder given as cwd and writable keeps every owner and mode; links are never followed", async () => {
    // Stands for /tmp or $HOME: made and filled by this test, with a link out to another folder.
    const shared = mkdtempSync(join(tmpdir(), "sg-shared-"));
    const elsewhere = mkdtempSync(join(tmpdir(), "sg-elsewhere-"));
    writeFileSync(join(elsewhere, "precious"), "x", { mode: 0o600 });
    mkdirSync(join(shared, "sub"), { mode: 0o750 });
    writeFileSync(join(shared, "sub", "file"), "y", { mode: 0o640 });
    writeFileSync(join(shared, "open"), "z");
    symlinkSync(elsewhere, join(shared, "link"));
    chmodSync(join(shared, "open"), 0o666);
    chmodSync(shared, 0o1777);
    const before = { ...snapshot(shared), ...snapshot(elsewhere) };
    const out = await runSandboxedCommand("echo hi > new-file; cat open; echo w >> open; ls link/ || true", {
      cwd: shared,
      timeoutMs: 10_000,
      writable: [shared],
    });
    expect(out).toMatchObject({ ok: true });
    const after = { ...snapshot(shared), ...snapshot(elsewhere) };
    delete after[join(shared, "new-file")];
    expect(after).toEqual(before);
    expect(readFileSync(join(shared, "open"), "utf8")).toBe("zw\n");
  });

  it("grantToSandbox refuses a folder skillgate did not register for the run, and never follows a link", () => {
    const shared = mkdtempSync(join(tmpdir(), "sg-shared-"));
    const before = snapshot(shared);
    expect(() => grantToSandbox(shared, 1_600_000_001)).toThrow(/did not make it/);
    expect(snapshot(shared)).toEqual(before);
    if (!isRoot) return;
    const outside = mkdtempSync(join(tmpdir(), "sg-outside-"));
    const outsideBefore = snapshot(outside);
    const run = mkdtempSync(join(tmpdir(), "sg-run-"));
    mkdirSync(join(run, "ws"));
    writeFileSync(join(run, "ws", "case.ts"), "1");
    symlinkSync(outside, join(run, "ws", "out-link"));
    registerRunFolder(run);
    grantToSandbox(run, 1_600_000_001);
    expect(lstatSync(join(run, "ws", "case.ts")).uid).toBe(1_600_000_001);
    expect(lstatSync(join(run, "ws", "out-link")).uid).toBe(1_600_000_001);
    expect(snapshot(outside)).toEqual(outsideBefore);
  });
});
