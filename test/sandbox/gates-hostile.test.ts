import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { GATE_IDS, isGateId, runGate } from "../../gates/registry.js";
import { gateCommand } from "../../src/cli/commands/gate.js";
import { main } from "../../src/cli/main.js";

const fx = (f: string) => join(import.meta.dirname, "fixtures", f);
const good = join(
  import.meta.dirname,
  "..",
  "..",
  "gates",
  "conservation",
  "fixtures",
  "good-largest-remainder.ts",
);
const bad = join(import.meta.dirname, "..", "..", "gates", "conservation", "fixtures", "bad-round-each.ts");

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

describe("runGate contains hostile modules", () => {
  it("an infinite loop during the probes is a failed 'sandbox-timeout' check", async () => {
    const r = await runGate("conservation", fx("allocate-loops.js"), { timeoutMs: 2000, seed: 1 });
    expect(r).toMatchObject({ passed: false, seed: 1, checks: [{ id: "sandbox-timeout", passed: false }] });
  });

  it("a memory bomb is a failed 'sandbox-memory' check", async () => {
    const r = await runGate("conservation", fx("allocate-heap-bomb.js"), { memoryMb: 64, timeoutMs: 20_000 });
    expect(r.checks).toMatchObject([{ id: "sandbox-memory", passed: false }]);
  });

  it("a missing export fails the 'load' check and names what exists", async () => {
    const r = await runGate("conservation", fx("wrong-export.js"));
    expect(r.checks).toHaveLength(1);
    expect(r.checks[0]).toMatchObject({ id: "load", passed: false });
    expect(r.checks[0]?.message).toContain("exports: split");
  });

  it("a module printing its environment shows no parent secret", async () => {
    const secret = "ghp_0123456789abcdefghijklmnopqrstuvwxyz";
    process.env.GITHUB_TOKEN_FOR_TEST = secret;
    try {
      const r = await runGate("conservation", fx("allocate-prints-env.js"), {
        options: { runs: 20 },
        seed: 3,
      });
      expect(r.passed).toBe(true);
      expect(JSON.stringify(r)).not.toContain(secret);
    } finally {
      delete process.env.GITHUB_TOKEN_FOR_TEST;
    }
  });

  it("an unknown gate is a failed result, never a throw", async () => {
    expect(isGateId("nope")).toBe(false);
    expect(GATE_IDS).toHaveLength(8);
    expect(await runGate("nope", good)).toMatchObject({ passed: false, checks: [{ id: "gate" }] });
  });
});

describe("skillgate gate", () => {
  it("exit 0 on pass, 1 on fail, with the JSON contract", async () => {
    const a = io();
    expect(
      await gateCommand(["conservation", good, "--seed", "5", "--json", "--options", '{"runs": 50}'], a.io),
    ).toBe(0);
    const json = JSON.parse(a.out.stdout);
    expect(Object.keys(json).sort()).toEqual(["checks", "gate", "metrics", "passed", "seed"]);
    expect(json).toMatchObject({ gate: "conservation", passed: true, seed: 5 });
    expect(Object.keys(json.checks[0]).sort()).toEqual(["id", "message", "passed"]);
    const b = io();
    expect(await gateCommand(["conservation", bad, "--seed", "5"], b.io)).toBe(1);
    expect(b.out.stdout).toMatch(/✗ sum: .*failed on \[\[\d+,\d+\]\] \(shrunk/);
    expect(b.out.stdout).toContain("replay: skillgate gate conservation");
  });

  it("the same --seed replays the same verdict and counterexample", async () => {
    const runs = await Promise.all(
      [1, 2].map(async () => {
        const x = io();
        await gateCommand(["conservation", bad, "--seed", "424242", "--json"], x.io);
        return JSON.parse(x.out.stdout).checks;
      }),
    );
    expect(runs[0]).toEqual(runs[1]);
  });

  it("2 for usage errors, a module that does not exist among them (through the CLI's main)", async () => {
    for (const argv of [
      [],
      ["conservation"],
      ["nope", good],
      ["conservation", fx("does-not-exist.js")],
      ["conservation", good, "--options", "{bad"],
      ["conservation", good, "--seed", "-1"],
      ["conservation", good, "--frob"],
    ]) {
      const x = io();
      expect(await main(["gate", ...argv], x.io)).toBe(2);
      expect(x.out.stderr).toMatch(/^skillgate gate: .+\n\nUsage: skillgate gate /);
    }
  });
});
