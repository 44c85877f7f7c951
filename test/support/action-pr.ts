/**
 * A pull request as the Action sees it, for end-to-end tests of `dist/index.js`: a real git history (the base
 * commit on `main`, the PR's head on `feature`), the `pull_request` event of the fixture with its shas, the
 * loopback GitHub API (requests validated against the OpenAPI description) and the runner's environment.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { runActionStep } from "./actions-runner.js";
import { type GitHubApi, type PullFile, startGitHubApi } from "./github-api.js";

const ROOT = join(import.meta.dirname, "../..");
const EVENTS = join(ROOT, "test/fixtures/github-events");

/** Path → content; `null` deletes; `{ link }` makes a symbolic link to that target. */
export type Files = Record<string, string | null | { link: string }>;

const GIT_ENV = {
  ...process.env,
  GIT_AUTHOR_NAME: "t",
  GIT_AUTHOR_EMAIL: "t@example.test",
  GIT_COMMITTER_NAME: "t",
  GIT_COMMITTER_EMAIL: "t@example.test",
  GIT_CONFIG_NOSYSTEM: "1",
};
export const git = (dir: string, ...args: string[]) =>
  execFileSync("git", args, { cwd: dir, env: GIT_ENV, encoding: "utf8" }).trim();

export function writeFiles(dir: string, files: Files): void {
  for (const [p, c] of Object.entries(files)) {
    rmSync(join(dir, p), { force: true });
    if (c === null) continue;
    mkdirSync(dirname(join(dir, p)), { recursive: true });
    if (typeof c === "string") writeFileSync(join(dir, p), c);
    else symlinkSync(c.link, join(dir, p));
  }
}

export interface PullRequest {
  dir: string;
  baseSha: string;
  headSha: string;
  files: PullFile[];
}

/** A checkout of the PR head (feature) over its base (main) in a new folder made by `temp`. */
export function pullRequest(temp: (prefix: string) => string, base: Files, headChanges: Files): PullRequest {
  const dir = temp("sg-pr-repo-");
  git(dir, "init", "-q", "-b", "main");
  writeFiles(dir, base);
  git(dir, "add", "-A");
  git(dir, "commit", "-qm", "base");
  const baseSha = git(dir, "rev-parse", "HEAD");
  git(dir, "checkout", "-qb", "feature");
  writeFiles(dir, headChanges);
  git(dir, "add", "-A");
  git(dir, "commit", "-qm", "the PR", "--allow-empty");
  git(dir, "clean", "-fdq");
  const headSha = git(dir, "rev-parse", "HEAD");
  // -z: names as they are (git would quote one holding a line break), as the API lists them
  const fields = git(dir, "diff", "-z", "--name-status", baseSha, headSha).split("\0").filter(Boolean);
  const files: PullFile[] = [];
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const s = fields[i]!;
    files.push({
      filename: fields[i + 1]!,
      status: s === "A" ? "added" : s === "D" ? "removed" : "modified",
    });
  }
  return { dir, baseSha, headSha, files };
}

export interface PrJob {
  dist: string;
  with?: Record<string, string>;
  env?: Record<string, string>;
}

/**
 * The bundled action on the PR's pull_request event; what it printed and what GitHub saw (check runs, comments).
 * The caller closes `api`.
 */
export async function runPullRequest(pr: PullRequest, job: PrJob) {
  const payload = JSON.parse(readFileSync(join(EVENTS, "pull_request.synchronize.json"), "utf8"));
  payload.pull_request.head.sha = pr.headSha;
  payload.pull_request.base.sha = pr.baseSha;
  payload.pull_request.changed_files = pr.files.length;
  payload.pull_request.labels = [];
  const owner = payload.repository.owner.login as string;
  const repo = payload.repository.name as string;
  const api: GitHubApi = await startGitHubApi({
    owner,
    repo,
    pullFiles: { [payload.number]: pr.files },
    labels: { [payload.number]: [] },
  });
  try {
    const result = await runActionStep({
      dist: job.dist,
      workspace: pr.dir,
      eventName: "pull_request",
      payload,
      with: { report: "skillgate-report.json", ...job.with },
      ...(job.env ? { env: job.env } : {}),
      apiUrl: api.url,
      repository: `${owner}/${repo}`,
      sha: "9".repeat(40),
      workflow: ".github/workflows/skillgate.yml",
      job: "evaluate",
    });
    return { ...result, api, checks: api.checkRuns, comments: api.comments };
  } catch (e) {
    await api.close();
    throw e;
  }
}

/** A temp-folder maker whose folders `cleanup` removes. */
export function scratchFolders() {
  const made: string[] = [];
  return {
    temp: (prefix: string) => {
      const d = mkdtempSync(join(tmpdir(), prefix));
      made.push(d);
      return d;
    },
    keep: (d: string) => made.push(d),
    cleanup: () => {
      for (const d of made) rmSync(d, { recursive: true, force: true });
    },
  };
}
