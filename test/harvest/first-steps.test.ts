/**
 * Issue #43, `harvest` as a new user first runs it, through the bundled CLI with a local command agent:
 * - with no flags it ran the baseline only, and on a suite without a reference answer proposed nothing;
 * - with `--with-skill` it proposed forbidding "Use 2025-04-03.", which the suite's own check accepts (the
 *   baseline worded the right answer differently from the skill);
 * - for a skill-creator suite it never called the judge: the expectations were `error` in both arms, yet listed
 *   as wrong answers.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { execa } from "execa";
import { describe, expect, it } from "vitest";
import type { HarvestReport } from "../../src/model/index.js";
import { e2eFile } from "../support/dist.js";
import { writeRepo } from "../support/repo-files.js";

const { cliJs, scratch } = e2eFile();

/**
 * Without the skill: the right date worded as a sentence in even trials, a wrong date in odd ones; with it, the
 * right date alone.
 */
const AGENT = `const fs = require("node:fs");
fs.readFileSync(0, "utf8");
const skilled = fs.existsSync(".agents/skills/release-date");
const trial = Number(process.env.SKILLGATE_TRIAL);
process.stdout.write(skilled ? "2025-04-03" : trial % 2 === 0 ? "Use 2025-04-03." : "Use 2025-04-30.");
`;

/** Passes an expectation quoting a text (`"2025-04-03"`) when the output holds it. */
const JUDGE = `const input = require("node:fs").readFileSync(0, "utf8");
// The blocks' tags end in a code drawn from their content (grade/judge.ts): read it from the first line.
const code = /end their tags in -([0-9a-f]+);/.exec(input)[1];
const block = (name) => {
  const open = "<" + name + "-" + code + ">\\n";
  const from = input.indexOf(open) + open.length;
  return input.slice(from, input.indexOf("\\n</" + name + "-" + code + ">", from));
};
const expectation = block("expectation");
const output = block("output");
const want = /"([^"]+)"/.exec(expectation)[1];
process.stdout.write(JSON.stringify({ passed: output.includes(want), evidence: "judged" }));
`;

const SKILL =
  "---\nname: release-date\ndescription: Says the next release date. Use for release dates.\n---\nIt is 2025-04-03.\n";

function repo(files: Record<string, string>, config = ""): string {
  const dir = writeRepo(
    {
      ".skillgate.yml": `agent:\n  adapter: command\n  command: node agent.js\n${config}cache: {enabled: false}\n`,
      "agent.js": AGENT,
      "judge.js": JUDGE,
      ".claude/skills/release-date/SKILL.md": SKILL,
      ...files,
    },
    "sg-harvest-first-",
  );
  scratch.push(dir);
  return dir;
}

/** A seed suite whose one check accepts the right date however it is worded. */
const SEED = {
  ".agent/evals/release-date/meta.json": "{}\n",
  ".agent/evals/release-date/prompts/next.yaml":
    "id: next\nprompt: When is the next release?\nassertions:\n  - {id: right-date, type: regex, value: '2025-04-03'}\n",
};

async function harvest(dir: string, ...flags: string[]) {
  const json = join(dir, "harvest.json");
  const r = await execa(
    process.execPath,
    [cliJs(), "harvest", "--repo", dir, "--trials", "4", "--json", json, ...flags],
    { reject: false, env: { ...process.env, SKILLGATE_ISOLATION: "none" } },
  );
  if (r.exitCode !== 0) console.log(r.stdout, r.stderr);
  return { code: r.exitCode, out: r.stdout, report: JSON.parse(readFileSync(json, "utf8")) as HarvestReport };
}

describe("harvest, first steps", () => {
  it("runs both arms by default", async () => {
    const { code, report } = await harvest(repo(SEED));
    expect(code).toBe(0);
    expect(report.withSkill).toBe(true);
    expect(report.skills[0]!.cases[0]!.trials).toMatchObject({ baseline: 4, skill: 4 });
  }, 120_000);

  it("never proposes forbidding an answer a check of the suite accepts, nor one the skill gives", async () => {
    const { report } = await harvest(repo(SEED), "--with-skill");
    const c = report.skills[0]!.cases[0]!;
    const forbidden = c.proposals
      .filter((p) => p.kind === "not-one-of")
      .flatMap((p) => (p.assertion.values as unknown[]).map(String));
    expect(forbidden).not.toContain("Use 2025-04-03.");
    // The wrong date is still found (its trials failed the suite's check, which already catches it).
    const wrong = c.clusters.filter((x) => x.wrong && !x.feature.startsWith("check:")).map((x) => x.value);
    expect(wrong).toContain("Use 2025-04-30.");
    expect(wrong.filter((v) => v.includes("2025-04-03"))).toEqual([]);
  }, 120_000);

  it("grades a skill-creator suite's expectations with the configured judge; errors are not wrong answers", async () => {
    const dir = repo(
      {
        ".claude/skills/release-date/evals/evals.json": JSON.stringify({
          skill_name: "release-date",
          evals: [{ id: 1, prompt: "When is the next release?", expectations: ['It names "2025-04-03"'] }],
        }),
      },
      "judge: {adapter: command, command: node judge.js}\n",
    );
    const { report } = await harvest(dir);
    const c = report.skills[0]!.cases[0]!;
    expect(c.clusters.filter((x) => x.value === "error")).toEqual([]);
    const judged = c.clusters.find((x) => x.feature.startsWith("check:") && x.value === "fail");
    expect(judged).toMatchObject({ baseline: 2, skill: 0, wrong: true });
  }, 120_000);

  it("without a judge, a skill-creator suite's expectations are said not graded, never listed as wrong", async () => {
    const dir = repo({
      ".claude/skills/release-date/evals/evals.json": JSON.stringify({
        skill_name: "release-date",
        evals: [{ id: 1, prompt: "When is the next release?", expectations: ['It names "2025-04-03"'] }],
      }),
    });
    const { report } = await harvest(dir);
    const c = report.skills[0]!.cases[0]!;
    expect(c.clusters.filter((x) => x.feature.startsWith("check:"))).toEqual([]);
    expect(c.notes.join("\n")).toMatch(/no judge/);
  }, 120_000);
});
