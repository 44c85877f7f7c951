/**
 * Issue #42: `plan` and `run` with `--base REF` read the base from git's objects, only the files the PR's change
 * needs (base-needs.ts, base-tree.ts), instead of a full git worktree per call; and what they read classifies every
 * PR exactly as the whole base does.
 */
import { execFileSync } from "node:child_process";
import {
  chmodSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { agentRepoPaths } from "../../src/agents/repo-paths.js";
import { assertionLookup } from "../../src/detect/assertion-types.js";
import { changedFilesSince, checkoutBase } from "../../src/detect/base.js";
import { baseNeeds, moreBaseNeeds } from "../../src/detect/base-needs.js";
import { materializeTree } from "../../src/detect/base-tree.js";
import { discoverRepository } from "../../src/detect/discover.js";
import { skillLayout } from "../../src/detect/layout.js";
import "../../src/grade/assertions/index.js";
import * as registry from "../../src/grade/assertions/registry.js";
import { applyEdit, baseRepo, changedPaths, EDITS, type Files, summary } from "../support/reuse-prs.js";
import { runCli } from "../support/run-cli.js";

const opts = { profile: "claude-code" as const, assertionTypes: assertionLookup(registry) };
const GIT = ["-c", "user.name=t", "-c", "user.email=t@example.test", "-c", "commit.gpgsign=false"];
const git = (dir: string, ...args: string[]) =>
  execFileSync("git", ["-C", dir, ...GIT, ...args], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  }).trim();

function writeFiles(dir: string, files: Files): void {
  for (const [p, c] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, p)), { recursive: true });
    writeFileSync(join(dir, p), c);
  }
}

/** A git repository holding `files` committed on `main`; returns its folder and the commit. */
function committed(files: Files): { dir: string; sha: string } {
  const dir = mkdtempSync(join(tmpdir(), "sg-sparse-"));
  git(dir, "init", "-q", "-b", "main");
  writeFiles(dir, files);
  git(dir, "add", "-A");
  git(dir, "commit", "-qm", "base");
  return { dir, sha: git(dir, "rev-parse", "HEAD") };
}

/** The working tree becomes `head` (a PR's head, uncommitted). */
function checkOut(dir: string, base: Files, head: Files): void {
  for (const p of Object.keys(base)) if (!(p in head)) rmSync(join(dir, p));
  writeFiles(dir, Object.fromEntries(Object.entries(head).filter(([p, c]) => base[p] !== c)));
}

describe("a PR's changed files from git", () => {
  it("lists modified, added (untracked), deleted and staged files, not ignored ones", () => {
    const { dir, sha } = committed({ "a.md": "a", "b.md": "b", "c.md": "c", ".gitignore": "ignored/\n" });
    try {
      writeFileSync(join(dir, "a.md"), "a2");
      rmSync(join(dir, "b.md"));
      writeFiles(dir, { "new/x.md": "x", "ignored/y.md": "y", "staged.md": "s" });
      git(dir, "add", "staged.md");
      expect(changedFilesSince(dir, sha)).toEqual(["a.md", "b.md", "new/x.md", "staged.md"]);
      // A folder below the repository's top: its paths are not the top's, so git cannot say.
      mkdirSync(join(dir, "sub"));
      expect(changedFilesSince(join(dir, "sub"), sha)).toBeUndefined();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("base files from git objects", () => {
  it("writes the blobs under the paths asked for, with their executable bit and links, names taken literally", () => {
    const { dir, sha } = committed({
      "skills/a/SKILL.md": "A",
      "skills/a/scripts/run.sh": "echo a",
      "skills/b*/SKILL.md": "B star",
      "skills/b/SKILL.md": "B",
      "other/c.md": "C",
    });
    const out = mkdtempSync(join(tmpdir(), "sg-sparse-out-"));
    try {
      chmodSync(join(dir, "skills/a/scripts/run.sh"), 0o755);
      symlinkSync("../b/SKILL.md", join(dir, "skills/a/link.md"));
      git(dir, "add", "-A");
      git(dir, "commit", "-qm", "exec and link");
      const head = git(dir, "rev-parse", "HEAD");
      writeFileSync(join(dir, "skills/a/SKILL.md"), "changed after the commit");
      const done = materializeTree(dir, head, ["skills/a", "skills/b*", "missing/path"], out);
      expect(done).toEqual({ files: 3, links: 1 });
      expect(readFileSync(join(out, "skills/a/SKILL.md"), "utf8")).toBe("A");
      expect(statSync(join(out, "skills/a/scripts/run.sh")).mode & 0o111).not.toBe(0);
      expect(lstatSync(join(out, "skills/a/link.md")).isSymbolicLink()).toBe(true);
      expect(readlinkSync(join(out, "skills/a/link.md"))).toBe("../b/SKILL.md");
      // `b*` is that folder only, never a pattern matching `b`.
      expect(readFileSync(join(out, "skills/b*/SKILL.md"), "utf8")).toBe("B star");
      expect(() => statSync(join(out, "skills/b"))).toThrow();
      expect(() => statSync(join(out, "other"))).toThrow();
      expect(materializeTree(dir, sha, [], out)).toEqual({ files: 0, links: 0 });
    } finally {
      rmSync(dir, { recursive: true, force: true });
      rmSync(out, { recursive: true, force: true });
    }
  });
});

describe("the base a PR reads from git objects", () => {
  const base = baseRepo(12);
  let repo: { dir: string; sha: string };
  beforeAll(() => {
    repo = committed(base);
  });
  afterAll(() => rmSync(repo.dir, { recursive: true, force: true }));

  it("classifies every PR as the whole base checked out does, reading only the touched skills (random PRs)", () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.tuple(fc.integer({ min: 0, max: 11 }), fc.constantFrom(...EDITS)), {
          minLength: 1,
          maxLength: 4,
          selector: ([i]) => i,
        }),
        (edits) => {
          const head = { ...base };
          for (const [i, e] of edits) applyEdit(head, i, e);
          git(repo.dir, "checkout", "-qf", "main");
          git(repo.dir, "clean", "-qfd");
          checkOut(repo.dir, base, head);
          const changed = changedFilesSince(repo.dir, repo.sha)!;
          expect(changed).toEqual(changedPaths(base, head));
          const h = discoverRepository(repo.dir, opts);
          const needs = baseNeeds(
            h,
            changed,
            agentRepoPaths({ adapter: "command", command: "node tools/agent.mjs" }),
          );
          const full = checkoutBase(repo.dir, { kind: "ref", ref: "main", sha: repo.sha });
          const sparse =
            "paths" in needs
              ? checkoutBase(
                  repo.dir,
                  { kind: "ref", ref: "main", sha: repo.sha },
                  {
                    paths: needs.paths,
                    more: (read) =>
                      moreBaseNeeds(h, changed, read, (d) => skillLayout(d, h.plugins.roots).namespace),
                  },
                )
              : undefined;
          try {
            expect(sparse?.sparse).toBeDefined();
            const fullBase = discoverRepository(full.dir, opts);
            const sparseBase = discoverRepository(sparse!.dir, {
              ...opts,
              reuse: { from: h, changedFiles: changed },
            });
            expect(summary(h, sparseBase, changed)).toEqual(summary(h, fullBase, changed));
            // Far fewer files than the base holds: the touched skills' folders and suites.
            expect(sparse!.sparse!.files).toBeLessThan(Object.keys(base).length / 2);
            // Every base record's files are where it says, with the base's bytes.
            for (const s of sparseBase.skills)
              for (const f of s.folder.files) {
                const fullCopy = join(full.dir, s.dir, f);
                expect(readFileSync(join(s.folder.root!, s.dir, f), "utf8")).toBe(
                  readFileSync(fullCopy, "utf8"),
                );
              }
          } finally {
            full.dispose();
            sparse?.dispose();
          }
        },
      ),
      { numRuns: 15, seed: 20261203 },
    );
  });
});

describe("plan and run with --base", () => {
  it("build no git worktree: the base is read from git objects", async () => {
    const { dir } = committed({
      ...baseRepo(4),
      ".skillgate.yml": "agent:\n  adapter: lexical\ncache:\n  enabled: false\n",
    });
    const bin = mkdtempSync(join(tmpdir(), "sg-git-log-"));
    const log = join(bin, "calls.log");
    const real = execFileSync("sh", ["-c", "command -v git"], { encoding: "utf8" }).trim();
    writeFileSync(join(bin, "git"), `#!/bin/sh\necho "$*" >> ${JSON.stringify(log)}\nexec ${real} "$@"\n`, {
      mode: 0o755,
    });
    const path = process.env.PATH;
    try {
      writeFileSync(
        join(dir, "skills/s1/SKILL.md"),
        readFileSync(join(dir, "skills/s1/SKILL.md"), "utf8").replace("Does task 1", "Handles task 1"),
      );
      process.env.PATH = `${bin}:${path}`;
      const planned = await runCli(["plan", "--repo", dir, "--base", "main", "--quiet"]);
      expect(planned.code, planned.stderr).toBe(0);
      const calls = readFileSync(log, "utf8");
      expect(calls).not.toMatch(/\bworktree add\b/);
      expect(calls).toMatch(/\bcat-file --batch\b/);
    } finally {
      process.env.PATH = path;
      rmSync(dir, { recursive: true, force: true });
      rmSync(bin, { recursive: true, force: true });
    }
  });
});
