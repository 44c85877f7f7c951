/**
 * Issue #27 item 2, end to end through the bundled CLI (`dist/cli.js`, bundled fresh for this file): a skill
 * folder's symbolic links that stay inside the repository are the skill's files. The agent is given what they point
 * at, they are hashed with the skill, and a PR that edits only a link's target is a change of the skill. A link
 * out of the repository is a located error, never followed.
 */
import { execFileSync } from "node:child_process";
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertionLookup } from "../../src/detect/assertion-types.js";
import { classifyChanges } from "../../src/detect/changes.js";
import { discoverRepository } from "../../src/detect/discover.js";
import "../../src/grade/assertions/index.js";
import * as registry from "../../src/grade/assertions/registry.js";
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
  agentFile = join(temp("sg-links-agent-"), "agent.sh");
  // Answers with every installed skill file it can read: what the agent under test was given.
  copyFileSync(AGENT, agentFile);
}, 180_000);

const GOOD =
  "Split with the largest remainder method: floor every share, then hand out the leftover cents.\n";
const BAD = "Divide the total by the number of people and round each share.\n";

/** A git repository whose skill's guide is a link to `docs/splitting.md`; `main` holds the good guide. */
function repository(): string {
  const dir = temp("sg-links-repo-");
  const files: Record<string, string> = {
    ".claude/skills/split-cents/SKILL.md":
      "---\nname: split-cents\ndescription: Splits a bill in cents between people. Use for splitting totals.\n---\nFollow references/guide.md.\n",
    "docs/splitting.md": GOOD,
    ".agent/evals/split-cents/meta.json": JSON.stringify({ trials: 3 }),
    ".agent/evals/split-cents/prompts/c1.yaml":
      "id: c1\nprompt: Split 1000 cents among 3 people.\nassertions:\n  - {id: D:method, type: contains, value: largest remainder}\n",
    ".skillgate.yml": `agent:\n  adapter: command\n  command: ${JSON.stringify(`sh ${agentFile}`)}\ntrials: 3\ncache:\n  enabled: false\nverdict:\n  baseDepth: 6\n`,
  };
  for (const [p, c] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, p)), { recursive: true });
    writeFileSync(join(dir, p), c);
  }
  mkdirSync(join(dir, ".claude/skills/split-cents/references"));
  symlinkSync("../../../../docs/splitting.md", join(dir, ".claude/skills/split-cents/references/guide.md"));
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
  const out = join(temp("sg-links-out-"), "report.json");
  const r = await execa(
    process.execPath,
    [join(dist, "cli.js"), "run", "--repo", dir, "--quiet", "--json", out, ...args],
    {
      reject: false,
      // Unconfined trials (SKILLGATE_ISOLATION=none): what is checked is what gets installed, not the sandbox
      // (test/sandbox/ checks that). Unconfined, the agent could also read a link left pointing out of the
      // repository, so the test of such links sees that mistake too; and a bubblewrap start per call cost CPU.
      env: { XDG_CACHE_HOME: temp("sg-links-cache-"), SKILLGATE_ISOLATION: "none" },
      timeout: 240_000,
    },
  );
  return {
    code: r.exitCode,
    stdout: String(r.stdout),
    report: JSON.parse(readFileSync(out, "utf8")) as Report,
  };
}

describe("links inside a skill folder are the skill's files", () => {
  it("the agent is given what a link points at", async () => {
    const r = await run(repository());
    expect(r.code, r.stdout).toBe(0);
    expect(r.report.skills[0]!.roots).toEqual([]);
  }, 240_000);

  it("a PR that edits only a link's target is a change of the skill, and its regression fails", async () => {
    const dir = repository();
    git(dir, "checkout", "-q", "-b", "pr");
    writeFileSync(join(dir, "docs/splitting.md"), BAD);
    git(dir, "commit", "-q", "-am", "simplify the guide");
    const r = await run(dir, "--base", "main");
    expect(r.report.skills.map((s) => `${s.name} ${s.change}`)).toEqual(["split-cents body"]);
    expect(r.code, r.stdout).toBe(1);
    expect(r.report.skills[0]!.newRoots.map((x) => x.id)).toContain("c1/D:method");
  }, 240_000);

  it("with the PR's changed files (the Action), the link's target touches the skill", () => {
    const dir = repository();
    const base = temp("sg-links-base-");
    execFileSync("cp", ["-a", `${dir}/.`, base]);
    writeFileSync(join(dir, "docs/splitting.md"), BAD);
    const opts = { profile: "claude-code" as const, assertionTypes: assertionLookup(registry), env: {} };
    const head = discoverRepository(dir, opts);
    const changedFiles = ["docs/splitting.md"];
    const baseFound = discoverRepository(base, { ...opts, reuse: { from: head, changedFiles } });
    const changes = classifyChanges(
      { dir, skills: head.skills },
      { dir: base, skills: baseFound.skills },
      changedFiles,
    );
    expect(changes.map((c) => `${c.name} ${c.change}`)).toEqual(["split-cents body"]);
  });

  it("a link out of the repository is a located error, and nothing it points at is installed", async () => {
    const dir = repository();
    const outside = temp("sg-links-outside-");
    writeFileSync(join(outside, "secret.md"), "largest remainder (from outside the repository)\n");
    symlinkSync(join(outside, "secret.md"), join(dir, ".claude/skills/split-cents/references/extra.md"));
    git(dir, "add", "-A");
    git(dir, "commit", "-q", "-m", "a link out");
    const r = await run(dir);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(".claude/skills/split-cents/references/extra.md");
    expect(JSON.stringify(r.report)).not.toContain("from outside the repository");
  }, 240_000);
});
