/**
 * Issue #43, "Targets", through the bundled CLI: `targets:` in the base's .skillgate.yml decides which clients'
 * rules a PR's skills are held to. `validate` names each finding at file:line; in a run, frontmatter a named target
 * refuses is an error of that skill before any trial, read from the base's policy (the PR's own config cannot drop
 * a target); a rule of a client that is not a target is no error.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { execa } from "execa";
import { describe, expect, it } from "vitest";
import type { Report } from "../../src/model/index.js";
import { e2eFile } from "../support/dist.js";
import { writeRepo } from "../support/repo-files.js";

const FIXTURES = join(import.meta.dirname, "../fixtures/targets");
const { cliJs, scratch } = e2eFile();

const cli = (args: string[]) =>
  execa(process.execPath, [cliJs(), ...args, ...(args[0] === "run" ? ["--no-color"] : [])], {
    reject: false,
    env: { ...process.env, SKILLGATE_ISOLATION: "none" },
  });

function repo(files: Record<string, string>, from?: string): string {
  const dir = writeRepo(files, "sg-targets-e2e-", from && join(FIXTURES, from));
  scratch.push(dir);
  return dir;
}

const AGENT = 'require("node:fs").readFileSync(0, "utf8");\nprocess.stdout.write("done");\n';
const config = (targets: string) =>
  `agent:\n  adapter: command\n  command: node agent.js\ntrials: 1\ncache: {enabled: false}\ntargets: [${targets}]\n`;
const BRAND =
  "---\nname: brand-voice\ndescription: Rewrites copy in the company's voice. Use for marketing text.\n";

describe("validate through dist/", () => {
  it("gh-skill: a list-valued allowed-tools is an error at its line; Claude Code accepts it", async () => {
    const published = await cli([
      "validate",
      "--repo",
      repo({ ".skillgate.yml": "targets: [gh-skill]\n" }, "gh-skill"),
    ]);
    expect(published.exitCode).toBe(2);
    expect(published.stdout).toMatch(
      /skills\/changelog\/SKILL\.md:5:3: error: `allowed-tools` is a list, which Claude Code reads but gh skill publish refuses it/,
    );
    expect(published.stdout).toMatch(/checked under the claude-code profile for gh-skill: 2 error\(s\)/);
    const claude = await cli([
      "validate",
      "--repo",
      repo({ ".skillgate.yml": "targets: [claude-code]\n" }, "gh-skill"),
    ]);
    expect(claude.exitCode).toBe(0);
    expect(claude.stdout).toMatch(/skills\/changelog\/SKILL\.md:5:3: warning: `allowed-tools` as a list/);
  }, 120_000);

  it("claude-code: the line where the 1,536-character listing cuts a description is a warning", async () => {
    const v = await cli([
      "validate",
      "--repo",
      repo({ ".skillgate.yml": "targets: [claude-code]\n" }, "claude-code"),
    ]);
    expect(v.exitCode).toBe(0);
    expect(v.stdout).toMatch(
      /\.claude\/skills\/release-notes\/SKILL\.md:20:3: warning: Claude Code lists description \+ when_to_use up to 1,536 characters/,
    );
  }, 120_000);

  it("codex: folders it does not read and skills past its list are warnings, a skill it does not load an error", async () => {
    const v = await cli([
      "validate",
      "--repo",
      repo({ ".skillgate.yml": "agent: {adapter: codex}\n" }, "codex"),
    ]);
    expect(v.exitCode).toBe(2);
    expect(v.stdout).toMatch(
      /\.agents\/skills\/slo-advisor\/SKILL\.md:3:14: error: description is 1091 characters/,
    );
    expect(v.stdout).toMatch(
      /\.claude\/skills\/legacy-deploy\/SKILL\.md:1:1: warning: none of the targets loads skills from \.claude\/skills\//,
    );
    expect(v.stdout).toMatch(
      /\.agents\/skills\/zones-helper\/SKILL\.md:3:14: warning: Codex's skill list is 8,742 characters/,
    );
  }, 120_000);
});

describe("a run holds a PR to the base's targets", () => {
  const base = () =>
    repo({
      ".skillgate.yml": config("claude-api"),
      "agent.js": AGENT,
      "skills/brand-voice/SKILL.md": `${BRAND}---\nShort sentences.\n`,
    });

  it("a key the upload refuses, added by the PR, is an error at its line before any trial", async () => {
    const head = repo({
      ".skillgate.yml": config("claude-code"), // the PR's own config cannot drop the target
      "agent.js": AGENT,
      "skills/brand-voice/SKILL.md": `${BRAND}version: 2.0.0\n---\nShort sentences.\n`,
    });
    const r = await cli(["run", "--repo", head, "--base-dir", base()]);
    expect(r.exitCode).not.toBe(0);
    expect(r.stdout).toMatch(/skills\/brand-voice\/SKILL\.md:4/);
    expect(r.stdout).toMatch(/refuses the skill/);
    expect(r.stdout).not.toMatch(/agent calls [1-9]/);
  }, 120_000);

  it("the same key is no error when the base writes for Claude Code only", async () => {
    const claudeBase = repo({
      ".skillgate.yml": config("claude-code"),
      "agent.js": AGENT,
      "skills/brand-voice/SKILL.md": `${BRAND}---\nShort sentences.\n`,
    });
    const head = repo({
      ".skillgate.yml": config("claude-code"),
      "agent.js": AGENT,
      "skills/brand-voice/SKILL.md": `${BRAND}version: 2.0.0\n---\nShort sentences.\n`,
    });
    const r = await cli(["run", "--repo", head, "--base-dir", claudeBase]);
    expect(r.stdout).not.toMatch(/refuses the skill/);
    expect(r.stdout).not.toMatch(/SKILL\.md:4:1: error/);
  }, 120_000);
});

describe("a description edit that pushes a sibling out of Codex's capped list", () => {
  /** Seven skills whose lines fill most of Codex's 8,000-character list, and `alpha` first in name order. */
  const skills = (alpha: string): Record<string, string> => {
    const files: Record<string, string> = {
      ".agents/skills/alpha/SKILL.md": `---\nname: alpha\ndescription: ${alpha}\n---\nDo alpha.\n`,
    };
    for (const n of ["bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel"]) {
      const text = `Handles ${n} requests of the warehouse service. `.repeat(20).trim();
      files[`.agents/skills/${n}/SKILL.md`] = `---\nname: ${n}\ndescription: ${text}\n---\nDo ${n}.\n`;
    }
    return files;
  };
  const short = "Answers alpha questions. Use for alpha.";
  const long = `${short} ${"It also covers the alpha settings, the alpha reports and the alpha exports. ".repeat(10).trim()}`;

  it("is a routing root at the edited description's line when codex is a target", async () => {
    const base = repo({ ".skillgate.yml": config("codex"), "agent.js": AGENT, ...skills(short) });
    const head = repo({ ".skillgate.yml": config("codex"), "agent.js": AGENT, ...skills(long) });
    const json = join(head, "report.json");
    const r = await cli(["run", "--repo", head, "--base-dir", base, "--json", json]);
    expect(r.exitCode).not.toBe(0);
    const report = JSON.parse(readFileSync(json, "utf8")) as Report;
    const root = report.blockingRoots.find((x) => x.id.startsWith("trigger/codex-catalogue/"));
    expect(root).toMatchObject({ file: ".agents/skills/alpha/SKILL.md", line: 3, kind: "trigger" });
    expect(root!.title).toMatch(/no longer holds hotel/);
    expect(r.stdout).toMatch(/alpha\/SKILL\.md:3/);
    // the edited skill's own part holds it and fails: its line never reads PASS above a root on its description
    const alpha = report.skills.find((x) => x.name === "alpha");
    expect(alpha?.verdict).toBe("fail");
    expect(alpha?.blockingRoots.map((x) => x.id)).toContain(root!.id);
    expect(report.policy.roots.map((x) => x.id)).not.toContain(root!.id);
    expect(r.stdout).toMatch(/^FAIL {2}alpha /m);
  }, 180_000);

  it("is no root when the base does not write for Codex", async () => {
    const base = repo({ ".skillgate.yml": config("claude-code"), "agent.js": AGENT, ...skills(short) });
    const head = repo({ ".skillgate.yml": config("claude-code"), "agent.js": AGENT, ...skills(long) });
    const json = join(head, "report.json");
    await cli(["run", "--repo", head, "--base-dir", base, "--json", json]);
    const report = JSON.parse(readFileSync(json, "utf8")) as Report;
    expect(report.blockingRoots.some((x) => x.id.startsWith("trigger/codex-catalogue/"))).toBe(false);
  }, 180_000);
});

describe("name precedence: a personal skill of the runner never shadows the skill a PR changes", () => {
  it("trials run with a HOME of their own: the runner's ~/.claude/skills/<name> is not there", async () => {
    // Claude Code resolves a name enterprise > personal > project: were the runner's HOME the agent's, this personal
    // copy would be the skill the trials measure.
    const home = repo({
      ".claude/skills/brand-voice/SKILL.md": `${BRAND}---\nThe runner's own copy.\n`,
    });
    const probe =
      'const fs = require("node:fs"); fs.readFileSync(0, "utf8");\n' +
      'const personal = require("node:path").join(process.env.HOME || "", ".claude/skills/brand-voice/SKILL.md");\n' +
      'process.stdout.write(fs.existsSync(personal) ? "personal copy visible" : "project skill only");\n';
    const dir = repo({
      ".skillgate.yml": config("claude-code"),
      "agent.js": probe,
      ".claude/skills/brand-voice/SKILL.md": `${BRAND}---\nShort sentences.\n`,
      ".claude/skills/brand-voice/evals/meta.json": JSON.stringify({
        skillVersion: "1",
        suiteVersion: "1",
        trials: 1,
      }),
      ".claude/skills/brand-voice/evals/prompts/home.json": JSON.stringify({
        id: "home",
        prompt: "Rewrite: we are happy to help.",
        assertions: [{ id: "project-only", type: "contains", value: "project skill only" }],
      }),
    });
    const json = join(dir, "report.json");
    await execa(process.execPath, [cliJs(), "run", "--repo", dir, "--json", json, "--no-color"], {
      reject: false,
      env: { ...process.env, SKILLGATE_ISOLATION: "none", HOME: home },
    });
    const report = JSON.parse(readFileSync(json, "utf8")) as Report;
    const checks = report.skills[0]!.evidence!.head.filter(
      (c) => c.assertionId === "project-only" && c.mode === "skill",
    );
    expect(checks.length).toBeGreaterThan(0);
    expect(checks.every((c) => c.status === "pass")).toBe(true);
  }, 180_000);
});
