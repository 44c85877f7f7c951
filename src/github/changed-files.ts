/** The files a change touches: from the pull request's listing in the API, else from git between base and head. */
import { execa } from "execa";
import { findMergeBase } from "../detect/base.js";
import type { Logger } from "../model/settings.js";
import { type GitHubClient, httpStatus } from "./client.js";
import type { ActionContext, RunPlan } from "./context.js";
import { MAX_PULL_FILES, PULL_FILES_PER_PAGE } from "./limits.js";

/** Status vocabulary of GitHub's `pulls.listFiles` (git statuses are mapped onto it). */
export type ChangedFileStatus =
  | "added"
  | "removed"
  | "modified"
  | "renamed"
  | "copied"
  | "changed"
  | "unchanged";

export interface ChangedFile {
  /** Repository-relative, POSIX separators: the path at head (for removals, the removed path). */
  path: string;
  status: ChangedFileStatus;
  /** For renames and copies: the path at base. */
  previousPath?: string;
}

export interface ChangedFilesResult {
  files: ChangedFile[];
  /** False when GitHub's 3,000-file cap may have cut the list: use `gitChangedFiles` instead. */
  complete: boolean;
}

/** Every path a change touches (both sides of a rename): what `Settings.changedFiles` wants. */
export function changedPaths(files: ChangedFile[]): string[] {
  return [...new Set(files.flatMap((f) => (f.previousPath ? [f.previousPath, f.path] : [f.path])))].sort();
}

/** The files of a pull request via `pulls.listFiles`, all pages. */
export async function listChangedFiles(
  client: GitHubClient,
  pr: {
    owner: string;
    repo: string;
    pullNumber: number /** `pull_request.changed_files` from the event. */;
    expectedCount?: number;
  },
): Promise<ChangedFilesResult> {
  const entries = await client.paginate(client.rest.pulls.listFiles, {
    owner: pr.owner,
    repo: pr.repo,
    pull_number: pr.pullNumber,
    per_page: PULL_FILES_PER_PAGE,
  });
  const files = entries.map((e) => ({
    path: e.filename,
    status: e.status,
    ...(e.previous_filename ? { previousPath: e.previous_filename } : {}),
  }));
  const complete =
    files.length < MAX_PULL_FILES && (pr.expectedCount === undefined || files.length >= pr.expectedCount);
  return { files, complete };
}

async function git(repoDir: string, args: string[]): Promise<string> {
  const r = await execa("git", args, { cwd: repoDir, reject: false, stripFinalNewline: false });
  if (r.exitCode !== 0)
    throw new GitError(`git ${args.join(" ")} failed in ${repoDir}: ${String(r.stderr).trim()}`);
  return String(r.stdout);
}

class GitError extends Error {
  override name = "GitError";
}

/**
 * Files changed between the merge base of `baseSha` and `headSha` (what a PR shows), from local git. A shallow
 * checkout is deepened until both commits and a merge base exist (`findMergeBase`).
 */
export async function gitChangedFiles(
  repoDir: string,
  baseSha: string,
  headSha: string,
  options: { remote?: string; log?: (message: string) => void } = {},
): Promise<ChangedFile[]> {
  const mergeBase = await findMergeBase(repoDir, baseSha, headSha, options);
  const out = await git(repoDir, ["diff", "--name-status", "-z", "-M", "--no-color", mergeBase.sha, headSha]);
  return parseNameStatus(out);
}

/** Those of `paths` (absolute) that git tracks in `repoDir`; empty when `repoDir` is no git checkout. */
export async function committedFiles(repoDir: string, paths: string[]): Promise<string[]> {
  if (paths.length === 0) return [];
  const r = await execa("git", ["ls-files", "-z", "--full-name", "--", ...paths], {
    cwd: repoDir,
    reject: false,
  });
  return r.exitCode === 0 ? String(r.stdout).split("\0").filter(Boolean) : [];
}

/** Parses `git diff --name-status -z` output. */
export function parseNameStatus(out: string): ChangedFile[] {
  const tokens = out.split("\0");
  const files: ChangedFile[] = [];
  for (let i = 0; i < tokens.length; ) {
    const code = tokens[i++];
    if (!code) continue;
    const kind = code[0];
    if (kind === "R" || kind === "C") {
      const from = tokens[i++]!;
      const to = tokens[i++]!;
      files.push({ path: to, status: kind === "R" ? "renamed" : "copied", previousPath: from });
    } else {
      const path = tokens[i++]!;
      const status: ChangedFileStatus =
        kind === "A" ? "added" : kind === "D" ? "removed" : kind === "M" ? "modified" : "changed";
      files.push({ path, status });
    }
  }
  return files;
}

/** The files a change touches: the PR's listing from the API, else (beyond its cap, or a merge group) from git. */
export async function changedFilesOf(
  plan: Extract<RunPlan, { kind: "pull-request" | "merge-group" }>,
  ctx: ActionContext,
  repoDir: string,
  client: GitHubClient | undefined,
  logger: Logger,
): Promise<string[]> {
  if (plan.kind === "pull-request" && client) {
    try {
      const r = await listChangedFiles(client, {
        owner: ctx.owner,
        repo: ctx.repo,
        pullNumber: plan.pullNumber,
        expectedCount: plan.changedFilesCount,
      });
      if (r.complete) return changedPaths(r.files);
      logger.info(
        `the PR lists ${plan.changedFilesCount ?? "≥ 3000"} files, more than the API returns; reading the change from git`,
      );
    } catch (e) {
      logger.warn(`pulls.listFiles failed (${httpStatus(e) ?? "network"}); reading the change from git`);
    }
  }
  return changedPaths(
    await gitChangedFiles(repoDir, plan.baseSha, plan.headSha, { log: (m) => logger.info(m) }),
  );
}
