import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  changedPaths,
  gitChangedFiles,
  listChangedFiles,
  parseNameStatus,
} from "../../src/github/changed-files.js";
import { createGitHubClient } from "../../src/github/client.js";
import { MAX_PULL_FILES } from "../../src/github/limits.js";
import { startGitHubApi } from "../support/github-api.js";

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

let root: string;
let origin: string;
let baseSha: string;
let headSha: string;

/**
 * origin: c0 (skill, a.md, b.md) ← feature (edit skill, rename b→c, delete a, add d);
 * main moves on 61 commits after c0, so a shallow clone of the feature branch must deepen to find c0.
 */
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "sg-git-"));
  origin = join(root, "origin");
  await mkdir(origin);
  await git(origin, "init", "-q", "-b", "main");
  await git(origin, "config", "uploadpack.allowAnySHA1InWant", "true");
  await put(origin, ".claude/skills/s/SKILL.md", "---\nname: s\ndescription: d\n---\nbody\n");
  await put(origin, "a.md", "a\n");
  await put(origin, "b.md", "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb\n".repeat(5));
  await git(origin, "add", "-A");
  await git(origin, "commit", "-qm", "c0");
  await git(origin, "checkout", "-qb", "feature");
  await put(origin, ".claude/skills/s/SKILL.md", "---\nname: s\ndescription: d\n---\nnew body\n");
  await git(origin, "mv", "b.md", "c.md");
  await git(origin, "rm", "-q", "a.md");
  await put(origin, "d file.md", "with a space\n");
  await git(origin, "add", "-A");
  await git(origin, "commit", "-qm", "feature");
  headSha = await git(origin, "rev-parse", "HEAD");
  // 61 commits on main in one fast-import process (one `git commit` each would take seconds).
  const c0 = await git(origin, "rev-parse", "main");
  let stream = "";
  for (let i = 0; i < 61; i++) {
    const msg = `main ${i}`;
    stream += `commit refs/heads/main\ncommitter t <t@example.test> ${1_700_000_000 + i} +0000\ndata ${msg.length}\n${msg}\n`;
    if (i === 0) stream += `from ${c0}\n`;
    stream += `M 100644 inline main/${i}.md\ndata ${String(i).length + 1}\n${i}\n\n`;
  }
  await execa("git", ["fast-import", "--quiet"], { cwd: origin, env: GIT_ENV, input: stream });
  baseSha = await git(origin, "rev-parse", "main");
}, 120_000);
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

const expected = [
  { path: ".claude/skills/s/SKILL.md", status: "modified" },
  { path: "a.md", status: "removed" },
  { path: "c.md", status: "renamed", previousPath: "b.md" },
  { path: "d file.md", status: "added" },
];

describe("gitChangedFiles", () => {
  it("diffs from the merge base, not from the base tip (which would list main's 61 files)", async () => {
    const files = await gitChangedFiles(origin, baseSha, headSha);
    expect(files.sort((a, b) => a.path.localeCompare(b.path))).toEqual(expected);
  });

  it("deepens a shallow clone until a merge base exists", async () => {
    const clone = join(root, "clone");
    await execa("git", ["clone", "-q", "--depth=1", "--branch", "feature", `file://${origin}`, clone], {
      env: GIT_ENV,
    });
    expect(await git(clone, "rev-parse", "--is-shallow-repository")).toBe("true");
    const log: string[] = [];
    const files = await gitChangedFiles(clone, baseSha, headSha, { log: (m) => log.push(m) });
    expect(files.sort((a, b) => a.path.localeCompare(b.path))).toEqual(expected);
    expect(log.join("\n")).toMatch(/deepening by 50/);
  });

  it("says so when the commits share no history", async () => {
    const other = join(root, "other");
    await mkdir(other);
    await git(other, "init", "-q");
    await put(other, "x", "x");
    await git(other, "add", "-A");
    await git(other, "commit", "-qm", "x");
    const lone = await git(other, "rev-parse", "HEAD");
    await git(other, "fetch", "-q", origin, "feature");
    await expect(gitChangedFiles(other, lone, headSha)).rejects.toThrow(/have no common ancestor/);
  });

  it("parses -z name-status output with renames and odd names", () => {
    expect(parseNameStatus("M\0x y\0R087\0old\0new\0D\0gone\0")).toEqual([
      { path: "x y", status: "modified" },
      { path: "new", status: "renamed", previousPath: "old" },
      { path: "gone", status: "removed" },
    ]);
    expect(changedPaths(parseNameStatus("R100\0b\0a\0A\0b\0"))).toEqual(["a", "b"]);
  });
});

describe("listChangedFiles", () => {
  it("pages through pulls.listFiles and flags GitHub's 3,000-file cap as incomplete", async () => {
    const files = Array.from({ length: 3100 }, (_, i) => ({
      filename: `f/${i}.md`,
      status: "added" as const,
    }));
    const api = await startGitHubApi({
      owner: "o",
      repo: "r",
      pullFiles: { 5: files, 6: files.slice(0, 250) },
    });
    try {
      const client = createGitHubClient({ token: "t", baseUrl: api.url, logger: { warn() {}, debug() {} } });
      const capped = await listChangedFiles(client, {
        owner: "o",
        repo: "r",
        pullNumber: 5,
        expectedCount: 3100,
      });
      expect(capped.files).toHaveLength(MAX_PULL_FILES);
      expect(capped.complete).toBe(false);
      const small = await listChangedFiles(client, {
        owner: "o",
        repo: "r",
        pullNumber: 6,
        expectedCount: 250,
      });
      expect(small).toMatchObject({ complete: true });
      expect(small.files).toHaveLength(250);
      expect(api.requests.filter((r) => r.query.page === "3" && r.url.includes("/pulls/6/"))).toHaveLength(1);
      expect(api.violations).toEqual([]);
    } finally {
      await api.close();
    }
  });
});
