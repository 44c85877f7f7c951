/**
 * Red team: skillgate cannot be opened from inside. A hostile gate module signals SIGUSR1 to its parent and every
 * pid it sees, then connects to the inspector port. With isolation off (the module is skillgate's direct child,
 * same uid) only skillgate's SIGUSR1 listener stands in the way: the CLI is started with an inspector port of the
 * test's choosing so the attack has a real target, on this Node and on Node 24 (the Action's runtime). A control
 * run shows the same attack opening a plain Node process.
 */
import { spawn } from "node:child_process";
import { chmodSync, copyFileSync, mkdtempSync } from "node:fs";
import { connect, createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { ensureNode24 } from "../../support/node24.js";

const root = resolve(import.meta.dirname, "..", "..", "..");

/** A loopback port nothing listens on (taken and released at once). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as { port: number };
  await new Promise((r) => server.close(r));
  return port;
}

function listening(port: number): Promise<boolean> {
  return new Promise((r) => {
    const s = connect({ host: "127.0.0.1", port }, () => {
      s.destroy();
      r(true);
    });
    s.on("error", () => r(false));
  });
}

/** The hostile module, in a folder of its own whose name tells it the port. */
function hostileModule(port: number): string {
  const dir = mkdtempSync(join(tmpdir(), "sg-redteam-inspector-"));
  chmodSync(dir, 0o755);
  const file = join(dir, `port-${port}.mjs`);
  copyFileSync(join(import.meta.dirname, "fixtures", "signal-parent.mjs"), file);
  return file;
}

function runCli(node: string, port: number, module: string, isolation?: string) {
  return new Promise<{ stdout: string; stderr: string }>((done) => {
    const child = spawn(
      node,
      [
        `--inspect-port=127.0.0.1:${port}`,
        join(root, "dist", "cli.js"),
        "gate",
        "conservation",
        module,
        "--json",
      ],
      {
        cwd: root,
        env: { PATH: process.env.PATH ?? "", ...(isolation ? { SKILLGATE_ISOLATION: isolation } : {}) },
      },
    );
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c) => (stdout += c));
    child.stderr.on("data", (c) => (stderr += c));
    child.on("close", () => done({ stdout, stderr }));
  });
}

describe("red team: SIGUSR1 and the inspector", () => {
  it("control: the same signal opens the inspector of a Node process without skillgate's listener", async () => {
    const port = await freePort();
    const child = spawn(process.execPath, [
      `--inspect-port=127.0.0.1:${port}`,
      "-e",
      "setTimeout(() => {}, 5000)",
    ]);
    await new Promise((r) => setTimeout(r, 500));
    child.kill("SIGUSR1");
    let open = false;
    for (let i = 0; i < 20 && !open; i++) {
      await new Promise((r) => setTimeout(r, 100));
      open = await listening(port);
    }
    child.kill("SIGKILL");
    expect(open).toBe(true);
  });

  for (const runtime of ["this Node", "Node 24"] as const) {
    it(`with isolation off, a module signalling skillgate finds the inspector shut (${runtime})`, async () => {
      const node = runtime === "Node 24" ? await ensureNode24() : process.execPath;
      const port = await freePort();
      const out = await runCli(node, port, hostileModule(port), "none");
      expect(out.stdout).toContain("INSPECTOR-SHUT");
      expect(out.stdout).not.toContain("INSPECTOR-OPEN");
      expect(out.stderr).not.toContain("Debugger listening");
    }, 120_000);
  }

  it("isolated, the module sees no process of skillgate to signal at all", async () => {
    const port = await freePort();
    const out = await runCli(process.execPath, port, hostileModule(port));
    expect(out.stdout).toContain("INSPECTOR-SHUT");
    // its parent (bubblewrap's init) and itself: no pid of the host
    expect(Number(/pids=(\d+)/.exec(out.stdout)?.[1])).toBeLessThanOrEqual(3);
    expect(out.stderr).not.toContain("Debugger listening");
  }, 60_000);
});
