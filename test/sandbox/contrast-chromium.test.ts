/**
 * The contrast gate's browser half is confined: Chromium runs inside bubblewrap at the sandbox uid in its own
 * pid namespace, sees only the module's folder, is killed at the time limit, leaves nothing running, and is
 * never replaced by a weaker check when it is missing. On CI (Chromium installed by .ci/run) these run.
 */
import {
  chmodSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  symlinkSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { judgeCascade } from "../../gates/contrast/cascade.js";
import { findChromium, observeCascade } from "../../gates/contrast/chromium.js";
import { CASCADE_OBSERVATION_SCHEMA } from "../../gates/contrast/observation.js";
import { schemaValidator } from "../../gates/judging.js";
import { runGate } from "../../gates/registry.js";
import { isolation } from "../../src/sandbox/isolation/detect.js";

const fixtures = join(import.meta.dirname, "..", "..", "gates", "contrast", "fixtures");
const browser = findChromium() !== undefined || process.env.CI === "true";

interface Seen {
  pid: string;
  uid: number;
  ns: string;
}

/** Chromium processes now running (any uid), from /proc. */
function chromiumProcesses(binary: string): Seen[] {
  const out: Seen[] = [];
  for (const pid of readdirSync("/proc").filter((e) => /^\d+$/.test(e))) {
    try {
      const cmd = readFileSync(`/proc/${pid}/cmdline`, "latin1");
      if (!cmd.startsWith(binary)) continue;
      const uid = Number(/^Uid:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, "latin1"))?.[1]);
      out.push({ pid, uid, ns: readlinkSync(`/proc/${pid}/ns/pid`) });
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

describe("contrast without Chromium", () => {
  it("fails closed with a chromium-missing check naming how to install it", async () => {
    const obs = await observeCascade(
      { file: "/nonexistent.html", readable: [], generated: false, sourceText: "", modulePath: "/m.css" },
      { timeoutMs: 1000 },
      ["/nonexistent/chromium"],
    );
    expect(obs).toMatchObject({ kind: "chromium-missing" });
    const out = judgeCascade(obs, { level: "AA", modulePath: "/m.css", notReached: [] });
    expect(out.checks).toHaveLength(1);
    expect(out.checks[0]).toMatchObject({ id: "chromium-missing", passed: false });
    expect(out.checks[0]?.message).toContain("apt-get install chromium");
  });

  it("rejects a malformed browser observation", () => {
    const v = schemaValidator(CASCADE_OBSERVATION_SCHEMA);
    expect(v({ elements: [], truncated: false })).toBe(true);
    expect(v({ elements: [{ label: "x" }], truncated: false })).toBe(false);
    expect(v({ elements: [], truncated: false, verdict: "pass" })).toBe(false);
    expect(v({ passed: true })).toBe(false);
  });
});

describe.runIf(browser)("contrast's Chromium is confined", () => {
  it("runs at the sandbox uid in a pid namespace of its own, and nothing of it outlives the run", async () => {
    const real = findChromium() as string;
    const iso = await isolation();
    expect(iso.level).not.toBe("none");
    // A path of this test's own for the browser, so other runs at the same time are not counted.
    const dir = mkdtempSync(join(tmpdir(), "sg-chromium-"));
    chmodSync(dir, 0o755);
    const binary = join(dir, "chromium-under-test");
    symlinkSync(real, binary);
    const seen = new Map<string, Seen>();
    const ours = readlinkSync("/proc/self/ns/pid");
    const file = join(fixtures, "bad-page.html");
    const observing = observeCascade(
      {
        file,
        readable: [fixtures],
        generated: false,
        sourceText: readFileSync(file, "utf8"),
        modulePath: file,
      },
      {},
      [binary],
    );
    // /proc scanned back to back while the browser runs (a 50 ms timer missed it on a loaded machine: the browser
    // can live for less than a few of its turns).
    let done = false;
    void observing.finally(() => {
      done = true;
    });
    while (!done) {
      for (const p of chromiumProcesses(binary)) seen.set(`${p.pid}:${p.ns}`, p);
      await new Promise((r) => setImmediate(r));
    }
    const obs = await observing;
    try {
      expect(obs).toMatchObject({ truncated: false });
      expect(seen.size).toBeGreaterThan(0);
      for (const p of seen.values()) {
        expect(p.ns).not.toBe(ours);
        if (iso.level === "uid+namespaces") {
          expect(p.uid).not.toBe(process.getuid?.());
          expect(p.uid).toBeGreaterThanOrEqual(1_600_000_000);
        }
      }
      expect(chromiumProcesses(binary)).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 180_000);

  it("sees only the module's folder: an @import from its parent folder never loads", async () => {
    const parent = await runGate("contrast", join(fixtures, "confined", "reads-parent.css"), { seed: 1 });
    expect(parent.passed).toBe(true);
    // The control: the same import from inside the folder loads, and its light colour fails.
    const sibling = await runGate("contrast", join(fixtures, "confined", "reads-sibling.css"), { seed: 1 });
    expect(sibling.checks.find((c) => c.id === "text:.probe")).toMatchObject({ passed: false });
  }, 240_000);

  it("judges the module's page, not one it navigates to (a meta refresh to a clean sibling page)", async () => {
    const r = await runGate("contrast", join(fixtures, "confined", "redirects.html"), { seed: 1 });
    expect(r.passed).toBe(false);
    // Either the refresh had not happened yet (the light text fails) or it had (the run fails): never a pass.
    const clean = await runGate("contrast", join(fixtures, "confined", "clean.html"), { seed: 1 });
    expect(clean.passed).toBe(true);
  }, 240_000);

  it("is killed at the memory limit: a failed check, never a pass", async () => {
    const r = await runGate("contrast", join(fixtures, "bad-gradient.css"), { seed: 1, memoryMb: 20 });
    expect(r.checks).toHaveLength(1);
    expect(r.checks[0]).toMatchObject({ id: "chromium", passed: false });
    expect(r.checks[0]?.message).toContain("used more than 20 MiB");
  }, 120_000);

  it("is killed at the time limit: a failed check, never a pass", async () => {
    const r = await runGate("contrast", join(fixtures, "bad-split-rules.css"), { seed: 1, timeoutMs: 300 });
    expect(r.passed).toBe(false);
    expect(r.checks).toHaveLength(1);
    expect(r.checks[0]).toMatchObject({ id: "chromium", passed: false });
    expect(r.checks[0]?.message).toContain("took longer than 300 ms");
  }, 120_000);
});
