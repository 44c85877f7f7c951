/**
 * Issue #32: `skillgate init SKILL --robustness` scaffolds one probe per robustness dimension, tagged and with the
 * rubric assertions each is scored by; what only the author can write is a TODO- key `validate` rejects until it is
 * replaced, after which the suite validates and every dimension has a probe.
 */
import { readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { assertionLookup } from "../../src/detect/assertion-types.js";
import { discoverRepository } from "../../src/detect/discover.js";
import * as assertionRegistry from "../../src/grade/assertions/registry.js";
import { DIMENSIONS } from "../../src/grade/robustness.js";
import { writeRepo } from "../support/repo-files.js";
import { runCli } from "../support/run-cli.js";

const scratch: string[] = [];
afterAll(() => {
  for (const d of scratch) rmSync(d, { recursive: true, force: true });
});

describe("skillgate init --robustness", () => {
  it("a probe per dimension: rejected at its TODO keys, valid once they are filled in", async () => {
    const dir = writeRepo({
      ".claude/skills/money/SKILL.md":
        "---\nname: money\ndescription: Splits money in cents.\n---\nUse cents.\n",
    });
    scratch.push(dir);
    const r = await runCli(["init", "money", "--repo", dir, "--robustness"]);
    expect(r.code).toBe(0);
    const prompts = join(dir, ".claude/skills/money/evals/prompts");
    const probes = readdirSync(prompts).filter((f) => f.startsWith("probe-"));
    expect(probes).toHaveLength(10);
    const before = await runCli(["validate", "--repo", dir]);
    expect(before.code).toBe(2);
    for (const f of probes) expect(before.stdout).toContain(`prompts/${f}:`);
    // the author fills in the TODO keys
    for (const f of [...probes, "example.yaml"]) {
      const file = join(prompts, f);
      let text = readFileSync(file, "utf8").replace(
        /^TODO-prompt: .*$/m,
        'prompt: "Split 1000 cents among 3"',
      );
      text =
        f === "probe-hallucination.yaml"
          ? text.replace(
              /^(\s*)TODO-value: .*$/m,
              "$1export: f\n$1options: { domain: [{ min: 0, max: 10 }] }",
            )
          : text.replace(/^(\s*)TODO-value: .*$/m, '$1value: "334"');
      writeFileSync(file, text);
    }
    writeFileSync(
      join(prompts, "../trigger-eval.json"),
      JSON.stringify({
        shouldFire: [{ prompt: "split the bill" }],
        shouldNotFire: [{ prompt: "write a haiku" }],
      }),
    );
    const after = await runCli(["validate", "--repo", dir]);
    expect(after.stdout).toMatch(/0 error\(s\)/);
    expect(after.code).toBe(0);
    const suite = discoverRepository(dir, {
      profile: "claude-code",
      assertionTypes: assertionLookup(assertionRegistry),
    }).skills[0]!.suite!;
    expect(new Set(suite.cases.flatMap((c) => (c.probe ? [c.probe.dimension] : [])))).toEqual(
      new Set(DIMENSIONS),
    );
    // the rephrasing is graded by its original's checks
    const rephrased = suite.cases.find((c) => c.id === "probe-phrasing-2")!;
    expect(rephrased.assertions.map((a) => a.id)).toEqual(["right-answer"]);
  });
});
