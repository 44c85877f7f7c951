/**
 * Issue #28: day one on a real repository. The fixture repositories under test/fixtures/day-one/ are shaped like
 * public ones (skill-creator's evals.json with the keys its flow writes, waza's inline tasks and graders, a plugin
 * whose manifest names its skills folder beside previews and fragments, dotnet/skills' scenarios); the smaller
 * ones are written here. Foreign formats are read as their owners read them, an error is as small as what it
 * breaks, discovery finds what Claude Code loads, and `validate` ends with a summary.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { assertionLookup } from "../../src/detect/assertion-types.js";
import { classifyChanges } from "../../src/detect/changes.js";
import { discoverRepository } from "../../src/detect/discover.js";
import { gradeTriggerTrial } from "../../src/grade/trigger.js";
import { type Arm, makeJob, planJob } from "../../src/plan/job.js";
import "../../src/grade/assertions/index.js";
import * as registry from "../../src/grade/assertions/registry.js";
import type { Diagnostic, Skill } from "../../src/model/index.js";
import { runCli } from "../support/run-cli.js";

const FIXTURES = join(import.meta.dirname, "../fixtures/day-one");
const opts = { profile: "claude-code" as const, assertionTypes: assertionLookup(registry), env: {} };

const scratch: string[] = [];
afterAll(() => {
  for (const d of scratch) rmSync(d, { recursive: true, force: true });
});
function repo(files: Record<string, string>, from?: string): string {
  const dir = mkdtempSync(join(tmpdir(), "sg-day-one-"));
  scratch.push(dir);
  if (from) cpSync(join(FIXTURES, from), dir, { recursive: true });
  for (const [p, c] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, p)), { recursive: true });
    writeFileSync(join(dir, p), c);
  }
  return dir;
}
const skillMd = (name: string) =>
  `---\nname: ${name}\ndescription: Does ${name} work. Use for ${name} tasks.\n---\nSteps.\n`;
const at = (ds: readonly Diagnostic[], severity: string) =>
  ds.filter((d) => d.severity === severity).map((d) => `${d.file}:${d.line} ${d.code}`);
const skill = (skills: readonly Skill[], name: string) => skills.find((s) => s.name === name)!;

async function validate(dir: string, ...args: string[]) {
  const r = await runCli(["validate", "--repo", dir, "--json", ...args]);
  return { ...JSON.parse(r.stdout), code: r.code };
}

/** `plan` with an agent that runs nothing: the trials each skill's batteries would get. */
async function plan(dir: string): Promise<{ skill: string; battery: string; trials: number }[]> {
  writeFileSync(join(dir, ".skillgate.yml"), "agent:\n  adapter: command\n  command: cat\n");
  const out = join(dir, "plan.json");
  const r = await runCli(["plan", "--repo", dir, "--json", out]);
  expect(r.code, r.stderr + r.stdout).toBe(0);
  return JSON.parse(readFileSync(out, "utf8")).forecast.lines;
}

describe("foreign formats are read as their owners read them", () => {
  it("skill-creator: the keys its flow writes are warnings, a case with no assertions yet is a warning, its trigger array is read", async () => {
    const dir = repo({}, "skill-creator-keys");
    const v = await validate(dir);
    expect(v.errors).toBe(0);
    expect(v.code).toBe(0);
    const evals = "skills/invoice-fill/evals/evals.json";
    expect(at(v.diagnostics, "warning")).toEqual(
      expect.arrayContaining([
        `${evals}:10 suite/not-graded`, // must_have
        `${evals}:11 suite/not-graded`, // manual_review_expected
        `${evals}:23 suite/case-no-checks`,
        "skills/invoice-fill/evals/trigger-eval.json:2 suite/unknown-key", // rationale, once
      ]),
    );
    expect(v.diagnostics.filter((d: Diagnostic) => d.message.includes("rationale"))).toHaveLength(1);
    // No judge: the natural-language checks are notices, the typed one still runs; eval-2 has nothing left.
    expect(at(v.diagnostics, "notice")).toEqual(
      expect.arrayContaining([
        `${evals}:13 suite/judge-not-configured`,
        `${evals}:21 suite/judge-not-configured`,
      ]),
    );
    expect(v.diagnostics.find((d: Diagnostic) => d.code === "suite/nothing-gradeable")).toMatchObject({
      file: evals,
      line: 17,
      severity: "warning",
      message: expect.stringContaining("set `judge:` in .skillgate.yml"),
    });
    expect(v.skills[0]).toMatchObject({ cases: 1, triggerQueries: 4 });
  });

  it("waza: inline tasks with validators, legacy regex graders, output_contains_any, and what has no equivalent named", () => {
    const found = discoverRepository(join(FIXTURES, "waza-inline"), opts);
    expect(at(found.diagnostics, "error")).toEqual([]);
    const changelog = skill(found.skills, "changelog-writer").suite!;
    expect(
      changelog.cases.map((c) => [c.id, c.assertions.map((a) => `${a.rawType}:${a.params.value}`)]),
    ).toEqual([
      [
        "entry-from-prs",
        [
          "judge:Groups the pull requests under Added, Changed and Fixed headings",
          "regex:(?i)added|changed|fixed",
        ],
      ],
      ["not-for-commit-messages", ["not-regex:## \\[?v?\\d+\\.\\d+"]],
    ]);
    const notes = skill(found.skills, "release-notes").suite!;
    expect(notes.cases).toHaveLength(1);
    expect(notes.cases[0]!.assertions.map((a) => `${a.id} ${a.rawType} ${a.params.value}`)).toEqual([
      "output_contains-1 contains 1.5",
      "output_contains_any regex (?:new|now you can|improved)",
      "suite-no_ticket_numbers-must_not_match-1 not-regex JIRA-\\d+",
      "suite-no_errors-regex_not_match-1 not-regex (?i)fatal error|exception occurred",
    ]);
    expect(notes.trigger!.shouldFire.map((q) => q.weight)).toEqual([1, 0.5]);
    expect(at(found.diagnostics, "notice")).toEqual([
      "skills/release-notes/eval.yaml:16 suite/not-graded", // code grader
      "skills/release-notes/tasks/summarise.yaml:14 suite/not-graded", // outcomes
      "skills/release-notes/tasks/summarise.yaml:17 suite/not-graded", // behavior grader
    ]);
    expect(at(found.diagnostics, "warning")).toEqual([
      "skills/release-notes/trigger_tests.yaml:6 suite/unknown-key",
    ]);
  });

  it("dotnet/skills scenarios: tests/<plugin>/<skill>/eval.yaml attached by folder, assertions and rubric mapped", () => {
    const found = discoverRepository(join(FIXTURES, "dotnet-scenarios"), { ...opts, env: {} });
    expect(at(found.diagnostics, "error")).toEqual([]);
    const s = skill(found.skills, "dotnet-build:binlog-triage");
    expect(s.suite!.cases.map((c) => [c.id, c.assertions.map((a) => a.rawType)])).toEqual([
      ["1-root-cause-from-the-binlog-alone", ["contains", "regex", "judge"]],
      ["2-no-binlog", ["contains"]],
    ]);
    expect(at(found.diagnostics, "notice")).toEqual([
      "tests/dotnet-build/binlog-triage/eval.yaml:5 suite/not-graded", // setup
      "tests/dotnet-build/binlog-triage/eval.yaml:14 suite/not-graded", // exit_success
    ]);
  });

  it("skillgate's own format stays strict: an unknown key of a case is an error", () => {
    const dir = repo({
      "skills/a/SKILL.md": skillMd("a"),
      "skills/a/evals/prompts/c1.yaml":
        "id: c1\nprompt: p\nmust_have: [x]\nassertions: [{id: x, type: contains, value: x}]\n",
    });
    expect(at(discoverRepository(dir, opts).diagnostics, "error")).toEqual([
      "skills/a/evals/prompts/c1.yaml:3 suite/case",
    ]);
  });
});

describe("an error is as small as what it breaks", () => {
  const broken = () =>
    repo({
      "skills/split/SKILL.md": skillMd("split"),
      "skills/split/evals/meta.json": "{}",
      "skills/split/evals/prompts/good.yaml":
        "id: good\nprompt: Split 10 in 3.\nassertions: [{id: total, type: contains, value: '10'}]\n",
      "skills/split/evals/prompts/broken.yaml":
        "id: broken\nprompt: Split 0.\nassertions: [{id: z, type: containz, value: '0'}]\n",
      "skills/split/evals/prompts/empty.yaml": "id: empty\nprompt: Split nothing.\n",
      "skills/split/evals/trigger-eval.json": JSON.stringify({
        shouldFire: ["split this bill three ways", "divide 100 between 3 people"],
        shouldNotFire: ["what is 3 times 4"],
      }),
    });

  it("validate: the broken case is an error at its line, the case with no checks a warning", async () => {
    const v = await validate(broken());
    expect(at(v.diagnostics, "error")).toEqual([
      "skills/split/evals/prompts/broken.yaml:3 suite/unknown-assertion-type",
    ]);
    expect(at(v.diagnostics, "warning")).toEqual([
      "skills/split/evals/prompts/empty.yaml:1 suite/case-no-checks",
    ]);
    expect(v.skills[0]).toMatchObject({ cases: 1, triggerQueries: 3 });
  });

  it("plan: the skill's other case and its trigger battery still get their trials", async () => {
    const lines = await plan(broken());
    expect(lines.filter((l) => l.skill === "split").map((l) => `${l.battery} ${l.trials > 0}`)).toEqual([
      "discriminator true",
      "trigger true",
    ]);
  });
});

describe("no silent gaps: eval files in layouts skillgate does not read", () => {
  const evalsJson = JSON.stringify({
    skill_name: "audit",
    evals: [{ id: 1, prompt: "Audit this.", assertions: ["It audits."] }],
  });
  const trigger = JSON.stringify([{ query: "Audit it.", should_trigger: true }]);

  it("each file that looks like an eval file but is read by no format is a located notice saying what is read", () => {
    const dir = repo({
      "plugins/sec/.claude-plugin/plugin.json": JSON.stringify({ name: "sec" }),
      "plugins/sec/skills/audit/SKILL.md": skillMd("audit"),
      "plugins/sec/skills/audit/evals/evals.json": evalsJson,
      // beside evals.json: a second set skill-creator does not read either
      "plugins/sec/skills/audit/evals/evals-hard.json": evalsJson,
      // the seed layout's trigger set beside SKILL.md rather than in the suite folder
      "plugins/sec/skills/audit/trigger-eval.json": JSON.stringify({
        shouldFire: ["Audit it."],
        shouldNotFire: [],
      }),
      // a skill-creator trigger array there is told by its content and attached (#43)
      "plugins/sec/skills/audit/routing-triggers.json": trigger,
      // a plugin-level case folder (trailofbits' layout) of a plugin with two skills (one skill's is read)
      "plugins/sec/skills/scan/SKILL.md": skillMd("scan"),
      "plugins/sec/evals/sql-injection/case.yaml": "prompt: Find the bug.\nexpected: SQL injection\n",
      // getsentry's scenarios
      "plugins/sec/skills/audit/evals/scenarios/leak.json": JSON.stringify({ prompt: "Check it." }),
      // files a case copies in are no eval files
      "plugins/sec/skills/audit/evals/files/report.json": "{}",
      "plugins/sec/skills/audit/references/guide.md": "Read me.",
    });
    const found = discoverRepository(dir, opts);
    const unread = found.diagnostics.filter((d) => d.code === "suite/unread-file");
    expect(unread.map((d) => `${d.file}:${d.line} ${d.severity}`)).toEqual([
      "plugins/sec/evals/sql-injection/case.yaml:1 notice",
      "plugins/sec/skills/audit/evals/evals-hard.json:1 notice",
      "plugins/sec/skills/audit/evals/scenarios/leak.json:1 notice",
      "plugins/sec/skills/audit/trigger-eval.json:1 notice",
    ]);
    // It says what is read instead.
    expect(unread.find((d) => d.file.endsWith("trigger-eval.json"))!.message).toContain(
      "plugins/sec/skills/audit/evals/trigger-eval.json",
    );
    expect(unread.find((d) => d.file.endsWith("evals-hard.json"))!.message).toContain("evals.json");
    // The suite the skill has is still read, and the trigger array beside SKILL.md with it.
    expect(skill(found.skills, "sec:audit").suite?.cases.map((c) => c.id)).toEqual(["eval-1"]);
    expect(skill(found.skills, "sec:audit").suite?.sourceFiles).toContain(
      "plugins/sec/skills/audit/routing-triggers.json",
    );
    expect(skill(found.skills, "sec:audit").suite?.trigger?.shouldFire).toHaveLength(1);
  });

  it("every file a format reads is attached, with no notice", () => {
    const dir = repo({
      "skills/audit/SKILL.md": skillMd("audit"),
      "skills/audit/evals/evals.json": evalsJson,
      "skills/audit/evals/trigger-eval.json": trigger,
    });
    const found = discoverRepository(dir, opts);
    expect(found.diagnostics.filter((d) => d.code === "suite/unread-file")).toEqual([]);
    expect(skill(found.skills, "audit").suite?.sourceFiles.sort()).toEqual([
      "skills/audit/evals/evals.json",
      "skills/audit/evals/trigger-eval.json",
    ]);
  });
});

describe("a file named like a suite file that no tool reads there", () => {
  it("an evals.json outside the suite folder that does not parse (a path written as text) is a warning, and the skill's trigger battery still plans", async () => {
    const dir = repo({
      "plugins/kit/.claude-plugin/plugin.json": JSON.stringify({ name: "kit" }),
      "plugins/kit/skills/audit/SKILL.md": skillMd("audit"),
      "plugins/kit/skills/audit/evals/evals.json": JSON.stringify([
        { query: "Audit my plugin.", should_trigger: true },
        { query: "Write a poem.", should_trigger: false },
      ]),
      // what a checkout without symbolic links writes for a link: its target as text
      "plugins/kit/skills/audit/evals.json": "evals/evals.json",
      "plugins/kit/skills/audit/references/patterns/evals.json": "../../evals/evals.json",
    });
    const v = await validate(dir);
    expect(v.errors).toBe(0);
    expect(at(v.diagnostics, "warning")).toEqual(
      expect.arrayContaining([
        "plugins/kit/skills/audit/evals.json:1 file/json-syntax",
        "plugins/kit/skills/audit/references/patterns/evals.json:1 file/json-syntax",
      ]),
    );
    const lines = await plan(dir);
    expect(
      lines.filter((l) => l.skill === "kit:audit" && l.battery === "trigger" && l.trials > 0),
    ).toHaveLength(1);
  });

  it("an evals.json in the suite folder that does not parse stays an error", () => {
    const dir = repo({
      "skills/audit/SKILL.md": skillMd("audit"),
      "skills/audit/evals/evals.json": "{ not json",
    });
    const found = discoverRepository(dir, opts);
    expect(at(found.diagnostics, "error")).toEqual(["skills/audit/evals/evals.json:1 file/json-syntax"]);
  });
});

describe("discovery as Claude Code loads skills", () => {
  it("a plugin's manifest names its skills folder: previews stay outside it, fragments without frontmatter are no skills", async () => {
    const v = await validate(repo({}, "plugin-paths"));
    expect(v.errors).toBe(0);
    expect(v.skills.map((s: { name: string; path: string }) => `${s.name} ${s.path}`)).toEqual([
      "deploy preview/deploy/SKILL.md",
      "acme:deploy skills/deploy/SKILL.md",
      "acme:rollback skills/rollback/SKILL.md",
    ]);
    expect(v.diagnostics.find((d: Diagnostic) => d.code === "skill/no-frontmatter")).toMatchObject({
      file: "docs/fragments/rollback/SKILL.md",
      severity: "notice",
    });
  });

  it("duplicate names conflict only within one skills folder or plugin (where Claude Code loads the second by its folder)", async () => {
    const v = await validate(
      repo({
        ".claude/skills/twin/SKILL.md": skillMd("twin"),
        ".github/skills/twin/SKILL.md": skillMd("twin"),
        "templates/web/.agents/skills/setup/SKILL.md": skillMd("setup"),
        "templates/cli/.agents/skills/setup/SKILL.md": skillMd("setup"),
        "skills/one/SKILL.md": skillMd("same").replace("name: same", "name: same"),
        "skills/two/SKILL.md": skillMd("same"),
      }),
    );
    expect(at(v.diagnostics, "error")).toEqual([]);
    expect(at(v.diagnostics, "warning")).toContain("skills/two/SKILL.md:2 skill/duplicate-name");
    expect(at(v.diagnostics, "notice")).toEqual([
      ".github/skills/twin/SKILL.md:2 skill/duplicate-copy",
      "templates/web/.agents/skills/setup/SKILL.md:2 skill/duplicate-copy",
    ]);
    // Each copy is gated as a skill of its own, named by its folder; a name one folder holds stays plain.
    expect(v.skills.map((s: Skill) => `${s.name} ${s.path}`).sort()).toEqual([
      "same skills/one/SKILL.md",
      "setup@templates/cli/.agents/skills/setup templates/cli/.agents/skills/setup/SKILL.md",
      "setup@templates/web/.agents/skills/setup templates/web/.agents/skills/setup/SKILL.md",
      "twin@.claude/skills/twin .claude/skills/twin/SKILL.md",
      "twin@.github/skills/twin .github/skills/twin/SKILL.md",
      "two skills/two/SKILL.md",
    ]);
  });

  it("copies: a copy's trigger trials install it under the skill's name, once, and its twin's prompts are no negatives of it", () => {
    const triggers = (q: string) =>
      JSON.stringify([
        { query: q, should_trigger: true },
        { query: "Write a poem.", should_trigger: false },
      ]);
    const dir = repo({
      "templates/web/.agents/skills/setup/SKILL.md": skillMd("setup"),
      "templates/web/.agents/skills/setup/evals/trigger-eval.json": triggers("Set up the web app."),
      "templates/cli/.agents/skills/setup/SKILL.md": skillMd("setup"),
      "templates/cli/.agents/skills/setup/evals/trigger-eval.json": triggers("Set up the cli."),
      "templates/cli/.agents/skills/lint/SKILL.md": skillMd("lint"),
      "templates/cli/.agents/skills/lint/evals/trigger-eval.json": triggers("Lint it."),
    });
    const found = discoverRepository(dir, opts);
    const arm: Arm = { name: "head", repoDir: dir, skills: found.skills };
    const web = skill(found.skills, "setup@templates/web/.agents/skills/setup");
    const job = makeJob(arm, web, { discriminator: false, trigger: true }, {});
    expect([...job.queries.keys()]).toEqual([
      "trigger/fire/0",
      "trigger/nofire/0",
      "trigger/cross/lint/0", // the cli copy's own prompt is not a negative of the web copy
    ]);
    const requests = planJob(job, { trials: 1, triggerRuns: 1, seed: 1 });
    expect(requests.map((r) => r.skill)).toEqual(["setup", "setup", "setup"]);
    const installed = requests[0]!.install;
    expect(installed.map((s) => s.name).sort()).toEqual(["lint", "setup"]);
    expect(installed.find((s) => s.name === "setup")!.sourceDir).toBe(join(dir, web.dir));
    // What the agent reports activating is the copy's check passing.
    const record = {
      key: requests[0]!.key,
      skill: "setup",
      caseId: "trigger/fire/0",
      mode: "trigger" as const,
      trial: 0,
      output: "",
      toolCalls: [],
      skillsActivated: ["setup"],
      durationMs: 1,
      files: {},
      usage: { inputTokens: 0, outputTokens: 0, costUsd: 0 },
    };
    const check = gradeTriggerTrial(job.queries.get("trigger/fire/0")!, record, web.name, "setup");
    expect(check).toMatchObject({ status: "pass", skill: web.name });
  });

  it("copies: a suite file naming the skill belongs to the copy it sits with; a PR adding a copy leaves the first unchanged", () => {
    const suite = (n: number) =>
      JSON.stringify({
        skill_name: "setup",
        evals: [{ id: n, prompt: "Set it up.", assertions: ["It is set up."] }],
      });
    const files = {
      "templates/web/.agents/skills/setup/SKILL.md": skillMd("setup"),
      "templates/web/.agents/skills/setup/evals/evals.json": suite(1),
    };
    const base = repo(files);
    const head = repo({
      ...files,
      "templates/cli/.agents/skills/setup/SKILL.md": skillMd("setup"),
      "templates/cli/.agents/skills/setup/evals/evals.json": suite(2),
    });
    const found = discoverRepository(head, opts);
    expect(
      found.diagnostics.filter(
        (d) => d.code.startsWith("suite/orphan") || d.code === "suite/names-other-skill",
      ),
    ).toEqual([]);
    expect(found.skills.map((s) => `${s.name} ${s.suite?.cases.map((c) => c.id)}`)).toEqual([
      "setup@templates/cli/.agents/skills/setup eval-2",
      "setup@templates/web/.agents/skills/setup eval-1",
    ]);
    const baseFound = discoverRepository(base, opts);
    expect(baseFound.skills.map((s) => s.name)).toEqual(["setup"]);
    const changes = classifyChanges(
      { dir: head, skills: found.skills },
      { dir: base, skills: baseFound.skills },
      ["templates/cli/.agents/skills/setup/SKILL.md", "templates/cli/.agents/skills/setup/evals/evals.json"],
    );
    expect(changes.map((c) => `${c.name} ${c.change}`)).toEqual([
      "setup@templates/cli/.agents/skills/setup new",
      "setup@templates/web/.agents/skills/setup unchanged",
    ]);
    // The base record takes the head's run name, its suite too (checks and verdict keys match).
    const web = changes[1]!;
    expect(web.base?.name).toBe(web.head?.name);
    expect(web.base?.suite?.skill).toBe(web.head?.name);
  });

  it("name ≠ folder is a warning under the default profile, an error under strict", async () => {
    const dir = repo({ "skills/folder/SKILL.md": skillMd("other-name") });
    expect(at((await validate(dir)).diagnostics, "warning")).toContain(
      "skills/folder/SKILL.md:2 skill/name-folder",
    );
    expect(at((await validate(dir, "--profile", "strict")).diagnostics, "error")).toContain(
      "skills/folder/SKILL.md:2 skill/name-folder",
    );
  });

  it("a SKILL.md linked to another skill is that skill once, with a notice; a link out of the repository is an error", () => {
    const outside = repo({ "SKILL.md": skillMd("elsewhere") });
    const dir = repo({ "skills/real/SKILL.md": skillMd("real"), ".claude/skills/.keep": "" });
    mkdirSync(join(dir, ".claude/skills/real"));
    symlinkSync("../../../skills/real/SKILL.md", join(dir, ".claude/skills/real/SKILL.md"));
    mkdirSync(join(dir, "skills/leak"));
    symlinkSync(join(outside, "SKILL.md"), join(dir, "skills/leak/SKILL.md"));
    const found = discoverRepository(dir, opts);
    expect(found.skills.map((s) => s.path)).toEqual(["skills/real/SKILL.md"]);
    expect(at(found.diagnostics, "notice")).toEqual([".claude/skills/real/SKILL.md:1 skill/linked"]);
    expect(at(found.diagnostics, "error")).toEqual(["skills/leak/SKILL.md:1 skill/link-outside"]);
  });
});

describe("the day-one summary", () => {
  it("validate ends with counts per class and the files to fix first; --json has the same", async () => {
    const dir = repo({
      "skills/a/SKILL.md": skillMd("a"),
      "skills/b/SKILL.md":
        "---\nname: b\ndescription: Use when comparing both:\nmetadata:\n  author: someone\n---\nClaude Code drops this frontmatter.\n",
      "skills/c/SKILL.md": skillMd("other"),
    });
    const r = await runCli(["validate", "--repo", dir]);
    expect(r.stdout).toContain("summary: 3 skill(s), 0 suite(s)");
    expect(r.stdout).toMatch(
      / {2}errors 1: skill\/frontmatter-yaml 1\n {2}warnings 1: skill\/name-folder 1\n/,
    );
    expect(r.stdout).toContain("fix first:\n  skills/b/SKILL.md: 1 error(s) — 3:");
    const v = await validate(dir);
    expect(v.summary.byCode.error).toEqual([{ code: "skill/frontmatter-yaml", count: 1 }]);
    expect(v.summary.fixFirst.map((f: { file: string }) => f.file)).toEqual([
      "skills/b/SKILL.md",
      "skills/c/SKILL.md",
    ]);
  });
});
