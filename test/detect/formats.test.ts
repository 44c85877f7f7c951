import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { assertionLookup } from "../../src/detect/assertion-types.js";
import { discoverRepository } from "../../src/detect/discover.js";
import "../../src/grade/assertions/index.js";
import * as registry from "../../src/grade/assertions/registry.js";
import { writeRepo } from "../support/repo-files.js";

const repo = (files: Record<string, string>) => writeRepo(files, "sg-fmt-");

const SKILL = (name: string) => `---\nname: ${name}\ndescription: Does ${name} things.\n---\nBody\n`;
const discover = (dir: string) =>
  discoverRepository(dir, { profile: "claude-code", assertionTypes: assertionLookup(registry) });

describe("suite formats load into one model", () => {
  it("reads skill-creator evals.json and its trigger array, expectations as judge assertions", () => {
    const dir = repo({
      "skills/pdf/SKILL.md": SKILL("pdf"),
      "skills/pdf/evals/evals.json": JSON.stringify({
        skill_name: "pdf",
        evals: [
          {
            id: 1,
            prompt: "Fill the form",
            expected_output: "a filled PDF",
            files: ["evals/files/form.pdf"],
            expectations: ["The output names every field"],
          },
          {
            id: 2,
            prompt: "Merge two PDFs",
            assertions: [
              { text: "Pages are in order" },
              { id: "has-merge", type: "contains", value: "merged" },
            ],
          },
        ],
      }),
      "skills/pdf/evals/files/form.pdf": "%PDF-1.4",
      "skills/pdf/evals/trigger_eval.json": JSON.stringify([
        { query: "fill this pdf form", should_trigger: true },
        { query: "write a haiku", should_trigger: false },
      ]),
    });
    const d = discover(dir);
    expect(d.diagnostics.filter((x) => x.severity === "error")).toEqual([]);
    const suite = d.skills[0]!.suite!;
    expect(suite.formats).toEqual(["skill-creator"]);
    expect(suite.cases.map((c) => c.id)).toEqual(["eval-1", "eval-2"]);
    expect(suite.cases[0]!.assertions[0]).toMatchObject({
      id: "expectation-1",
      type: "judge",
      params: { value: "The output names every field" },
    });
    expect(suite.cases[0]!.files).toEqual([{ from: "skills/pdf/evals/files/form.pdf", to: "form.pdf" }]);
    expect(suite.cases[1]!.assertions.map((a) => a.type)).toEqual(["judge", "contains"]);
    expect(suite.trigger!.shouldFire.map((q) => q.prompt)).toEqual(["fill this pdf form"]);
    expect(suite.trigger!.shouldNotFire[0]!.loc).toMatchObject({
      file: "skills/pdf/evals/trigger_eval.json",
      line: 1,
    });
  });

  it("names only the format that read trigger-eval.json: seed's object form or skill-creator's array form", () => {
    const dir = repo({
      "skills/a/SKILL.md": SKILL("a"),
      ".agent/evals/a/trigger-eval.json": JSON.stringify({ shouldFire: ["do a"], shouldNotFire: ["a poem"] }),
      "skills/b/SKILL.md": SKILL("b"),
      "skills/b/evals/trigger-eval.json": JSON.stringify([{ query: "do b", should_trigger: true }]),
      "skills/c/SKILL.md": SKILL("c"),
      ".agent/evals/c/trigger-eval.json": "{ not json",
    });
    const d = discover(dir);
    const [a, b, c] = d.skills;
    expect(a!.suite!.formats).toEqual(["seed"]);
    expect(a!.suite!.trigger!.shouldFire.map((q) => q.prompt)).toEqual(["do a"]);
    expect(b!.suite!.formats).toEqual(["skill-creator"]);
    expect(b!.suite!.trigger!.shouldFire.map((q) => q.prompt)).toEqual(["do b"]);
    // A file that does not parse is reported once, located, by the seed loader's read.
    const syntax = d.diagnostics.filter((x) => x.code === "file/json-syntax");
    expect(syntax).toHaveLength(1);
    expect(syntax[0]).toMatchObject({ file: ".agent/evals/c/trigger-eval.json", line: 1 });
    expect(c!.suite?.trigger).toBeUndefined();
  });

  it("reads waza trigger_tests.yaml with medium confidence weighted 0.5", () => {
    const dir = repo({
      ".github/skills/azure-deploy/SKILL.md": SKILL("azure-deploy"),
      ".github/skills/azure-deploy/evals/trigger_tests.yaml":
        "skill: azure-deploy\nshould_trigger_prompts:\n  - prompt: deploy my app to azure\n    reason: direct\n    confidence: high\n  - prompt: ship it to the cloud\n    confidence: medium\nshould_not_trigger_prompts:\n  - write a poem\n",
    });
    const d = discover(dir);
    const t = d.skills[0]!.suite!.trigger!;
    expect(t.shouldFire.map((q) => [q.prompt, q.weight])).toEqual([
      ["deploy my app to azure", 1],
      ["ship it to the cloud", 0.5],
    ]);
    expect(t.shouldFire[1]!.loc.line).toBe(6);
    expect(t.shouldNotFire[0]).toMatchObject({ prompt: "write a poem", weight: 1 });
  });

  it("reads the seed layout with assertion files, not- prefixes and D: discriminators", () => {
    const dir = repo({
      ".claude/skills/count/SKILL.md": SKILL("count"),
      ".agent/evals/count/meta.json":
        '{"skillVersion": "1", "suiteVersion": "1", "thresholds": {"discriminatorLift": 0.2}}',
      ".agent/evals/count/prompts/D-04.json":
        '{"id": "D-04", "prompt": "How many orders match status=pending?"}',
      ".agent/evals/count/assertions/D-04.yaml":
        "- id: D:not-inflated\n  type: not-one-of\n  extract: first-number\n  values: [4, 5, 6, 7, 8]\n- id: in-range\n  type: number-range\n  extract: first-number\n  range: [1, 3]\n- id: no-apology\n  type: not-icontains\n  value: sorry\n",
    });
    const d = discover(dir);
    expect(d.diagnostics).toEqual([]);
    const c = d.skills[0]!.suite!.cases[0]!;
    expect(c.assertions.map((a) => [a.id, a.type, a.negate, a.discriminator])).toEqual([
      ["D:not-inflated", "not-one-of", false, true],
      ["in-range", "number-range", false, false],
      ["no-apology", "icontains", true, false],
    ]);
    expect(c.assertions[2]!.loc).toEqual({
      file: ".agent/evals/count/assertions/D-04.yaml",
      line: 9,
      column: 3,
    });
    expect(d.skills[0]!.suite!.meta.thresholds).toEqual({ discriminatorLift: 0.2 });
  });

  it("rejects type-specific params with a location", () => {
    const dir = repo({
      ".claude/skills/x/SKILL.md": SKILL("x"),
      ".agent/evals/x/prompts/a.yaml":
        "id: a\nprompt: p\nassertions:\n  - id: r\n    type: number-range\n    range: [1]\n",
    });
    const d = discover(dir);
    const e = d.diagnostics.find((x) => x.severity === "error");
    expect(e?.file).toBe(".agent/evals/x/prompts/a.yaml");
    expect(e?.line).toBe(6);
  });

  it("hashes what the agent sees, never evals/", () => {
    const dir = repo({
      "skills/h/SKILL.md": SKILL("h"),
      "skills/h/ref.md": "x",
      "skills/h/evals/meta.json": "{}",
    });
    const a = discover(dir).skills[0]!;
    expect(a.folder.files).toEqual(["SKILL.md", "ref.md"]);
    writeFileSync(join(dir, "skills/h/evals/meta.json"), '{"trials": 2}');
    expect(discover(dir).skills[0]!.folder.contentHash).toBe(a.folder.contentHash);
    writeFileSync(join(dir, "skills/h/ref.md"), "y");
    expect(discover(dir).skills[0]!.folder.contentHash).not.toBe(a.folder.contentHash);
  });
});
