/**
 * Issue #43, the last false errors on public repositories, through the bundled CLI: `skill/refers-to-suite-file`
 * is for a SKILL.md that tells the agent to read a file of its own suite (withheld in trials, installed in real
 * use), not for one that names such a file. The fixtures are written for these tests in the shape of the real
 * files: richfrem/agent-plugins-skills' scaffolder, eval runner and auditor skills, which name the
 * `evals/evals.json` they create or look for in the user's project (a description, folder trees, a setup step's
 * output, an audit list, an `ls`), and jimmyokusa/GoSkill's root skill whose "testing the skill itself" section
 * says its skillgrade `eval.yaml` defines one task. The real case stays an error at its line: a link to, or an
 * instruction to read, the oracle script that computes the suite's expected answers.
 */
import { join } from "node:path";
import { execa } from "execa";
import { describe, expect, it } from "vitest";
import type { Diagnostic } from "../../src/model/index.js";
import { e2eFile } from "../support/dist.js";
import { writeRepo } from "../support/repo-files.js";

const FIXTURES = join(import.meta.dirname, "../fixtures/suite-file-mentions");
const { cliJs, scratch } = e2eFile();

async function validate(from: string, files: Record<string, string> = {}) {
  const dir = writeRepo(files, "sg-mentions-", join(FIXTURES, from));
  scratch.push(dir);
  const r = await execa(process.execPath, [cliJs(), "validate", "--repo", dir, "--json"], {
    reject: false,
    env: { ...process.env, SKILLGATE_ISOLATION: "none" },
  });
  const diagnostics = (JSON.parse(String(r.stdout)) as { diagnostics: Diagnostic[] }).diagnostics;
  const refers = diagnostics
    .filter((d) => d.code === "skill/refers-to-suite-file")
    .map((d) => `${d.file}:${d.line} ${d.severity}`);
  return { code: r.exitCode, refers, errors: diagnostics.filter((d) => d.severity === "error") };
}

describe("naming a suite file is no reference to it", () => {
  it("a plugin's skills naming the evals/evals.json they create or audit in the user's project: no error", async () => {
    const r = await validate("scaffolders");
    expect(r.refers).toEqual([]);
    expect(r.errors).toEqual([]);
    expect(r.code).toBe(0);
  }, 120_000);

  it("a root skill describing its own skillgrade eval.yaml: no error", async () => {
    const r = await validate("root-skillgrade");
    expect(r.refers).toEqual([]);
    expect(r.code).toBe(0);
  }, 120_000);
});

describe("telling the agent to read a withheld oracle file is an error at that line", () => {
  const SKILL = ".claude/skills/split-cents/SKILL.md";
  const HEAD =
    "---\nname: split-cents\ndescription: Split money totals in cents among people without losing a cent. Use for shares of a bill.\n---\n# Splitting cents\n\n";
  const withBody = (body: string) => ({ [SKILL]: `${HEAD}${body}\n` });

  it.each([
    ["a markdown link", "Floor each share.\n\nWorked totals: [the answers](evals/answers.mjs).", 9],
    [
      "a read instruction wrapped over two lines",
      "Floor each share. Before you answer, read\nthe script `evals/answers.mjs`.",
      8,
    ],
    [
      "a path under the skill's folder",
      "Floor each share.\n\nTotals are in ${CLAUDE_SKILL_DIR}/evals/answers.mjs.",
      9,
    ],
    ["a command that runs it", "Floor each share.\n\n```sh\nnode ./evals/answers.mjs\n```", 10],
  ])(
    "%s",
    async (_what, body, line) => {
      const r = await validate("oracle", withBody(body));
      expect(r.refers).toEqual([`${SKILL}:${line} error`]);
      expect(r.code).toBe(2);
    },
    120_000,
  );

  it("a sentence that only names the oracle is no instruction: no error", async () => {
    const r = await validate(
      "oracle",
      withBody("Floor each share. `evals/answers.mjs` keeps the suite's totals."),
    );
    expect(r.refers).toEqual([]);
    expect(r.code).toBe(0);
  }, 120_000);
});
