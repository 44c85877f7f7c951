/**
 * Issue #33: one scaffold key left by `skillgate init` (`TODO-value`) gave four errors (missing `value`, missing
 * `values`, "must match exactly one schema in oneOf", unknown key `TODO-value`). It is one error, at the key, that
 * says what to write there.
 */
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { writeRepo } from "../support/repo-files.js";
import { runCli } from "../support/run-cli.js";

const scratch: string[] = [];
afterAll(() => {
  for (const d of scratch) rmSync(d, { recursive: true, force: true });
});

describe("a scaffold key left over", () => {
  it("is one error at its line, naming the key to write", async () => {
    const dir = writeRepo({
      ".claude/skills/demo-skill/SKILL.md":
        "---\nname: demo-skill\ndescription: Split restaurant bills among friends.\n---\nBody\n",
    });
    scratch.push(dir);
    expect((await runCli(["init", "demo-skill", "--repo", dir])).code).toBe(0);
    const evals = join(dir, ".claude/skills/demo-skill/evals");
    const fill = (file: string, from: RegExp, to: string) =>
      writeFileSync(join(evals, file), readFileSync(join(evals, file), "utf8").replace(from, to));
    // everything written but the discriminator's value
    fill("prompts/example.yaml", /^TODO-prompt:/m, "prompt:");
    fill("trigger-eval.json", /"TODO-shouldFire"/, '"shouldFire"');
    fill("trigger-eval.json", /"TODO-shouldNotFire"/, '"shouldNotFire"');
    const line =
      readFileSync(join(evals, "prompts/example.yaml"), "utf8")
        .split("\n")
        .findIndex((l) => /^\s+TODO-value:/.test(l)) + 1;
    const r = await runCli(["validate", "--repo", dir]);
    const errors = (r.stdout + r.stderr).split("\n").filter((l) => / error: /.test(l));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(new RegExp(`example\\.yaml:${line}:\\d+: error: .*TODO-value.*\`value\``));
    expect(r.code).toBe(2);
  });
});
