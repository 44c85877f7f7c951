/**
 * Issue #33, smaller faults seen on a first contact, each through the real CLI:
 * - trigger precision with no firing at all is not measurable: "n/a (never fired)", never "100 % (0/0)";
 * - the lexical proxy is a router, not an agent: its canned line is never graded by discriminators (it gave a
 *   "pass rate" of 50 % to an agent that never answers); the discriminator battery does not run and the report
 *   says why;
 * - `--shard 2/2` on a shard that got no skill says so, not "this change touches none of them".
 */
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { Report } from "../../src/model/index.js";
import { renderMarkdown } from "../../src/report/markdown.js";
import { writeRepo } from "../support/repo-files.js";
import { runCli } from "../support/run-cli.js";

const scratch: string[] = [];
afterAll(() => {
  for (const d of scratch) rmSync(d, { recursive: true, force: true });
});

const skill = (name: string, description: string) =>
  `---\nname: ${name}\ndescription: ${description}\n---\n# ${name}\n\nUse the largest remainder method.\n`;

/** split-cents, whose trigger queries share no word with its description: the lexical router never fires. */
function repo(): string {
  const d = writeRepo({
    ".claude/skills/split-cents/SKILL.md": skill(
      "split-cents",
      "Split a money total held in integer cents among people so no cent is lost.",
    ),
    ".agent/evals/split-cents/meta.json": JSON.stringify({ trials: 2, thresholds: {} }),
    ".agent/evals/split-cents/prompts/split.yaml":
      "id: split\nprompt: Split 1000 cents among 3 people.\nassertions:\n  - id: D:no-lost-cent\n    type: not-one-of\n    extract: first-number\n    values: [333]\n",
    ".agent/evals/split-cents/trigger-eval.json": JSON.stringify({
      shouldFire: [{ prompt: "Bake sourdough bread overnight" }, { prompt: "Tune a guitar by ear" }],
      shouldNotFire: [{ prompt: "Water the tomato plants" }],
    }),
  });
  scratch.push(d);
  return d;
}

describe("the lexical proxy and figures that cannot be measured", () => {
  it("precision of a skill that never fired is n/a, and the canned line is graded by no discriminator", async () => {
    const dir = repo();
    const json = join(dir, "report.json");
    const r = await runCli([
      "run",
      "--repo",
      dir,
      "--agent",
      "lexical",
      "--no-cache",
      "--no-color",
      "--json",
      json,
    ]);
    const report = JSON.parse(readFileSync(json, "utf8")) as Report;
    const s = report.skills[0]!;
    expect(s.trigger?.precision.measured).toBe(false);
    expect(r.stdout).toMatch(/precision n\/a \(never fired\)/);
    expect(r.stdout).not.toMatch(/precision 100%/);
    const md = renderMarkdown(report, { maxChars: 65_535, fullReportHint: "the report artifact" });
    expect(md).not.toMatch(/100\.0 %/);
    expect(md).toMatch(/n\/a/);
    // no discriminator figure from a router's canned line, and the report says why
    expect(s.discriminator).toBeUndefined();
    expect(s.roots.map((x) => x.id)).not.toContain("split/D:no-lost-cent");
    expect(JSON.stringify(s)).toMatch(/lexical proxy is a router, not an agent/);
    expect(r.stdout).toMatch(/lexical proxy is a router, not an agent/);
  }, 120_000);

  it("an empty shard says the shard got none of the selected skills, not that the change touches none", async () => {
    const dir = repo();
    const base = repo();
    writeFileSync(
      join(base, ".claude/skills/split-cents/SKILL.md"),
      skill("split-cents", "Split money in cents."),
    );
    const r = await runCli([
      "run",
      "--repo",
      dir,
      "--base-dir",
      base,
      "--agent",
      "lexical",
      "--no-cache",
      "--no-color",
      "--shard",
      "2/2",
    ]);
    expect(r.stdout + r.stderr).not.toMatch(/touches none of them/);
    expect(r.stdout + r.stderr).toMatch(/shard 2\/2 got none of the 1 selected skill/);
  }, 120_000);
});
