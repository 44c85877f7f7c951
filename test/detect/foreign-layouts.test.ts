/**
 * Issue #28, foreign layouts and graders read as their owners read them: waza's `file` grader (`must_exist`,
 * `must_not_exist`, `content_patterns`), written here in the shape of waza's own documentation; Claude Code's
 * `claude plugin eval` cases in a plugin's own `evals/<case>/` (test/fixtures/day-one/plugin-evals, shaped like
 * trailofbits/skills: case.yaml or prompt.md, graders/*.md, a fixture folder); Netlify AXIS scenarios beside an
 * `axis.config.json` in a skill's evals/ (shaped like getsentry/skills).
 */
import { cpSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { assertionLookup } from "../../src/detect/assertion-types.js";
import { discoverRepository } from "../../src/detect/discover.js";
import { runCli } from "../support/run-cli.js";
import "../../src/grade/assertions/index.js";
import * as registry from "../../src/grade/assertions/registry.js";
import { resolvePlaceholders } from "../../src/grade/vars.js";
import type { Diagnostic } from "../../src/model/index.js";
import { writeRepo } from "../support/repo-files.js";

const opts = { profile: "claude-code" as const, assertionTypes: assertionLookup(registry), env: {} };
const scratch: string[] = [];
afterAll(() => {
  for (const d of scratch) rmSync(d, { recursive: true, force: true });
});
function repo(files: Record<string, string>): string {
  const dir = writeRepo(files, "sg-foreign-");
  scratch.push(dir);
  return dir;
}
const skillMd = (name: string) =>
  `---\nname: ${name}\ndescription: Does ${name} work. Use for ${name} tasks.\n---\nSteps.\n`;
const at = (ds: readonly Diagnostic[], severity: string) =>
  ds.filter((d) => d.severity === severity).map((d) => `${d.file}:${d.line} ${d.code}`);

describe("waza `file` grader", () => {
  const evalYaml = [
    "name: scaffold-eval",
    "skill: scaffold",
    "tasks:",
    "  - id: new-project",
    "    prompt: Scaffold a Python CLI project called tally.",
    "    validators:",
    "      - type: file",
    "        name: project_files",
    "        config:",
    "          must_exist:",
    '            - "src/main.py"',
    '            - "README.md"',
    "          must_not_exist:",
    '            - "temp/debug.log"',
    "          content_patterns:",
    '            - path: "src/main.py"',
    "              must_match:",
    '                - "def main\\\\("',
    '                - "import argparse"',
    '                - "^if __name__"',
    "              must_not_match:",
    '                - "TODO"',
    '            - path: "pyproject.toml"',
    "              regex_match:",
    "                - 'name = \"tally\"'",
    "",
  ].join("\n");

  it("maps must_exist, must_not_exist and literal content patterns; a real regex is a located not-graded notice", () => {
    const dir = repo({
      "skills/scaffold/SKILL.md": skillMd("scaffold"),
      "skills/scaffold/eval.yaml": evalYaml,
    });
    const d = discoverRepository(dir, opts);
    expect(at(d.diagnostics, "error")).toEqual([]);
    const c = d.skills[0]!.suite!.cases[0]!;
    expect(c.assertions.map((a) => [a.rawType, resolvePlaceholders(a.params, {})])).toEqual([
      ["file-exists", { value: "src/main.py" }],
      ["file-exists", { value: "README.md" }],
      ["not-file-exists", { value: "temp/debug.log" }],
      ["file-contains", { file: "src/main.py", value: "def main(" }],
      ["file-contains", { file: "src/main.py", value: "import argparse" }],
      ["not-file-contains", { file: "src/main.py", value: "TODO" }],
      ["file-contains", { file: "pyproject.toml", value: 'name = "tally"' }],
    ]);
    // `^if __name__` is an anchored regex: file-contains cannot say it, so it is named, not guessed.
    const notes = d.diagnostics.filter((x) => x.code === "suite/not-graded");
    expect(notes.map((x) => `${x.line} ${x.message}`)).toEqual([
      expect.stringMatching(/^20 not graded: the regex `\^if __name__` of content_patterns/),
    ]);
  });
});

describe("claude plugin eval cases in a plugin's own evals/", () => {
  const FIXTURE = join(import.meta.dirname, "../fixtures/day-one/plugin-evals");
  const evals = "plugins/ctx-audit/evals";

  it("are the suite of the plugin's one skill: prompt, regex, llm and Skill graders mapped, the fixture folder copied", () => {
    const d = discoverRepository(FIXTURE, opts);
    expect(at(d.diagnostics, "error")).toEqual([]);
    const s = d.skills.find((x) => x.name === "ctx-audit:ctx-audit")!;
    expect(s.suite!.formats).toEqual(["claude-plugin-eval"]);
    const [bounded, scope] = s.suite!.cases;
    expect(bounded!.id).toBe("bounded-copy");
    expect(bounded!.prompt).toMatch(/^Read parser.c in the fixture directory/);
    expect(bounded!.files).toEqual([
      { from: `${evals}/bounded-copy/fixture/parser.c`, to: "fixture/parser.c" },
    ]);
    expect(bounded!.assertions.map((a) => [a.rawType, resolvePlaceholders(a.params, {})])).toEqual([
      ["regex", { value: "get_len", flags: "i" }],
      ["skill-used", {}],
      ["judge", { value: expect.stringMatching(/^The answer says that on the long-header branch/) }],
    ]);
    expect(scope!.prompt).toBe("List the assumptions of read_block in parser.c. Do not rate anything.\n");
    expect(scope!.assertions.map((a) => a.rawType)).toEqual(["not-regex"]);
    // Run settings, prose and a regex over files have no skillgate equivalent: named where they are written.
    expect(at(d.diagnostics, "notice").filter((x) => x.includes(evals))).toEqual([
      `${evals}/bounded-copy/case.yaml:14 suite/not-graded`, // max_turns
      `${evals}/bounded-copy/case.yaml:15 suite/not-graded`, // allowed_tools
      `${evals}/bounded-copy/case.yaml:17 suite/not-graded`, // runs
      `${evals}/bounded-copy/case.yaml:19 suite/not-graded`, // expected_outcome
      `${evals}/stays-in-scope/graders/no-todo-files.md:3 suite/not-graded`, // target: files
    ]);
  });

  it("run: the fixture folder is in the workspace, the reply regex and the Skill grader are graded per trial", async () => {
    const dir = repo({
      // An agent that reports what the workspace holds: the fixture's text if it was copied in, and the skills
      // installed for it (so the Skill grader passes with the skill and fails in the baseline).
      "agents/echo-fixture.mjs": [
        'import { existsSync, readdirSync, readFileSync } from "node:fs";',
        'const skills = existsSync(".agents/skills") ? readdirSync(".agents/skills") : [];',
        'const text = existsSync("fixture/parser.c") ? readFileSync("fixture/parser.c", "utf8") : "no fixture here";',
        "process.stdout.write(JSON.stringify({ output: `Context:\\n${text}`, skillsActivated: skills }));",
        "",
      ].join("\n"),
      ".skillgate.yml":
        "agent:\n  adapter: command\n  command: node agents/echo-fixture.mjs\ntimeoutSeconds: 30\n",
    });
    cpSync(FIXTURE, dir, { recursive: true });
    const out = join(dir, "report.json");
    const r = await runCli([
      "run",
      "--repo",
      dir,
      "--skills",
      "ctx-audit:*",
      "--json",
      out,
      "--no-cache",
      "--quiet",
    ]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const s = JSON.parse(readFileSync(out, "utf8")).skills[0];
    expect(s.errors).toEqual([]);
    const byId = new Map(
      s.discriminator.assertions.map((a: { checkId: string; skill: object; baseline: object }) => [
        a.checkId,
        a,
      ]),
    );
    const rates = (id: string) => {
      const a = byId.get(id) as {
        skill: { passed: number; total: number };
        baseline: { passed: number; total: number };
      };
      return [`${a.skill.passed}/${a.skill.total}`, `${a.baseline.passed}/${a.baseline.total}`];
    };
    // Five trials per case, the default.
    expect(rates("bounded-copy/grader-names-the-callee")).toEqual(["5/5", "5/5"]); // get_len: in the fixture
    expect(rates("bounded-copy/grader-skill-fired")).toEqual(["5/5", "0/5"]);
    expect(rates("stays-in-scope/grader-no-severity")).toEqual(["5/5", "5/5"]);
  }, 120_000);

  it("a plugin of two skills keeps its cases unread, said in a notice; validate exits 0", async () => {
    const d = discoverRepository(FIXTURE, opts);
    expect(d.skills.filter((x) => x.namespace === "pair").every((x) => !x.suite)).toBe(true);
    expect(at(d.diagnostics, "notice")).toContain("plugins/pair/evals/both/case.yaml:1 suite/unread-file");
    const r = await runCli(["validate", "--repo", FIXTURE, "--json"]);
    expect(r.code, r.stdout).toBe(0);
  });
});

describe("AXIS scenarios (evals/axis.config.json, evals/scenarios/*.json)", () => {
  const scenario = {
    name: "Concise release PR",
    prompt: "Draft a PR title and body for the pending docs change. Do not open the PR.",
    judge: [
      { check: "The title uses a conventional commit type, docs preferred.", weight: 0.6 },
      { check: "The body has no Summary or Test Plan headings.", weight: 0.4 },
    ],
    setup: [{ action: "run_script", command: "git init" }],
    artifacts: ["notes/**"],
  };
  const config = { scenarios: "./scenarios", agents: [{ agent: "codex" }], skills: ["./.."] };

  it("each scenario a case named after its file; judge checks mapped; setup and artifacts named as not graded", () => {
    const dir = repo({
      "skills/pr-writer/SKILL.md": skillMd("pr-writer"),
      "skills/pr-writer/evals/axis.config.json": JSON.stringify(config, null, 2),
      "skills/pr-writer/evals/scenarios/concise-pr.json": JSON.stringify(scenario, null, 2),
      "skills/pr-writer/evals/scenarios/no-prompt.json": JSON.stringify(
        { name: "Broken", judge: [] },
        null,
        2,
      ),
    });
    const d = discoverRepository(dir, opts);
    const suite = d.skills[0]!.suite!;
    expect(suite.formats).toEqual(["axis"]);
    expect(suite.cases.map((c) => c.id)).toEqual(["concise-pr"]);
    const c = suite.cases[0]!;
    expect(c.prompt).toBe(scenario.prompt);
    expect(c.assertions.map((a) => [a.type, a.params.value, a.loc.line])).toEqual([
      ["judge", scenario.judge[0]!.check, 5],
      ["judge", scenario.judge[1]!.check, 9],
    ]);
    const file = "skills/pr-writer/evals/scenarios";
    expect(at(d.diagnostics, "error")).toEqual([`${file}/no-prompt.json:1 suite/axis-scenario`]);
    expect(at(d.diagnostics, "notice")).toEqual(
      expect.arrayContaining([
        `${file}/concise-pr.json:14 suite/not-graded`,
        `${file}/concise-pr.json:20 suite/not-graded`,
      ]),
    );
    // Read, so no longer an unread eval file.
    expect(d.diagnostics.filter((x) => x.code === "suite/unread-file")).toEqual([]);
  });
});
