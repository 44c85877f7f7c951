import { join, resolve } from "node:path";
import { execa } from "execa";
import { describe, expect, it } from "vitest";
import { GATE_IDS } from "../gates/ids.js";
import { ensureNode24 } from "./support/node24.js";

const root = resolve(import.meta.dirname, "..");

/** Per gate: a good module (passes with these options) and a broken one (fails). */
const CASES: Record<string, { good: string; bad: string; options?: Record<string, unknown> }> = {
  analytics: { good: "good-nearest-rank.ts", bad: "bad-floor-index.js" },
  boundary: {
    good: "good-score.ts",
    bad: "bad-exclusive-bounds.ts",
    options: { domain: [{ min: 0, max: 100, integer: true }] },
  },
  complexity: { good: "good-map-join.js", bad: "bad-find-join.js", options: { input: "events-users" } },
  conservation: { good: "good-largest-remainder.ts", bad: "bad-round-each.ts" },
  contrast: { good: "good-pairs.ts", bad: "bad-slate.ts" },
  leakage: { good: "good-group-hash.ts", bad: "bad-row-shuffle.js" },
  queue: { good: "good-pool.ts", bad: "bad-serial.js" },
  "tenant-isolation": { good: "good-scoped.ts", bad: "bad-unscoped.ts" },
};

/** `passed` and the failed check ids of `dist/cli.js gate … --json` under the given Node. */
async function verdict(node: string, gate: string, file: string, options?: Record<string, unknown>) {
  const args = [join(root, "dist/cli.js"), "gate", gate, join(root, "gates", gate, "fixtures", file)];
  if (options) args.push("--options", JSON.stringify(options));
  const r = await execa(node, [...args, "--seed", "7", "--json"], {
    cwd: root,
    reject: false,
    env: { PATH: process.env.PATH ?? "" },
    extendEnv: false,
  });
  const out = JSON.parse(r.stdout) as { passed: boolean; checks: { id: string; passed: boolean }[] };
  return { passed: out.passed, failed: out.checks.filter((c) => !c.passed).map((c) => c.id) };
}

describe("dist/ on node 24 (action.yml's runtime)", () => {
  it("every gate's sandbox child gives the verdicts it gives on this Node", async () => {
    const node24 = await ensureNode24();
    expect(Object.keys(CASES).sort()).toEqual([...GATE_IDS].sort());
    for (const [gate, c] of Object.entries(CASES)) {
      for (const file of [c.good, c.bad]) {
        const [here, there] = await Promise.all([
          verdict(process.execPath, gate, file, c.options),
          verdict(node24, gate, file, c.options),
        ]);
        expect(there, `${gate}/${file} on node 24`).toEqual(here);
        // Not a load or sandbox failure: the probes ran, and they told the good module from the broken one.
        expect(here.failed.filter((id) => id === "load" || id.startsWith("sandbox-"))).toEqual([]);
        expect(here.passed, `${gate}/${file}`).toBe(file === c.good);
      }
    }
  }, 300_000);
});
