/**
 * Issue #43, item 2, measured on public skill repositories (scripts/measure-real-repos.mjs): the shapes and places
 * of eval files that were still errors or silent, each in test/fixtures/eval-sets-corpus (own text, real
 * structure). Through the bundled CLI: every eval-like file is attached to its skill or named in a located notice,
 * and none of another tool's files is an error.
 */
import { execa } from "execa";
import { beforeAll, describe, expect, it } from "vitest";
import type { Diagnostic } from "../../src/model/index.js";
import { e2eFile } from "../support/dist.js";
import { writeRepo } from "../support/repo-files.js";

const { cliJs, scratch } = e2eFile();
const FIXTURE = new URL("../fixtures/eval-sets-corpus", import.meta.url).pathname;

interface SkillRow {
  name: string;
  cases: number;
  triggerQueries: number;
  suiteFiles?: string[];
}
interface Validation {
  code: number;
  skills: SkillRow[];
  diagnostics: Diagnostic[];
}

async function validate(): Promise<Validation> {
  const dir = writeRepo({}, "sg-eval-corpus-", FIXTURE);
  scratch.push(dir);
  const r = await execa(process.execPath, [cliJs(), "validate", "--repo", dir, "--json"], { reject: false });
  return { ...JSON.parse(r.stdout), code: r.exitCode };
}
const row = (v: Validation, name: string) => v.skills.find((s) => s.name === name)!;
const about = (v: Validation, file: string) => v.diagnostics.filter((d) => d.file === file);

describe("eval files found on public repositories: attached or named, never an error", () => {
  let v: Validation;
  beforeAll(async () => {
    v = await validate();
  }, 120_000);

  it("no error and exit 0", () => {
    expect(v.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    expect(v.code).toBe(0);
  });

  it("a Vally stimulus of several turns is named at its line, not an error; the others run", () => {
    const ds = about(v, "tests/kit/mu/eval.yaml");
    expect(ds.some((d) => d.severity === "notice" && d.line === 5 && /turns/.test(d.message))).toBe(true);
    expect(row(v, "kit:mu").cases).toBe(1);
  });

  it("a typed check without an id in skill-creator's evals.json is read as that file's, not an error", () => {
    expect(row(v, "nu").cases).toBe(1);
    const ds = about(v, "skills/nu/evals/evals.json");
    expect(ds.some((d) => d.severity === "notice" && /regex_match/.test(d.message))).toBe(true);
  });

  it("a trigger array in a folder of per-skill trigger sets away from the top is attached to the skill it names", () => {
    const kappa = row(v, "kappa");
    expect(kappa.suiteFiles).toContain("quality/trigger-evals/kappa.json");
    expect(kappa.triggerQueries).toBe(3);
  });

  it("trigger queries under a key of their own ({skill_name, cases}) are attached", () => {
    const lambda = row(v, "lambda");
    expect(lambda.suiteFiles).toContain("tests/lambda/evals/trigger-cases.json");
    expect(lambda.triggerQueries).toBe(2);
  });

  it("eval files of shapes no format reads, in the repository's eval folders, each get one located notice", () => {
    for (const f of [
      "evals/trigger_eval_set.json",
      "evals/eval_routing.json",
      "tests/lambda/evals/functional-cases.json",
      // Any data file of an evals/ folder, whatever its name (`[{query, expected_behavior}]`, a scenario's set-up).
      "skills/kappa/evals/topics.json",
      "tests/lambda/evals/baseline.json",
      "evals/scenarios/broken-config/skill-sets.yaml",
    ]) {
      const ds = about(v, f);
      expect(ds, f).toHaveLength(1);
      expect(ds[0]!.severity, f).toBe("notice");
    }
  });

  it("a README, a run's records and a scenario's input files are no eval files", () => {
    expect(about(v, "quality/README.md")).toEqual([]);
    expect(about(v, "skills/kappa/evals/experiments/2026-01-01/results.json")).toEqual([]);
    expect(about(v, "evals/scenarios/broken-config/context/app.yml")).toEqual([]);
  });
});
