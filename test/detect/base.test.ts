/**
 * Issue #16 item 6, the right base: a PR is compared with the merge base of its head and the base branch (what
 * its diff shows), not with wherever the base branch is now, and the policy is read from that same commit.
 * origin: c0 ← feature (edits the skill); main moves on after c0 (raises `trials`, adds a skill, 60 more
 * commits), so comparing with main's tip would blame the PR for main's changes.
 */
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findMergeBase } from "../../src/detect/base.js";
import { InputError, type Logger, type Report } from "../../src/model/index.js";
import { resolveSettings } from "../../src/settings/resolve.js";
import { runCli } from "../support/run-cli.js";

const GIT_ENV = {
  GIT_AUTHOR_NAME: "t",
  GIT_AUTHOR_EMAIL: "t@example.test",
  GIT_COMMITTER_NAME: "t",
  GIT_COMMITTER_EMAIL: "t@example.test",
  GIT_CONFIG_NOSYSTEM: "1",
  HOME: tmpdir(),
};
const git = async (cwd: string, ...args: string[]) =>
  (await execa("git", args, { cwd, env: GIT_ENV })).stdout.trim();
async function put(dir: string, file: string, text: string) {
  await mkdir(dirname(join(dir, file)), { recursive: true });
  await writeFile(join(dir, file), text);
}
const logger = (lines: string[] = []): Logger => ({
  info: (m) => lines.push(m),
  warn: (m) => lines.push(`warning: ${m}`),
  error: (m) => lines.push(`error: ${m}`),
  debug: () => {},
  group: async (_n, fn) => fn(),
  progress: () => {},
});

const AGENT = `#!/usr/bin/env node
process.stdin.resume();
process.stdin.on("end", () => process.stdout.write(JSON.stringify({ output: "Parts: 334 333 333 of 1000", skillsActivated: [] })));
`;
const CONFIG = (trials: number) =>
  `agent:\n  adapter: command\n  command: ./tools/agent.mjs\ntrials: ${trials}\ncache:\n  enabled: false\n`;
const SKILL = (name: string, body: string) =>
  `---\nname: ${name}\ndescription: Split money totals in cents among people without losing a cent.\n---\n${body}\n`;

let root: string;
let origin: string;
let c0: string;
let mainTip: string;
let featureTip: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "sg-mergebase-"));
  origin = join(root, "origin");
  await mkdir(origin);
  await git(origin, "init", "-q", "-b", "main");
  await git(origin, "config", "uploadpack.allowAnySHA1InWant", "true");
  await put(origin, ".skillgate.yml", CONFIG(1));
  await put(origin, "tools/agent.mjs", AGENT);
  await chmod(join(origin, "tools/agent.mjs"), 0o755);
  await put(
    origin,
    ".claude/skills/split-cents/SKILL.md",
    SKILL("split-cents", "Use the largest remainder."),
  );
  await put(
    origin,
    ".agent/evals/split-cents/meta.json",
    JSON.stringify({ skillVersion: "1", suiteVersion: "1", trials: 1, thresholds: {} }),
  );
  await put(
    origin,
    ".agent/evals/split-cents/prompts/split.yaml",
    "id: split\nprompt: Split 1000 cents among 3 people.\nassertions:\n  - id: D:no-lost-cent\n    type: not-one-of\n    extract: first-number\n    values: [333]\n",
  );
  await git(origin, "add", "-A");
  await git(origin, "commit", "-qm", "c0");
  c0 = await git(origin, "rev-parse", "HEAD");
  await git(origin, "checkout", "-qb", "feature");
  await put(
    origin,
    ".claude/skills/split-cents/SKILL.md",
    SKILL("split-cents", "Use the largest remainder method, ties to the lower index."),
  );
  await git(origin, "commit", "-qam", "feature: reword");
  featureTip = await git(origin, "rev-parse", "HEAD");
  await git(origin, "checkout", "-q", "main");
  // main moves on: a stricter policy and a second skill the PR never saw
  await put(origin, ".skillgate.yml", CONFIG(4));
  await put(origin, ".claude/skills/other/SKILL.md", SKILL("other", "Another skill."));
  await git(origin, "add", "-A");
  await git(origin, "commit", "-qm", "main: stricter");
  let stream = "";
  for (let i = 0; i < 60; i++) {
    const msg = `main ${i}`;
    stream += `commit refs/heads/main\ncommitter t <t@example.test> ${1_700_000_000 + i} +0000\ndata ${msg.length}\n${msg}\n`;
    if (i === 0) stream += `from ${await git(origin, "rev-parse", "main")}\n`;
    stream += `M 100644 inline notes/${i}.md\ndata ${String(i).length + 1}\n${i}\n\n`;
  }
  await execa("git", ["fast-import", "--quiet"], { cwd: origin, env: GIT_ENV, input: stream });
  mainTip = await git(origin, "rev-parse", "main");
  await git(origin, "checkout", "-q", "feature");
}, 120_000);
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe("findMergeBase", () => {
  it("is the merge base of head and the base branch, with the branch's tip beside it", async () => {
    expect(await findMergeBase(origin, "main", "HEAD")).toEqual({ sha: c0, tip: mainTip });
    expect(await findMergeBase(origin, mainTip, featureTip)).toEqual({ sha: c0, tip: mainTip });
    // head up to date with base: the merge base is the tip
    expect(await findMergeBase(origin, c0, featureTip)).toEqual({ sha: c0, tip: c0 });
  });

  it("deepens a shallow clone (git fetch --deepen) until the merge base exists", async () => {
    const clone = join(root, "shallow");
    await execa("git", ["clone", "-q", "--depth=1", "--branch", "feature", `file://${origin}`, clone], {
      env: GIT_ENV,
    });
    expect(await git(clone, "rev-parse", "--is-shallow-repository")).toBe("true");
    const log: string[] = [];
    const found = await findMergeBase(clone, mainTip, "HEAD", { log: (m) => log.push(m) });
    expect(found).toEqual({ sha: c0, tip: mainTip });
    expect(log.join("\n")).toMatch(/fetching [0-9a-f]{12} from origin/);
    expect(log.join("\n")).toMatch(/deepening by 50 commits/);
  });

  it("a shallow clone that cannot be deepened is a usage error that says how to fetch", async () => {
    const clone = join(root, "shallow-alone");
    await execa("git", ["clone", "-q", "--depth=1", "--no-single-branch", `file://${origin}`, clone], {
      env: GIT_ENV,
    });
    await git(clone, "checkout", "-q", "feature");
    await git(clone, "remote", "remove", "origin");
    const error = await findMergeBase(clone, mainTip, "HEAD").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    expect((error as Error).message).toMatch(/no merge base .* in the shallow clone/);
    expect((error as Error).message).toMatch(/fetch-depth: 0/);
  });

  it("an unknown ref and unrelated histories are usage errors", async () => {
    await expect(findMergeBase(origin, "no-such-branch", "HEAD")).rejects.toThrow(
      /base `no-such-branch` is not a commit/,
    );
    const other = join(root, "other");
    await mkdir(other);
    await git(other, "init", "-q");
    await put(other, "x", "x");
    await git(other, "add", "-A");
    await git(other, "commit", "-qm", "x");
    await git(other, "fetch", "-q", origin, "feature");
    await expect(findMergeBase(other, "HEAD", featureTip)).rejects.toThrow(/have no common ancestor/);
  });
});

describe("--base REF compares with the merge base and reads the policy there", () => {
  it("resolveSettings: the base arm and the policy are the merge base's, not main's tip", async () => {
    const lines: string[] = [];
    const settings = await resolveSettings({ repo: origin, base: "main", env: {} }, logger(lines));
    expect(settings.base).toEqual({ kind: "ref", ref: "main", sha: c0, tip: mainTip });
    expect(settings.policy.origin).toBe(`base commit ${c0.slice(0, 12)} (.skillgate.yml)`);
    // The PR did not touch .skillgate.yml: main's later `trials: 4` is neither applied nor a "loosening" by the PR.
    expect(settings.trials).toBe(1);
    expect(settings.policy.changes).toEqual([]);
    expect(lines.join("\n")).toMatch(/comparing with the merge base/);
  });

  it("skillgate run --base main: only the PR's own edit is evaluated, against the merge base", async () => {
    const out = join(root, "report.json");
    const r = await runCli(["run", "--repo", origin, "--base", "main", "--json", out, "--quiet"]);
    expect(r.stderr).toBe("");
    const report = JSON.parse(await readFile(out, "utf8")) as Report;
    expect(report.base).toMatchObject({ ref: "main", sha: c0, tip: mainTip });
    // main's new skill `other` is not something this PR deleted or changed
    expect(report.skills.map((s) => [s.name, s.change])).toEqual([["split-cents", "body"]]);
    expect(report.policy.roots).toEqual([]);
    expect(r.stdout).toContain(`merge base ${c0.slice(0, 12)}`);
    expect(r.code).toBe(0);
  }, 120_000);
});
