/**
 * Issue #28, end to end through the bundled CLI (`dist/cli.js`, bundled fresh for this file): copies of one skill in
 * roots no agent loads together (template projects each with its own `.agents/skills`, per-agent folders) are each
 * a skill of their own. A PR that edits only one copy is a change of that copy, and its regression fails the check;
 * the report tells the copies apart by path.
 */
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Report } from "../../src/model/index.js";
import { bundledDist } from "../support/dist.js";

const AGENT = join(import.meta.dirname, "fixtures", "installed-skills-agent.sh");

const scratch: string[] = [];
const temp = (prefix: string) => {
  const d = mkdtempSync(join(tmpdir(), prefix));
  scratch.push(d);
  return d;
};
afterAll(() => {
  for (const d of scratch) rmSync(d, { recursive: true, force: true });
});

let dist: string;
let agentFile: string;
beforeAll(async () => {
  dist = await bundledDist();
  agentFile = join(temp("sg-copies-agent-"), "agent.sh");
  // Answers with every installed skill file it can read: what the agent under test was given.
  copyFileSync(AGENT, agentFile);
}, 180_000);

const GOOD = "Split with the largest remainder method: floor every share, then hand out the leftover cents.";
const BAD = "Divide the total by the number of people and round each share.";

const skillMd = (body: string) =>
  `---\nname: split-cents\ndescription: Splits a bill in cents between people. Use for splitting totals.\n---\n${body}\n`;

/** Two template projects, each with its own copy of split-cents and its suite; `main` holds good copies. */
function repository(): string {
  const dir = temp("sg-copies-repo-");
  const files: Record<string, string> = {
    ".skillgate.yml": `agent:\n  adapter: command\n  command: ${JSON.stringify(`sh ${agentFile}`)}\ntrials: 3\ncache:\n  enabled: false\n`,
  };
  for (const t of ["web", "cli"]) {
    const s = `templates/${t}/.agents/skills/split-cents`;
    files[`${s}/SKILL.md`] = skillMd(GOOD);
    files[`${s}/evals/meta.json`] = JSON.stringify({ trials: 3 });
    files[`${s}/evals/prompts/c1.yaml`] =
      "id: c1\nprompt: Split 1000 cents among 3 people.\nassertions:\n  - {id: D:method, type: contains, value: largest remainder}\n  - {id: installed-as, type: contains, value: .agents/skills/split-cents/SKILL.md}\n";
  }
  for (const [p, c] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, p)), { recursive: true });
    writeFileSync(join(dir, p), c);
  }
  git(dir, "init", "-q", "-b", "main");
  git(dir, "add", "-A");
  git(dir, "commit", "-q", "-m", "base");
  return dir;
}
const git = (dir: string, ...args: string[]) =>
  execFileSync("git", ["-C", dir, "-c", "user.name=t", "-c", "user.email=t@localhost", ...args], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "ignore"],
  });

async function run(dir: string, ...args: string[]) {
  const out = join(temp("sg-copies-out-"), "report.json");
  const r = await execa(
    process.execPath,
    [join(dist, "cli.js"), "run", "--repo", dir, "--quiet", "--json", out, ...args],
    {
      reject: false,
      // Unconfined trials (SKILLGATE_ISOLATION=none): what is checked is which files each copy installs, not the
      // sandbox (test/sandbox/ checks that), and a bubblewrap start per agent call was a large part of the CPU.
      env: { XDG_CACHE_HOME: temp("sg-copies-cache-"), SKILLGATE_ISOLATION: "none" },
      timeout: 240_000,
    },
  );
  return {
    code: r.exitCode,
    stdout: `${r.stdout}\n${r.stderr}`,
    report: JSON.parse(readFileSync(out, "utf8")) as Report,
  };
}

const CLI_COPY = "templates/cli/.agents/skills/split-cents/SKILL.md";
const WEB_COPY = "templates/web/.agents/skills/split-cents/SKILL.md";

describe("every copy of a skill is gated", () => {
  it("a sweep evaluates each copy, installed under the skill's own name, and tells them apart by path", async () => {
    const r = await run(repository());
    expect(r.code, r.stdout).toBe(0);
    expect(r.report.skills.map((s) => s.path).sort()).toEqual([CLI_COPY, WEB_COPY]);
    const names = r.report.skills.map((s) => s.name);
    expect(new Set(names).size).toBe(2);
    for (const s of r.report.skills) {
      expect(s.name).toContain("split-cents");
      expect(s.roots, s.name).toEqual([]);
    }
  }, 240_000);

  it("a PR that edits only the copy found second runs that copy, and its regression fails the check", async () => {
    const dir = repository();
    git(dir, "checkout", "-q", "-b", "pr");
    // templates/web/ sorts after templates/cli/: the copy discovery used to drop.
    writeFileSync(join(dir, WEB_COPY), skillMd(BAD));
    git(dir, "commit", "-q", "-am", "simplify the web template's copy");
    const r = await run(dir, "--base", "main");
    const changed = r.report.skills.filter((s) => s.change !== "unchanged");
    expect(changed.map((s) => `${s.path} ${s.change}`)).toEqual([`${WEB_COPY} body`]);
    expect(r.code, r.stdout).toBe(1);
    expect(changed[0]!.newRoots.map((x) => x.id)).toContain("c1/D:method");
    expect(r.stdout).toContain("templates/web/");
  }, 240_000);

  it("a PR that adds a copy leaves the existing one unchanged and evaluates the new one", async () => {
    const dir = repository();
    git(dir, "checkout", "-q", "-b", "pr");
    const s = "templates/api/.agents/skills/split-cents";
    mkdirSync(join(dir, s, "evals/prompts"), { recursive: true });
    writeFileSync(join(dir, s, "SKILL.md"), skillMd(BAD));
    writeFileSync(join(dir, s, "evals/meta.json"), JSON.stringify({ trials: 3 }));
    writeFileSync(
      join(dir, s, "evals/prompts/c1.yaml"),
      readFileSync(join(dir, "templates/web/.agents/skills/split-cents/evals/prompts/c1.yaml")),
    );
    git(dir, "add", "-A");
    git(dir, "commit", "-q", "-m", "an api template");
    const r = await run(dir, "--base", "main");
    // The copies already there are unchanged (a run reports the skills it evaluates).
    expect(r.report.skills.map((x) => `${x.path} ${x.change}`)).toEqual([`${s}/SKILL.md new`]);
    expect(r.code, r.stdout).toBe(1);
  }, 240_000);

  it("a PR that deletes one copy: that copy's deletion is gated, the other is unchanged though its run name loses the folder", async () => {
    const dir = repository();
    git(dir, "checkout", "-q", "-b", "pr");
    git(dir, "rm", "-q", "-r", "templates/cli");
    git(dir, "commit", "-q", "-m", "no cli template");
    const r = await run(dir, "--base", "main");
    expect(r.report.skills.map((x) => `${x.path} ${x.change}`)).toEqual([`${CLI_COPY} deleted`]);
    // Deleting a gated skill needs a maintainer's approval, a copy as any other.
    expect(r.code, r.stdout).toBe(1);
    expect(r.report.skills[0]!.newRoots.map((x) => x.id)).toEqual(["suite-weakened/skill-removed/skill"]);
  }, 240_000);
});
