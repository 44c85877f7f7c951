/**
 * Issue #43: a skill-creator suite (expectations only) could be graded only by a hosted Anthropic or OpenAI judge.
 * A `command` judge was refused, and without a judge every PR touching such a skill failed on
 * `nothing-gradeable` roots under a header saying the skill had "no eval suite". Through the bundled CLI, offline:
 * a local command agent and a local command judge (the protocol of command agents) grade the suite; without a
 * judge the header says what is missing; a judge that is the agent is still warned about.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { execa } from "execa";
import { describe, expect, it } from "vitest";
import type { Report } from "../../src/model/index.js";
import { e2eFile } from "../support/dist.js";
import { writeRepo } from "../support/repo-files.js";

const { cliJs, scratch } = e2eFile();

/** With its skill installed the agent names the version; without it, it does not. */
const AGENT = `const fs = require("node:fs");
fs.readFileSync(0, "utf8");
const skilled = fs.existsSync(".agents/skills/release-notes");
process.stdout.write(skilled ? "Release 2.0: fixed the login crash." : "Some fixes were made.");
`;

/**
 * Reads the trial from stdin as the hosted judge would get it; passes an expectation that quotes a word (`"2.0"`)
 * when the output holds it. Says it ran as the judge (SKILLGATE_MODE) and that it has no network in its evidence.
 */
const JUDGE = `const input = require("node:fs").readFileSync(0, "utf8");
// The blocks' tags end in a code drawn from their content (grade/judge.ts): read it from the first line.
const code = /end their tags in -([0-9a-f]+);/.exec(input)[1];
const block = (name) => {
  const open = "<" + name + "-" + code + ">\\n";
  const from = input.indexOf(open) + open.length;
  return input.slice(from, input.indexOf("\\n</" + name + "-" + code + ">", from));
};
const expectation = block("expectation");
const output = block("output");
const word = /"([^"]+)"/.exec(expectation)[1];
const passed = output.includes(word);
process.stdout.write(JSON.stringify({ passed, evidence: \`\${process.env.SKILLGATE_MODE}: \${passed ? "found" : "no"} \${word}\` }));
`;

const EVALS = JSON.stringify({
  skill_name: "release-notes",
  evals: [
    {
      id: 1,
      prompt: "Write the release note for the login fix.",
      expected_output: "A release note naming the version.",
      expectations: ['The note names the version "2.0"', 'The note mentions the "login" fix'],
    },
  ],
});

function repo(config: string): string {
  const dir = writeRepo(
    {
      ".skillgate.yml": `agent:\n  adapter: command\n  command: node agents/agent.js\n${config}trials: 2\ncache: {enabled: false}\n`,
      "agents/agent.js": AGENT,
      "judges/judge.js": JUDGE,
      ".claude/skills/release-notes/SKILL.md":
        "---\nname: release-notes\ndescription: Writes release notes. Use for release notes.\n---\nName the version (2.0).\n",
      ".claude/skills/release-notes/evals/evals.json": EVALS,
    },
    "sg-cmd-judge-",
  );
  scratch.push(dir);
  return dir;
}

async function pr(dir: string) {
  const git = (...args: string[]) =>
    execa("git", ["-C", dir, "-c", "user.name=t", "-c", "user.email=t@t", ...args]);
  await git("init", "-q", "-b", "main");
  await git("add", "-A");
  await git("commit", "-qm", "base");
  const skill = join(dir, ".claude/skills/release-notes/SKILL.md");
  writeFileSync(skill, `${readFileSync(skill, "utf8")}Keep it short.\n`);
  await git("commit", "-qam", "pr");
  const json = join(dir, "..", `${dir.split("/").pop()}-report.json`);
  scratch.push(json);
  const r = await execa(
    process.execPath,
    [cliJs(), "run", "--repo", dir, "--base", "HEAD~1", "--no-color", "--json", json],
    { reject: false },
  );
  return {
    code: r.exitCode,
    out: `${r.stdout}\n${r.stderr}`,
    report: JSON.parse(readFileSync(json, "utf8")) as Report,
  };
}

describe("a command judge grades a skill-creator suite, offline", () => {
  it("with the protocol of command agents: the expectations are graded and the PR passes", async () => {
    const r = await pr(repo("judge:\n  adapter: command\n  command: node judges/judge.js\n"));
    if (r.code !== 0) console.log(r.out);
    expect(r.out).not.toMatch(/not supported/);
    expect(r.code).toBe(0);
    expect(r.report.verdict).toBe("pass");
    // Both expectations graded on every trial of both arms; the baseline's answer has no version.
    const head = r.report.skills[0]!.evidence!.head.filter(
      (c) => c.caseId === "eval-1" && c.assertionId !== "trial-ok",
    );
    expect(new Set(head.map((c) => c.assertionId)).size).toBe(2);
    expect(head.every((c) => c.status === "pass" || c.mode === "baseline")).toBe(true);
    expect(head.some((c) => c.mode === "baseline" && c.status === "fail")).toBe(true);
    expect(JSON.stringify(r.report.skills[0])).toContain("judge: found 2.0");
  }, 180_000);

  it("without a judge, the header says the suite has nothing to grade without one, not that it has none", async () => {
    const r = await pr(repo(""));
    expect(r.out).not.toMatch(/with no eval suite/);
    expect(r.out).toMatch(
      /1 of them with only natural-language checks and no judge to grade them \(set `judge:`/,
    );
  }, 180_000);

  it("a judge that is the agent under test is still warned about", async () => {
    const r = await pr(repo("judge:\n  adapter: command\n  command: node agents/agent.js\n"));
    const warned = r.report.diagnostics.find((d) => d.code === "config/judge-is-agent");
    expect(warned?.message).toMatch(
      /the judge's command \(node agents\/agent\.js\) is the command of the agent under test/,
    );
    expect(`${warned?.file}:${warned?.line}`).toBe(".skillgate.yml:6");
  }, 180_000);
});
