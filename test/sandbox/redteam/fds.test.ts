/**
 * Red team: descriptors skillgate inherits without close-on-exec must not reach the sandbox. The harness starts
 * skillgate (dist/cli.js) the way a runner or a shell (`100<secret 101>channel`) might: with a file holding a secret
 * on fd 100 and a pipe the harness reads on fd 101. (Node's spawn passes such descriptors on; low numbers happen
 * to be taken over by Node's own start-up in skillgate, so the attack uses high ones.) A hostile gate module looks for both, reads one and writes the
 * other, and reports what it found in its load error.
 */
import { type StdioOptions, spawn } from "node:child_process";
import { closeSync, mkdtempSync, openSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { isolation } from "../../../src/sandbox/isolation/detect.js";

const SECRET = "fd-secret-5b7c1e9a3d2f4860";
const repo = resolve(import.meta.dirname, "..", "..", "..");
/** stdin ignored, stdout and stderr piped, fds 3-99 unused, the file on fd 100 and a pipe on fd 101. */
const STDIO = (fd: number): StdioOptions => [
  "ignore",
  "pipe",
  "pipe",
  ...Array<"ignore">(97).fill("ignore"),
  fd,
  "pipe",
];
const MODULE = join(import.meta.dirname, "fixtures", "fd-gate.mjs");

describe.runIf(process.platform === "linux")("red team: inherited descriptors", () => {
  it("a gate module sees only stdio and its own channels: an inherited file and pipe are closed before bubblewrap", async () => {
    if ((await isolation()).level === "none") return;
    const dir = mkdtempSync(join(tmpdir(), "sg-redteam-fd-"));
    const secretFile = join(dir, "secret.txt");
    writeFileSync(secretFile, SECRET);
    const fd = openSync(secretFile, "r");
    try {
      const child = spawn(
        process.execPath,
        [join(repo, "dist", "cli.js"), "gate", "conservation", MODULE, "--json"],
        {
          cwd: repo,
          stdio: STDIO(fd),
        },
      );
      let out = "";
      if (!child.stdout || !child.stderr) throw new Error("no pipes");
      let channel = "";
      child.stdout.on("data", (c: Buffer) => {
        out += c.toString();
      });
      child.stderr.on("data", (c: Buffer) => {
        out += c.toString();
      });
      const extra = (child.stdio as unknown[])[101] as NodeJS.ReadableStream;
      extra.on("data", (c: Buffer) => {
        channel += c.toString();
      });
      await new Promise((r) => child.on("close", r));
      // The module ran and said what it found: the probe is not vacuous.
      expect(out).toContain("FD-PROBE");
      expect(out).not.toContain(SECRET);
      expect(channel).not.toContain("PWNED");
      const open = /open=\[([^\]]*)\]/.exec(out)?.[1] ?? "";
      expect(open).not.toMatch(/\b(100|101)=/);
    } finally {
      closeSync(fd);
    }
  }, 120_000);
});
