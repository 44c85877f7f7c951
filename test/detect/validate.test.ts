import { cpSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../support/run-cli.js";

const BAD = "test/fixtures/bad-repo";
const CORPUS = "test/fixtures/corpus/anthropics-skills";

describe("skillgate validate", () => {
  it("names every broken file with its line and exits 2", async () => {
    const r = await runCli(["validate", "--repo", BAD]);
    expect(r.code).toBe(2);
    const lines = r.stdout.trim().split("\n");
    const errors = lines.filter((l) => l.includes(": error: "));
    // every error is file:line:column: error: message
    for (const l of errors) expect(l).toMatch(/^[^:]+:\d+:\d+: error: .+/);
    // Claude Code loads it (listed by its folder): a warning by default, an error under the spec (strict).
    expect(r.stdout).toContain(
      ".claude/skills/Bad_Name/SKILL.md:2:7: warning: name `Bad_Name` must be lowercase",
    );
    expect(r.stdout).toMatch(/\.claude\/skills\/broken-yaml\/SKILL\.md:\d+:\d+: error: invalid YAML/);
    expect(r.stdout).toMatch(/\.agent\/evals\/good-skill\/meta\.json:5:1: error: invalid JSON/);
    expect(r.stdout).toContain(
      ".agent/evals/good-skill/prompts/case-1.yaml:8:11: error: unknown assertion type `sounds-right`",
    );
    expect(r.stdout).toContain("case-1.yaml:10:5: error: assertion `dep` depends on `nope`");
    expect(r.stderr).toBe("");
    expect(r.stdout).not.toMatch(/\n\s+at /); // no stack traces
  });

  it("warns on Claude-Code-only keys by default and rejects them under strict", async () => {
    const def = await runCli(["validate", "--repo", BAD]);
    expect(def.stdout).toContain(
      "extra-keys/SKILL.md:4:1: warning: `when_to_use` is understood by Claude Code only",
    );
    const strict = await runCli(["validate", "--repo", BAD, "--profile", "strict"]);
    expect(strict.stdout).toContain("extra-keys/SKILL.md:4:1: error: unknown frontmatter key `when_to_use`");
    expect(strict.stdout).toContain("extra-keys/SKILL.md:5:1: error: unknown frontmatter key `colour`");
    expect(strict.stdout).toContain(
      ".claude/skills/Bad_Name/SKILL.md:2:7: error: name `Bad_Name` must be lowercase",
    );
  });

  it("reports schema errors of a meta.json that parses, at the offending value", async () => {
    const dir = mkdtempSync(join(tmpdir(), "sg-meta-"));
    cpSync(BAD, dir, { recursive: true });
    writeFileSync(
      join(dir, ".agent/evals/good-skill/meta.json"),
      '{\n  "skillVersion": "3",\n  "trials": "three",\n  "thresholds": { "triggerRecall": 1.5, "recal": 1 },\n  "oracel": "x"\n}\n',
    );
    const r = await runCli(["validate", "--repo", dir]);
    expect(r.code).toBe(2);
    expect(r.stdout).toContain("meta.json:3:13: error: `trials` must be integer");
    expect(r.stdout).toContain("meta.json:4:36: error: `thresholds.triggerRecall` must be <= 1");
    expect(r.stdout).toContain("meta.json:4:41: error: unknown key `recal` in `thresholds`");
    expect(r.stdout).toContain("meta.json:5:3: error: unknown key `oracel`; did you mean `oracle`?");
    expect(r.stdout).toContain(
      "meta.json:4:41: error: unknown key `recal` in `thresholds`; known keys: `discriminatorPassRate`",
    );
  });

  it("loads every real-world skill of the corpus under claude-code, and grades claude-api's length by profile", async () => {
    const cc = await runCli(["validate", "--repo", CORPUS, "--glob", "*/SKILL.md", "--json"]);
    const report = JSON.parse(cc.stdout);
    expect(report.skills).toHaveLength(12);
    expect(report.errors).toBe(0);
    expect(cc.code).toBe(0);
    const longDesc = report.diagnostics.find((d: { code: string }) => d.code === "skill/description-length");
    expect(longDesc).toMatchObject({ file: "claude-api/SKILL.md", severity: "warning" });
    expect(longDesc.message).toContain("1068 characters");
    const strict = await runCli([
      "validate",
      "--repo",
      CORPUS,
      "--glob",
      "*/SKILL.md",
      "--profile",
      "strict",
    ]);
    expect(strict.code).toBe(2);
    expect(strict.stdout).toContain("claude-api/SKILL.md:3:14: error: description is 1068 characters");
    expect(strict.stdout.match(/: error: /g)).toHaveLength(1);
  });

  it("accepts the bundled demo repositories", async () => {
    for (const repo of ["examples/demo-repo", "examples/demo-repo-base"]) {
      const r = await runCli(["validate", "--repo", repo]);
      expect(r.stdout).toContain("3 skill(s), 3 suite(s)");
      expect(r.code).toBe(0);
    }
  });

  it("reports a bad .skillgate.yml with its line", async () => {
    const dir = mkdtempSync(join(tmpdir(), "sg-cfg-"));
    writeFileSync(join(dir, ".skillgate.yml"), "agent:\n  adapter: replay\ntrials: 0\nconcurency: 4\n");
    const r = await runCli(["validate", "--repo", dir]);
    expect(r.code).toBe(2);
    expect(r.stdout).toContain(".skillgate.yml:3:9: error: `trials` must be >= 1");
    expect(r.stdout).toContain(
      ".skillgate.yml:4:1: error: unknown key `concurency`; did you mean `concurrency`?",
    );
  });
});
