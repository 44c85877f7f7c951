/**
 * Issue #43: waza `text` validators with `regex_match` in inline tasks are RE2 (waza compiles them with Go's
 * regexp). Before, what JavaScript could not compile was quietly left out (a notice), what it compiled with another
 * meaning (`[[:digit:]]`, `\A`) was graded with that meaning, checks written beside `type` instead of under
 * `config:` were called "no skillgate equivalent", and a broken pattern was no error. Through the bundled CLI:
 * they are graded as RE2 reads them, a misplaced check is a warning at its line, a broken pattern an error at its
 * line before any trial.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { execa } from "execa";
import { describe, expect, it } from "vitest";
import type { Report } from "../../src/model/index.js";
import { e2eFile } from "../support/dist.js";
import { writeRepo } from "../support/repo-files.js";

const { cliJs, scratch } = e2eFile();

const AGENT = `require("node:fs").readFileSync(0, "utf8");
process.stdout.write("Added: the export fix [part one]");
`;

function repo(evalYaml: string): string {
  const dir = writeRepo(
    {
      ".skillgate.yml":
        "agent:\n  adapter: command\n  command: node agent.js\ntrials: 1\ncache: {enabled: false}\n",
      "agent.js": AGENT,
      "skills/changelog/SKILL.md":
        "---\nname: changelog\ndescription: Writes changelog entries. Use for changelogs.\n---\nWrite it.\n",
      "skills/changelog/eval.yaml": evalYaml,
    },
    "sg-waza-re2-",
  );
  scratch.push(dir);
  return dir;
}

const cli = (args: string[]) =>
  execa(process.execPath, [cliJs(), ...args, ...(args[0] === "run" ? ["--no-color"] : [])], {
    reject: false,
    env: { ...process.env, SKILLGATE_ISOLATION: "none" },
  });

const TASK = `name: changelog
skill: changelog
tasks:
  - id: entry
    prompt: "Write the changelog entry for the export fix"
    validators:
      - type: text
        name: headings
        config:
          regex_match:
            - "(?i:ADDED)"
            - "\\\\AAdded"
          regex_not_match:
            - "[[:digit:]]"
`;

describe("waza regex validators are RE2", () => {
  it("are graded as RE2 reads them: inline groups, \\A, POSIX classes", async () => {
    const dir = repo(TASK);
    const json = join(dir, "report.json");
    const r = await cli(["run", "--repo", dir, "--json", json]);
    const report = JSON.parse(readFileSync(json, "utf8")) as Report;
    const checks = report.skills[0]!.evidence!.head.filter(
      (c) => c.caseId === "entry" && c.mode === "skill" && c.assertionId !== "trial-ok",
    );
    expect(checks.map((c) => [c.assertionId, c.status]).sort()).toEqual([
      ["task-headings-regex_match-1", "pass"],
      ["task-headings-regex_match-2", "pass"],
      // JavaScript reads `[[:digit:]]` as a class of `[:digt` then `]`, which "t]" matches; RE2 as a digit.
      ["task-headings-regex_not_match-1", "pass"],
    ]);
    expect(r.stdout).not.toMatch(/not graded/);
    expect(r.exitCode).toBe(0);
  }, 120_000);

  it("a pattern RE2 rejects is an error at its line before any trial", async () => {
    const dir = repo(TASK.replace('"(?i:ADDED)"', '"(?i:ADDED"'));
    const v = await cli(["validate", "--repo", dir]);
    expect(v.exitCode).toBe(2);
    expect(v.stdout + v.stderr).toMatch(
      /skills\/changelog\/eval\.yaml:11:15: error: .*invalid regular expression \(RE2 syntax.*missing closing \)/,
    );
    const r = await cli(["run", "--repo", dir]);
    expect(r.exitCode).not.toBe(0);
    expect(r.stdout).toMatch(/eval\.yaml:11/);
    expect(r.stdout).not.toMatch(/agent calls [1-9]/);
  }, 120_000);

  it("checks written beside `type` (not under `config:`) are a warning at their line", async () => {
    const dir = repo(
      'name: changelog\nskill: changelog\ntasks:\n  - id: entry\n    prompt: "Write it"\n    validators:\n      - type: text\n        regex_match: ["(?i)added"]\n',
    );
    const v = await cli(["validate", "--repo", dir]);
    expect(v.stdout + v.stderr).toMatch(
      /eval\.yaml:8:9: warning: not graded: `regex_match` of grader `grader-1` is beside `type`.*under `config:`/,
    );
  }, 120_000);
});
