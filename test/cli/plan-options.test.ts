/**
 * Issue #33: `skillgate plan` is documented to take `run`'s options (a run's command line, `run` → `plan`, says
 * what it would spend), yet refused `--seed`. Every option of run's usage is accepted by plan.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { PLAN_USAGE } from "../../src/cli/commands/plan.js";
import { RUN_USAGE } from "../../src/cli/commands/run.js";
import { writeRepo } from "../support/repo-files.js";
import { runCli } from "../support/run-cli.js";

const scratch: string[] = [];
afterAll(() => {
  for (const d of scratch) rmSync(d, { recursive: true, force: true });
});

/** The options a usage text lists (`--name` at the start of an indented line, and `--a, --b` lists). */
function optionsOf(usage: string): string[] {
  return usage
    .split("\n")
    .filter((l) => /^ {2}--/.test(l))
    .flatMap((l) =>
      [
        ...l
          .trimStart()
          .replace(/ {2,}.*$/, "")
          .matchAll(/--[\w-]+/g),
      ].map((m) => m[0]),
    )
    .filter((o) => o !== "--help");
}

describe("skillgate plan takes run's options", () => {
  it("lists every option of run in its usage", () => {
    expect(optionsOf(RUN_USAGE).length).toBeGreaterThan(10);
    // plan takes every option of run, and its own: the shard fan-out it prints for a workflow matrix
    const planOnly = ["--matrix", "--noise", "--rounds"];
    expect(optionsOf(PLAN_USAGE).sort()).toEqual([...optionsOf(RUN_USAGE), ...planOnly].sort());
  });

  it("a run's whole command line, run → plan, is accepted (exit 0) and --seed reaches the forecast", async () => {
    const repo = writeRepo({
      ".claude/skills/demo/SKILL.md":
        "---\nname: demo\ndescription: A demo skill for the CLI tests.\n---\nBody\n",
    });
    scratch.push(repo);
    const out = mkdtempSync(join(tmpdir(), "sg-plan-opts-"));
    scratch.push(out);
    const r = await runCli([
      "plan",
      "--repo",
      repo,
      "--agent",
      "lexical",
      "--seed",
      "7",
      "--trials",
      "2",
      "--skills",
      "*",
      "--no-cache",
      "--json",
      join(out, "plan.json"),
      "--junit",
      join(out, "r.xml"),
      "--sarif",
      join(out, "r.sarif"),
      "--record",
      join(out, "rec"),
      "--allow-weakening",
      "--quiet",
      "--no-color",
    ]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const plan = JSON.parse(readFileSync(join(out, "plan.json"), "utf8"));
    expect(plan.seed).toBe(7);
    // A skill with no eval suite runs no trial: the scope says so, rather than counting it as one with batteries.
    expect(plan.scope.message).toBe(
      "1 skill(s) found, 1 selected, 1 with batteries to run, 1 of them with no eval suite (only validated: add one with `skillgate init`)",
    );
  });
});
