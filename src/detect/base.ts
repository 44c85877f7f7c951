import { execFileSync } from "node:child_process";
import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type BaseSource, InputError } from "../model/index.js";

/** A checked-out base to evaluate, and how to let go of it. */
export interface BaseCheckout {
  dir: string;
  ref?: string;
  sha?: string;
  dispose(): void;
}

/** The commit a base ref names, resolved once; an unknown ref is a usage error that says how to fetch it. */
export function resolveBaseCommit(repoDir: string, ref: string): string {
  try {
    return execFileSync("git", ["-C", repoDir, "rev-parse", "--verify", "--quiet", `${ref}^{commit}`], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
    }).trim();
  } catch {
    throw new InputError(
      `base ref \`${ref}\` is not a commit in ${repoDir} (in Actions, check out with fetch-depth: 0 or fetch the base)`,
    );
  }
}

/**
 * Makes the PR base available as a directory: `--base-dir` as is, `--base REF` as a detached git worktree of
 * the head repository (so the head checkout is never touched).
 */
export function checkoutBase(repoDir: string, base: BaseSource): BaseCheckout {
  if (base.kind === "dir") return { dir: base.dir, dispose: () => {} };
  const git = (...args: string[]) =>
    execFileSync("git", ["-C", repoDir, ...args], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
    }).trim();
  const sha = base.sha ?? resolveBaseCommit(repoDir, base.ref);
  const parent = mkdtempSync(join(tmpdir(), "skillgate-base-"));
  const dir = join(parent, "base");
  git("worktree", "add", "--detach", "--force", dir, sha);
  return {
    dir,
    ref: base.ref,
    sha,
    dispose() {
      try {
        git("worktree", "remove", "--force", dir);
      } catch {
        // Fall through: the folder is removed below and `git worktree prune` forgets it later.
      }
      rmSync(parent, { recursive: true, force: true });
    },
  };
}

/** The head commit, when the repository is a git checkout. */
export function headSha(repoDir: string): string | undefined {
  try {
    const git = (...args: string[]) =>
      execFileSync("git", ["-C", repoDir, ...args], {
        encoding: "utf8",
        stdio: ["ignore", "pipe", "ignore"],
      }).trim();
    // A folder inside another repository (like the bundled demo) is not that repository's HEAD.
    if (realpathSync(git("rev-parse", "--show-toplevel")) !== realpathSync(repoDir)) return undefined;
    return git("rev-parse", "HEAD");
  } catch {
    return undefined;
  }
}
