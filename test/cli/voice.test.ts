/**
 * Issue #21, one CLI voice: every command prints its usage on a usage error, under the same heading, every error
 * starts `skillgate <command>:`, every usage or configuration error exits 2 (unknown options with "did you mean"),
 * `gate` uses the documented seed 42 and calls a missing module a usage error.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { COMMANDS } from "../../src/cli/commands/index.js";
import { writeRepo } from "../support/repo-files.js";
import { runCli } from "../support/run-cli.js";

const ROOT = join(import.meta.dirname, "../..");
const scratch: string[] = [];
afterAll(() => {
  for (const d of scratch) rmSync(d, { recursive: true, force: true });
});
const repo = () => {
  const d = writeRepo({
    ".claude/skills/demo/SKILL.md":
      "---\nname: demo\ndescription: A demo skill for the CLI tests.\n---\nBody\n",
  });
  scratch.push(d);
  return d;
};

/** A usage error of `command`: exit 2, the prefixed message, then the command's usage. */
function expectUsageError(
  r: { code: number; stdout: string; stderr: string },
  command: string,
  message: RegExp,
) {
  expect(r.code).toBe(2);
  expect(r.stdout).toBe("");
  const [first, ...rest] = r.stderr.split("\n");
  expect(first).toMatch(new RegExp(`^skillgate ${command}: `));
  expect(first).toMatch(message);
  expect(rest.join("\n")).toContain(`Usage: skillgate ${command} `);
}

describe("every command", () => {
  const names = Object.keys(COMMANDS);

  it("has a usage under the same heading, printed by --help with exit 0", async () => {
    expect(names.sort()).toEqual(["gate", "harvest", "init", "merge", "plan", "run", "validate"]);
    for (const name of names) {
      expect(COMMANDS[name]!.usage, name).toMatch(new RegExp(`^Usage: skillgate ${name} `));
      const r = await runCli([name, "--help"]);
      expect(r.code, name).toBe(0);
      expect(r.stdout.trim(), name).toBe(COMMANDS[name]!.usage);
    }
  });

  it("an unknown option: exit 2, the command's prefix, did you mean, the usage", async () => {
    for (const name of names)
      expectUsageError(await runCli([name, "--bogus"]), name, /unknown option --bogus$/);
    expectUsageError(
      await runCli(["run", "--repoo", "x"]),
      "run",
      /unknown option --repoo \(did you mean --repo\?\)/,
    );
    expectUsageError(await runCli(["gate", "--seeed", "1"]), "gate", /\(did you mean --seed\?\)/);
    expectUsageError(await runCli(["merge", "--jsn", "x"]), "merge", /\(did you mean --json\?\)/);
  });

  it("a missing option value or argument is a usage error too", async () => {
    expectUsageError(await runCli(["run", "--repo"]), "run", /option --repo needs a value/);
    expectUsageError(
      await runCli(["run", "--repo", repo(), "--trials", "0"]),
      "run",
      /--trials must be a whole number/,
    );
    expectUsageError(await runCli(["run", "--repo", repo(), "--shard", "5/4"]), "run", /shard index/);
    expectUsageError(
      await runCli(["run", "--repo", join(tmpdir(), "sg-no-such-xyz")]),
      "run",
      /no such folder/,
    );
    expectUsageError(await runCli(["validate", "--profile", "loose"]), "validate", /--profile must be/);
    expectUsageError(await runCli(["merge"]), "merge", /no report given/);
    expectUsageError(await runCli(["init"]), "init", /expected a skill/);
    expectUsageError(await runCli(["init", "nope", "--repo", repo()]), "init", /no skill `nope`/);
    expectUsageError(await runCli(["gate", "conservation"]), "gate", /expected a gate id and a module path/);
    expectUsageError(
      await runCli(["gate", "conservaton", "x.ts"]),
      "gate",
      /unknown gate 'conservaton' \(did you mean conservation\?\)/,
    );
    expectUsageError(
      await runCli([
        "gate",
        "conservation",
        "--seed",
        "x",
        join(ROOT, "gates/conservation/fixtures/good-largest-remainder.ts"),
      ]),
      "gate",
      /--seed must be an integer/,
    );
  });

  it("gate: a module that does not exist is a usage error, not a FAIL", async () => {
    expectUsageError(
      await runCli(["gate", "conservation", join(tmpdir(), "sg-no-such-module.ts")]),
      "gate",
      /module .*sg-no-such-module\.ts: no such file/,
    );
  });

  it("merge: a report that does not exist is said with the prefix, exit 2", async () => {
    const r = await runCli(["merge", "nonexist.json"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^skillgate merge: nonexist\.json: no such report file or directory\n/);
  });

  it("an unknown command says which one it meant", async () => {
    const r = await runCli(["rnu"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^skillgate: unknown command `rnu` \(did you mean run\?\)/);
  });

  it("configuration errors are located and carry the prefix", async () => {
    const dir = repo();
    writeFileSync(join(dir, ".skillgate.yml"), "trials: many\n");
    const r = await runCli(["run", "--repo", dir]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^skillgate run: /);
    expect(r.stderr).toMatch(/\.skillgate\.yml:1:\d+: error: /);
  });
});

describe("gate", () => {
  it("uses the documented default seed, 42", async () => {
    const dir = mkdtempSync(join(tmpdir(), "sg-gate-seed-"));
    scratch.push(dir);
    const r = await runCli([
      "gate",
      "conservation",
      join(ROOT, "gates/conservation/fixtures/good-largest-remainder.ts"),
      "--json",
    ]);
    expect(r.stderr).toBe("");
    expect(JSON.parse(r.stdout)).toMatchObject({ gate: "conservation", seed: 42, passed: true });
    expect(r.code).toBe(0);
  }, 60_000);
});
