import { spawnSync } from "node:child_process";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { main } from "../src/cli/main.js";
import { didYouMean } from "../src/util/edit-distance.js";
import { GATE_IDS } from "./ids.js";
import { GATE_OPTION_SCHEMAS, validateGateOptions } from "./options.js";

const root = resolve(import.meta.dirname, "..");
const fixture = (f: string) => join(import.meta.dirname, f);

function io() {
  const out = { stdout: "", stderr: "" };
  return {
    out,
    io: {
      stdout: (s: string) => {
        out.stdout += s;
      },
      stderr: (s: string) => {
        out.stderr += s;
      },
    },
  };
}

describe("gate options, validated against each gate's schema", () => {
  it("has a schema for every gate, and accepts the documented options", () => {
    expect(Object.keys(GATE_OPTION_SCHEMAS).sort()).toEqual([...GATE_IDS].sort());
    const valid: [string, Record<string, unknown>][] = [
      ["boundary", { domain: [{ min: 0, max: 100, integer: true }], invalid: "throw-or-null", runs: 50 }],
      ["conservation", { mode: "weights", invalid: "throw" }],
      ["contrast", { level: "AAA" }],
      ["queue", { runs: 10 }],
      ["tenant-isolation", {}],
      ["complexity", { input: "events-users", maxClass: "quadratic", sizes: [10, 20, 40] }],
      ["analytics", { percentile: "linear" }],
      ["leakage", { mode: "temporal" }],
    ];
    for (const [gate, options] of valid)
      expect(validateGateOptions(gate as never, options), gate).toEqual([]);
  });

  it("locates each problem with a JSON Pointer and says what is wrong", () => {
    expect(validateGateOptions("boundary", { domian: [] })).toEqual([
      {
        path: "/domian",
        message:
          "unknown option 'domian' for gate boundary (did you mean 'domain'?); known: domain, invalid, runs",
      },
    ]);
    expect(validateGateOptions("boundary", { domain: [{ min: 5, max: 1, integr: true }] })).toEqual([
      expect.objectContaining({
        path: "/domain/0/integr",
        message: expect.stringMatching(/did you mean 'integer'/),
      }),
    ]);
    expect(validateGateOptions("boundary", { domain: [{ min: 5, max: 1 }] })).toEqual([
      { path: "/domain/0", message: "min 5 is above max 1" },
    ]);
    expect(validateGateOptions("boundary", { domain: [{ min: 0.5, max: 3, integer: true }] })).toEqual([
      { path: "/domain/0/min", message: "an integer domain needs safe-integer bounds" },
    ]);
    expect(validateGateOptions("conservation", { mode: "weight" })).toEqual([
      { path: "/mode", message: 'must be one of "count", "weights"' },
    ]);
    expect(validateGateOptions("complexity", { sizes: [10, 10, 20] })[0]?.path).toBe("/sizes");
    expect(validateGateOptions("queue", { runs: 0 })[0]?.path).toBe("/runs");
    expect(validateGateOptions("contrast", [] as never)).toEqual([
      { path: "", message: "gate options must be an object" },
    ]);
  });

  it("suggests only close names", () => {
    expect(didYouMean("percentil", ["percentile", "runs"], { limitBy: "suggestion" })).toBe("percentile");
    expect(didYouMean("colour", ["level"], { limitBy: "suggestion" })).toBeUndefined();
  });

  it("`skillgate gate --options` refuses an unknown key or a bad value with exit 2, before anything runs", async () => {
    // Modules that exist and load: had the gate run, the options problem would be a failed check (exit 1).
    const x = io();
    const code = await main(
      ["gate", "boundary", fixture("boundary/fixtures/good-score.ts"), "--options", '{"domian":[]}'],
      x.io,
    );
    expect(code).toBe(2);
    expect(x.out.stderr).toContain(
      "skillgate gate: --options for gate boundary: /domian: unknown option 'domian'",
    );
    expect(x.out.stderr).toContain("did you mean 'domain'?");
    expect(x.out.stderr).toContain("Usage: skillgate gate");
    expect(x.out.stdout).toBe("");
    const y = io();
    expect(
      await main(
        ["gate", "leakage", fixture("leakage/fixtures/good-group-hash.ts"), "--options", '{"mode":"time"}'],
        y.io,
      ),
    ).toBe(2);
    expect(y.out.stderr).toContain('/mode: must be one of "group", "temporal"');
    expect(y.out.stdout).toBe("");
  });

  it("the bundled CLI (node dist/cli.js gate) exits 2 on invalid options and runs the gate on valid ones", () => {
    const module = "gates/conservation/fixtures/good-largest-remainder.ts";
    const run = (options: string) =>
      spawnSync(process.execPath, ["dist/cli.js", "gate", "conservation", module, "--options", options], {
        cwd: root,
        encoding: "utf8",
        env: { PATH: process.env.PATH ?? "" },
      });
    const bad = run('{"mdoe":"count","runs":0}');
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain("skillgate gate: --options for gate conservation:");
    expect(bad.stderr).toContain("/mdoe: unknown option 'mdoe' for gate conservation (did you mean 'mode'?)");
    expect(bad.stderr).toContain("/runs: must be >= 1");
    expect(bad.stdout).toBe("");
    const good = run('{"mode":"count","runs":50}');
    expect(good.stderr).toBe("");
    expect(good.stdout).toContain("PASS conservation");
    expect(good.status).toBe(0);
  }, 60_000);
});
