/**
 * Issue #43, item 2: every eval set a repository has is read or named. Other tools' files under names skillgate
 * reads (another tool's `trigger-eval.json`, skillgrade's `eval.yaml`, a Vally `eval.yaml` with `stimuli:`) are
 * recognised by their shape and never an error; skill-creator trigger arrays under other names and places are
 * attached when it is clear whose they are, else named in one located notice; a JSON-string `metadata`
 * (OpenClaw's style) is no error. All through the bundled CLI, on one repository written here in the real shapes
 * (own text).
 */
import { execa } from "execa";
import { beforeAll, describe, expect, it } from "vitest";
import type { Diagnostic } from "../../src/model/index.js";
import { e2eFile } from "../support/dist.js";
import { writeRepo } from "../support/repo-files.js";

const { cliJs, scratch } = e2eFile();

const skillMd = (name: string, extra = "") =>
  `---\nname: ${name}\ndescription: Handles ${name} requests. Use for ${name} work.\n${extra}---\nSteps for ${name}.\n`;
const triggers = (name: string) =>
  JSON.stringify(
    [
      { query: `please do the ${name} thing for my project`, should_trigger: true },
      { query: `help me with ${name} in this repo`, should_trigger: true },
      { query: "what is the weather in Lisbon", should_trigger: false },
    ],
    null,
    2,
  );

const SKILLGRADE = `# skillgrade's own shape: defaults, tasks with name/instruction/workspace/graders
version: "1"

defaults:
  agent: claude
  provider: local
  trials: 3
  timeout: 300
  threshold: 0.8

tasks:
  - name: tidy-config
    instruction: |
      The settings file in this folder has duplicated keys.
      Remove the duplicates and keep the last value of each.
    workspace:
      - src: fixtures/settings.ini
        dest: settings.ini
    graders:
      - type: deterministic
        run: bash checks/dedupe.sh
        weight: 0.6
      - type: llm_rubric
        rubric: |
          Did the agent keep the last value of every duplicated key?
        weight: 0.4
  - name: explain-only
    instruction: prompts/explain.md
    graders:
      - type: llm_rubric
        rubric: Explains which keys were duplicated without editing files.
`;

const VALLY = `name: zeta
description: Evaluates the zeta skill
type: capability
stimuli:
  - name: Count the widgets
    prompt: "Count the widgets listed in inventory.txt and report the total."
    environment:
      files:
        - src: ./fixtures/inventory.txt
          dest: inventory.txt
    graders:
      - type: output-contains
        config:
          substring: total
      - type: output-not-contains
        config:
          substring: "I cannot"
      - type: exit-success
      - type: prompt
    rubric:
      - Reports the number of widgets as a single total
  - name: Refuse unrelated work
    prompt: Write a limerick about boats.
    graders:
      - type: output-not-contains
        config:
          substring: widget
`;

function evalRepo(): string {
  const dir = writeRepo(
    {
      // A judge, so that cases whose checks are all rubrics count (without one they are left out, with a warning).
      ".skillgate.yml":
        "agent:\n  adapter: command\n  command: cat\njudge:\n  adapter: command\n  command: cat\n",
      // OpenClaw writes metadata as a JSON string.
      "skills/alpha/SKILL.md": skillMd(
        "alpha",
        `metadata: '{"openclaw": {"emoji": "🧪", "requires": {"bins": ["jq"]}}}'\n`,
      ),
      "skills/alpha/evals/trigger_eval_set.json": triggers("alpha"),
      "skills/beta/SKILL.md": skillMd("beta"),
      "skills/beta/eval.yaml": SKILLGRADE,
      "skills/beta/fixtures/settings.ini": "a=1\na=2\n",
      "skills/beta/checks/dedupe.sh": "grep -c '^a=' settings.ini\n",
      "skills/beta/prompts/explain.md":
        "Explain which keys in settings.ini are duplicated. Do not edit it.\n",
      "skills/gamma/SKILL.md": skillMd("gamma"),
      // Another tool's trigger set under the seed layout's name: its queries under a key of its own.
      "skills/gamma/evals/trigger-eval.json": JSON.stringify(
        {
          skill_name: "gamma",
          queries: [
            { query: "run gamma on these files", should_trigger: true },
            { query: "book a table for two", should_trigger: false },
          ],
        },
        null,
        2,
      ),
      "skills/delta/SKILL.md": skillMd("delta"),
      // A shape no format reads: one notice, never an error.
      "skills/delta/evals/trigger-eval.json": JSON.stringify(
        { version: 2, routes: [{ input: "do delta", expected_skill: "delta" }] },
        null,
        2,
      ),
      "skills/delta/tests/trigger-evals/delta-routing.json": triggers("delta"),
      "skills/epsilon/SKILL.md": skillMd("epsilon"),
      // A suite file by skill-creator's name in the skill's own tests/ folder (dotnet/skills keeps eval.yaml there).
      "skills/theta/SKILL.md": skillMd("theta"),
      "skills/theta/tests/evals.json": triggers("theta"),
      "tests/trigger-evals/epsilon.json": triggers("epsilon"),
      // At the root of a repository of several skills: whose it is, is not clear.
      "trigger-evals.json": triggers("anything"),
      "plugins/kit/skills/zeta/SKILL.md": skillMd("zeta"),
      "tests/kit/zeta/eval.yaml": VALLY,
      "tests/kit/zeta/fixtures/inventory.txt": "bolts 3\nnuts 4\n",
      // dotnet/skills keeps Vally's file as eval.vally.yaml, for a while beside the older eval.yaml.
      "tests/kit/zeta/eval.vally.yaml": VALLY,
      "plugins/kit/skills/eta/SKILL.md": skillMd("eta"),
      "tests/kit/eta/eval.vally.yaml": VALLY.replace(/zeta/g, "eta").replace(
        /\n {4}environment:[\s\S]*?dest: inventory.txt\n/,
        "\n",
      ),
    },
    "sg-eval-sets-",
  );
  scratch.push(dir);
  return dir;
}

interface SkillRow {
  name: string;
  cases: number;
  triggerQueries: number;
  suiteFiles: string[];
}
async function validate(dir: string): Promise<{
  code: number;
  skills: SkillRow[];
  diagnostics: Diagnostic[];
}> {
  const r = await execa(process.execPath, [cliJs(), "validate", "--repo", dir, "--json"], {
    reject: false,
  });
  return { ...JSON.parse(r.stdout), code: r.exitCode };
}
const row = (skills: SkillRow[], name: string) => skills.find((s) => s.name === name)!;
const about = (ds: Diagnostic[], file: string) => ds.filter((d) => d.file === file);

describe("every eval set a repository has is read or named", () => {
  let v: Awaited<ReturnType<typeof validate>>;
  beforeAll(async () => {
    v = await validate(evalRepo());
  }, 120_000);

  it("no file of another tool is an error", () => {
    expect(v.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    expect(v.code).toBe(0);
  });

  it("a JSON-string metadata (OpenClaw) is accepted", () => {
    const fm = about(v.diagnostics, "skills/alpha/SKILL.md");
    expect(fm.filter((d) => d.severity !== "notice")).toEqual([]);
  });

  it("a skill-creator trigger array under another name in the suite folder is attached", () => {
    const alpha = row(v.skills, "alpha");
    expect(alpha.suiteFiles).toContain("skills/alpha/evals/trigger_eval_set.json");
    expect(alpha.triggerQueries).toBe(3);
  });

  it("skillgrade's eval.yaml is read as skillgrade's: instruction (inline or a file) and llm_rubric", () => {
    const beta = row(v.skills, "beta");
    expect(beta.cases).toBe(2);
    const ds = about(v.diagnostics, "skills/beta/eval.yaml");
    // `deterministic` runs a script in skillgrade's container: not graded, said at its line.
    expect(ds.filter((d) => d.code === "suite/not-graded").map((d) => d.line)).toEqual([20]);
    expect(ds.filter((d) => d.code === "suite/unknown-key")).toEqual([]);
    expect(beta.suiteFiles).toContain("skills/beta/prompts/explain.md");
  });

  it("another tool's trigger-eval.json is read by its shape, or named once", () => {
    const gamma = row(v.skills, "gamma");
    expect(gamma.triggerQueries).toBe(2);
    const delta = about(v.diagnostics, "skills/delta/evals/trigger-eval.json");
    expect(delta.map((d) => [d.severity, d.code])).toEqual([["notice", "suite/not-read"]]);
  });

  it("trigger arrays elsewhere are attached when it is clear whose they are, else named", () => {
    const delta = row(v.skills, "delta");
    expect(delta.suiteFiles).toContain("skills/delta/tests/trigger-evals/delta-routing.json");
    expect(delta.triggerQueries).toBe(3);
    const epsilon = row(v.skills, "epsilon");
    expect(epsilon.suiteFiles).toContain("tests/trigger-evals/epsilon.json");
    expect(epsilon.triggerQueries).toBe(3);
    const theta = row(v.skills, "theta");
    expect(theta.suiteFiles).toContain("skills/theta/tests/evals.json");
    expect(theta.triggerQueries).toBe(3);
    expect(about(v.diagnostics, "skills/theta/tests/evals.json")).toEqual([]);
    const root = about(v.diagnostics, "trigger-evals.json");
    expect(root.map((d) => [d.severity, d.code])).toEqual([["notice", "suite/unread-file"]]);
    expect(root[0]!.message).toMatch(/trigger set/);
  });

  it("a Vally eval.yaml (stimuli) is read as Vally's, not as an empty waza file", () => {
    const zeta = row(v.skills, "kit:zeta");
    expect(zeta.cases).toBe(2);
    const ds = about(v.diagnostics, "tests/kit/zeta/eval.yaml");
    expect(ds.filter((d) => d.severity === "warning")).toEqual([]);
    // exit-success: not graded, at its line.
    expect(ds.filter((d) => d.code === "suite/not-graded").map((d) => d.line)).toEqual([18]);
  });

  it("Vally's eval.vally.yaml is read where it is the only eval file, and named beside an eval.yaml", () => {
    expect(row(v.skills, "kit:eta").cases).toBe(2);
    expect(row(v.skills, "kit:eta").suiteFiles).toContain("tests/kit/eta/eval.vally.yaml");
    const copy = about(v.diagnostics, "tests/kit/zeta/eval.vally.yaml");
    expect(copy.map((d) => [d.severity, d.code])).toEqual([["notice", "suite/not-read"]]);
    expect(row(v.skills, "kit:zeta").cases).toBe(2);
  });
});

describe("a suite attached with nothing in it that runs", () => {
  it("is a notice, never silence", async () => {
    const dir = writeRepo(
      {
        "skills/kappa/SKILL.md": skillMd("kappa"),
        "skills/kappa/evals/evals.json": JSON.stringify({ skill_name: "kappa", evals: [] }),
      },
      "sg-eval-empty-",
    );
    scratch.push(dir);
    const r = await validate(dir);
    expect(r.code).toBe(0);
    expect(about(r.diagnostics, "skills/kappa/evals/evals.json").map((d) => [d.severity, d.code])).toEqual([
      ["notice", "suite/no-cases"],
    ]);
  }, 60_000);
});

describe("skillgate's own trigger-eval.json stays strict", () => {
  it("in a seed suite folder, a misspelt key is an error, not another tool's file", async () => {
    const dir = writeRepo(
      {
        ".claude/skills/iota/SKILL.md": skillMd("iota"),
        ".agent/evals/iota/meta.json": '{"trials": 1}\n',
        ".agent/evals/iota/trigger-eval.json": JSON.stringify({
          should_fire: ["do iota"],
          shouldNotFire: [],
        }),
      },
      "sg-eval-seed-",
    );
    scratch.push(dir);
    const r = await validate(dir);
    expect(r.code).toBe(2);
    const ds = about(r.diagnostics, ".agent/evals/iota/trigger-eval.json");
    expect(ds.filter((d) => d.severity === "error").map((d) => d.code)).toContain("suite/trigger-eval");
  }, 60_000);
});

describe("discovery does not depend on folder order", () => {
  it("a skill named like its neighbour's folder: both load, the one in its own folder keeps the name", async () => {
    for (const other of ["deploy-multi", "zdeploy"]) {
      const dir = writeRepo(
        {
          ".claude/skills/deploy/SKILL.md": skillMd("deploy"),
          [`.claude/skills/${other}/SKILL.md`]: skillMd("deploy"),
        },
        "sg-eval-order-",
      );
      scratch.push(dir);
      const r = await validate(dir);
      expect(r.code).toBe(0);
      expect(r.skills.map((s) => s.name).sort()).toEqual(["deploy", other].sort());
      const warned = r.diagnostics.filter((d) => d.code === "skill/duplicate-name");
      expect(warned.map((d) => d.file)).toEqual([`.claude/skills/${other}/SKILL.md`]);
    }
  }, 60_000);
});
