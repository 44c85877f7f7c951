/**
 * Issue #28, the last `validate` errors measured on public repositories (scripts/measure-real-repos.mjs), each
 * one a file its own tool accepts. The repositories here are written for these tests in the shape of the real
 * files: dotnet/skills' scenarios with a literal `$type` in a pattern and a rubric, richfrem's evals.json trigger
 * lists (`input`, `should_trigger`, read so by its own eval_runner.py), a generated wiki page saved as `skill.md`,
 * a skill template whose name is a placeholder, waza's test-data skills (one without a description, two of one
 * name in a folder no agent loads).
 */
import { rmSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { assertionLookup } from "../../src/detect/assertion-types.js";
import { discoverRepository } from "../../src/detect/discover.js";
import { resolvePlaceholders } from "../../src/grade/vars.js";
import "../../src/grade/assertions/index.js";
import * as registry from "../../src/grade/assertions/registry.js";
import type { Diagnostic } from "../../src/model/index.js";
import { writeRepo } from "../support/repo-files.js";
import { runCli } from "../support/run-cli.js";

const opts = { profile: "claude-code" as const, assertionTypes: assertionLookup(registry), env: {} };
const scratch: string[] = [];
afterAll(() => {
  for (const d of scratch) rmSync(d, { recursive: true, force: true });
});
function repo(files: Record<string, string>): string {
  const dir = writeRepo(files, "sg-rr-errors-");
  scratch.push(dir);
  return dir;
}
const skillMd = (name: string) =>
  `---\nname: ${name}\ndescription: Does ${name} work. Use for ${name} tasks.\n---\nSteps.\n`;
const errors = (ds: readonly Diagnostic[]) =>
  ds.filter((d) => d.severity === "error").map((d) => `${d.file}:${d.line} ${d.code}`);
const codes = (ds: readonly Diagnostic[], severity: string) =>
  ds.filter((d) => d.severity === severity).map((d) => `${d.file}:${d.line} ${d.code}`);

describe("foreign formats take `$` literally, as their owners do", () => {
  const scenario = [
    "scenarios:",
    "  - name: Cosmos discriminator",
    "    prompt: |",
    "      The documents keep a $type property and the app reads $HOME/config.json. What breaks on EF Core 9?",
    "    assertions:",
    '      - type: "output_matches"',
    '        pattern: "(\\\\$type|Discriminator)"',
    '      - type: "output_contains"',
    '        value: "$type"',
    "    rubric:",
    "      - \"Says the discriminator property was renamed from 'Discriminator' to '$type'\"",
    "",
  ].join("\n");

  it("dotnet/skills scenarios: `$type` in a pattern, a value, a rubric and the prompt is no placeholder", () => {
    const dir = repo({
      "plugins/dotnet-upgrade/skills/migrate-ef/SKILL.md": skillMd("migrate-ef"),
      "tests/dotnet-upgrade/migrate-ef/eval.yaml": scenario,
    });
    const d = discoverRepository(dir, opts);
    expect(errors(d.diagnostics)).toEqual([]);
    const c = d.skills[0]!.suite!.cases[0]!;
    // What the grader compares once placeholders resolve (none are defined): the text as written.
    const params = c.assertions.map((a) => resolvePlaceholders(a.params, {}));
    expect(params).toEqual([
      { value: "(\\$type|Discriminator)" },
      { value: "$type" },
      { value: "Says the discriminator property was renamed from 'Discriminator' to '$type'" },
    ]);
    expect(c.literal).toBe(true);
    expect(c.prompt).toContain("$type property and the app reads $HOME/config.json");
  });

  it("skill-creator: an expectation with `$NAME` is a judge check of that text, not an unknown placeholder", () => {
    const dir = repo({
      "skills/env/SKILL.md": skillMd("env"),
      "skills/env/evals/evals.json": JSON.stringify({
        skill_name: "env",
        evals: [
          { id: 1, prompt: "Print $PATH entries one per line.", expectations: ["Splits $PATH on colons"] },
        ],
      }),
    });
    const d = discoverRepository(dir, opts);
    expect(errors(d.diagnostics)).toEqual([]);
    const c = d.skills[0]!.suite!.cases[0]!;
    expect(resolvePlaceholders(c.assertions[0]!.params, {})).toEqual({ value: "Splits $PATH on colons" });
  });

  it("skillgate's own format keeps its placeholders: an unknown one is still an error", () => {
    const dir = repo({
      ".agent/evals/own/prompts/a.yaml":
        "id: a\nprompt: Say $who.\nassertions:\n  - id: x\n    type: contains\n    value: hi\n",
      ".agent/evals/own/meta.json": JSON.stringify({ skillVersion: "1", suiteVersion: "1", trials: 1 }),
      "skills/own/SKILL.md": skillMd("own"),
    });
    expect(errors(discoverRepository(dir, opts).diagnostics)).toEqual([
      ".agent/evals/own/prompts/a.yaml:2 suite/unknown-placeholder",
    ]);
  });
});

describe("an evals.json whose entries are trigger queries (input, should_trigger)", () => {
  it("is a trigger set, as the repository's own eval runner reads it; `input` read as the query with a warning", () => {
    const evals = {
      evals: [
        {
          id: "eval-1",
          input: "my symlinks show up as text files after git pull on Windows",
          should_trigger: true,
        },
        { id: "eval-2", input: "create a symlink that works on Mac and Windows", should_trigger: true },
        { id: "eval-3", input: "what is a hard link in ext4", should_trigger: false },
      ],
    };
    const dir = repo({
      "plugins/links/skills/symlinks/SKILL.md": skillMd("symlinks"),
      "plugins/links/skills/symlinks/evals/evals.json": JSON.stringify(evals, null, 2),
    });
    const d = discoverRepository(dir, opts);
    expect(errors(d.diagnostics)).toEqual([]);
    const t = d.skills[0]!.suite!.trigger!;
    expect(t.shouldFire.map((q) => q.prompt)).toEqual([evals.evals[0]!.input, evals.evals[1]!.input]);
    expect(t.shouldNotFire.map((q) => q.prompt)).toEqual([evals.evals[2]!.input]);
    expect(codes(d.diagnostics, "warning")).toContain(
      "plugins/links/skills/symlinks/evals/evals.json:5 suite/trigger-prompt-key",
    );
  });
});

describe("SKILL.md files no agent loads as written", () => {
  it("a generated page saved as skill.md, with neither name nor description, outside any skills folder, is no skill", () => {
    const dir = repo({
      ".wiki/wiki/skill.md":
        "---\nconcept: skill\nsource: plugin-code\n---\n# Skill\n\nA page about skills.\n",
      "skills/real/SKILL.md": skillMd("real"),
    });
    const d = discoverRepository(dir, opts);
    expect(d.skills.map((s) => s.name)).toEqual(["real"]);
    expect(errors(d.diagnostics)).toEqual([]);
    expect(codes(d.diagnostics, "notice")).toContain(".wiki/wiki/skill.md:1 skill/not-a-skill");
  });

  it("a template whose name is a placeholder is no skill", () => {
    const dir = repo({
      ".squad-templates/skill.md":
        '---\nname: "{skill-name}"\ndescription: "{what this skill teaches agents}"\n---\nBody.\n',
    });
    const d = discoverRepository(dir, opts);
    expect(d.skills).toEqual([]);
    expect(errors(d.diagnostics)).toEqual([]);
    expect(codes(d.diagnostics, "notice")).toEqual([".squad-templates/skill.md:2 skill/template"]);
  });

  it("no description: a warning under the default profile, the first paragraph read as Claude Code does; strict an error", () => {
    const dir = repo({
      "testdata/minimal/SKILL.md":
        "---\nname: minimal\n---\n\n# Minimal\n\nFormats tables in Markdown files.\nKeeps column widths.\n\nMore.\n",
    });
    const d = discoverRepository(dir, opts);
    expect(errors(d.diagnostics)).toEqual([]);
    expect(codes(d.diagnostics, "warning")).toContain("testdata/minimal/SKILL.md:2 skill/frontmatter");
    expect(d.skills[0]!.description).toBe("Formats tables in Markdown files.\nKeeps column widths.");
    const strict = discoverRepository(dir, { ...opts, profile: "strict" });
    expect(errors(strict.diagnostics)).toEqual(["testdata/minimal/SKILL.md:2 skill/frontmatter"]);
  });

  it("two skills of one name in a folder that is no skills folder (test data) are copies, not a conflict", async () => {
    const dir = repo({
      "cmd/dev/testdata/high/SKILL.md": skillMd("pdf-processor").replace(
        "name: pdf-processor",
        "name: pdf-processor",
      ),
      "cmd/dev/testdata/valid/SKILL.md": skillMd("pdf-processor"),
      ".claude/skills/a/SKILL.md": skillMd("same"),
      ".claude/skills/b/SKILL.md": skillMd("same"),
    });
    const d = discoverRepository(dir, opts);
    // In a skills folder Claude Code loads both, the second by its folder's name: a warning (strict: an error).
    expect(errors(d.diagnostics)).toEqual([]);
    expect(codes(d.diagnostics, "warning")).toContain(".claude/skills/b/SKILL.md:2 skill/duplicate-name");
    expect(d.skills.map((s) => s.name)).toEqual(expect.arrayContaining(["same", "b"]));
    const strict = discoverRepository(dir, { ...opts, profile: "strict" });
    expect(errors(strict.diagnostics)).toContain(".claude/skills/b/SKILL.md:2 skill/duplicate-name");
    expect(codes(d.diagnostics, "notice")).toContain(
      "cmd/dev/testdata/valid/SKILL.md:2 skill/duplicate-copy",
    );
    const r = await runCli(["validate", "--repo", dir, "--json"]);
    expect(JSON.parse(r.stdout).errors).toBe(0);
  });

  it("a duplicate named by its folder joins that name's copies elsewhere: every run name stays unique", () => {
    const dir = repo({
      // A copy named `b` in another agent's folder, read first; then the clash whose second skill becomes `b`.
      ".agents/skills/b/SKILL.md": skillMd("b"),
      ".claude/skills/a/SKILL.md": skillMd("same"),
      ".claude/skills/b/SKILL.md": skillMd("same"),
    });
    const d = discoverRepository(dir, opts);
    expect(d.skills.map((s) => `${s.name} ${s.path}`).sort()).toEqual([
      "b@.agents/skills/b .agents/skills/b/SKILL.md",
      "b@.claude/skills/b .claude/skills/b/SKILL.md",
      "same .claude/skills/a/SKILL.md",
    ]);
    expect(codes(d.diagnostics, "notice")).toContain(".claude/skills/b/SKILL.md:2 skill/duplicate-copy");
  });
});
