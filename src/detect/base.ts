import { execFile, execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type BaseSource, InputError } from "../model/index.js";
import { materializeTree } from "./base-tree.js";

/** A shallow clone is deepened this many commits at a time, this many times, then unshallowed. */
const GIT_DEEPEN_STEP = 50;
const GIT_DEEPEN_ATTEMPTS = 6;

/** `git` in `repoDir`: stdout on success, or the exit code and stderr (never throws). */
function gitAsync(repoDir: string, args: string[]): Promise<{ ok: boolean; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      "git",
      ["-C", repoDir, ...args],
      { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => resolve({ ok: !error, stdout: String(stdout), stderr: String(stderr) }),
    );
  });
}

/** The base a pull request is compared with: the merge base of head and the base ref, as the PR's diff shows it. */
export interface MergeBase {
  /** The merge base commit: what the base arm runs and the policy is read from. */
  sha: string;
  /** The commit the base ref names now (the base branch's tip); equal to `sha` when head is up to date with it. */
  tip: string;
}

/**
 * The merge base of `head` and `base` (refs or SHAs) in `repoDir`. Commits missing from the clone are fetched
 * from `remote`, and a shallow clone is deepened (`git fetch --deepen`) step by step, then unshallowed, until a
 * merge base exists. Throws an InputError that says what to do when there is none.
 */
export async function findMergeBase(
  repoDir: string,
  base: string,
  head: string,
  options: { remote?: string; log?: (message: string) => void } = {},
): Promise<MergeBase> {
  const remote = options.remote ?? "origin";
  const log = options.log ?? (() => {});
  const commitOf = async (ref: string) => {
    const r = await gitAsync(repoDir, ["rev-parse", "--verify", "--quiet", `${ref}^{commit}`]);
    return r.ok ? r.stdout.trim() : undefined;
  };
  const fetchHint = `check out with \`fetch-depth: 0\` (actions/checkout), or fetch it: git fetch ${remote} ${base}`;
  const resolved: string[] = [];
  for (const ref of [base, head]) {
    let sha = await commitOf(ref);
    if (!sha && /^[0-9a-f]{40}$/i.test(ref)) {
      log(`fetching ${ref.slice(0, 12)} from ${remote}`);
      await gitAsync(repoDir, ["fetch", "--no-tags", `--depth=${GIT_DEEPEN_STEP}`, remote, ref]);
      sha = await commitOf(ref);
    }
    if (!sha)
      throw new InputError(
        `${ref === base ? "base" : "head"} \`${ref}\` is not a commit in ${repoDir}: ${fetchHint}`,
      );
    resolved.push(sha);
  }
  const [tip, headSha] = resolved as [string, string];
  for (let attempt = 0; ; attempt++) {
    const r = await gitAsync(repoDir, ["merge-base", tip, headSha]);
    if (r.ok) return { sha: r.stdout.trim(), tip };
    const shallow =
      (await gitAsync(repoDir, ["rev-parse", "--is-shallow-repository"])).stdout.trim() === "true";
    if (!shallow)
      throw new InputError(
        `base \`${base}\` (${tip.slice(0, 12)}) and head ${headSha.slice(0, 12)} have no common ancestor in ${repoDir}: there is no merge base to compare with (is the base the branch this head was made from?)`,
      );
    const args =
      attempt < GIT_DEEPEN_ATTEMPTS
        ? ["fetch", "--no-tags", `--deepen=${GIT_DEEPEN_STEP}`, remote, tip, headSha]
        : ["fetch", "--no-tags", "--unshallow", remote, tip, headSha];
    if (attempt > GIT_DEEPEN_ATTEMPTS)
      throw new InputError(
        `no merge base of base ${tip.slice(0, 12)} and head ${headSha.slice(0, 12)} in the shallow clone ${repoDir}, and it cannot be deepened from \`${remote}\`: ${fetchHint}`,
      );
    log(
      attempt < GIT_DEEPEN_ATTEMPTS
        ? `no merge base in the shallow clone yet; deepening by ${GIT_DEEPEN_STEP} commits (attempt ${attempt + 1})`
        : "no merge base after deepening; fetching the full history",
    );
    const fetched = await gitAsync(repoDir, args);
    if (!fetched.ok)
      throw new InputError(
        `no merge base of base ${tip.slice(0, 12)} and head ${headSha.slice(0, 12)} in the shallow clone ${repoDir}, and \`git ${args.join(" ")}\` failed (${fetched.stderr.trim().split("\n").pop()}): ${fetchHint}`,
      );
  }
}

/** A checked-out base to evaluate, and how to let go of it. */
export interface BaseCheckout {
  dir: string;
  ref?: string;
  sha?: string;
  /**
   * Set when `dir` holds only the base files the run reads (`SparseBase`), not the whole commit: every other file
   * of the base is head's, and discovery reuses head's records for it.
   */
  sparse?: { paths: number; files: number };
  dispose(): void;
}

/** The base files a run reads, in two reads: `paths`, then what `more` finds in them (see `base-needs.ts`). */
export interface SparseBase {
  paths: readonly string[];
  more(read: (rel: string) => string | undefined): string[];
}

/** The commit a base ref names, resolved once; an unknown ref is a usage error that says how to fetch it. */
function resolveBaseCommit(repoDir: string, ref: string): string {
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
export function checkoutBase(repoDir: string, base: BaseSource, sparse?: SparseBase): BaseCheckout {
  if (base.kind === "dir") return { dir: base.dir, dispose: () => {} };
  if (sparse)
    return sparseCheckout(repoDir, base.sha ?? resolveBaseCommit(repoDir, base.ref), base.ref, sparse);
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

/**
 * The base files `sparse` names, read from git's objects into a temporary folder: no worktree, no index (see
 * base-tree.ts). A path already written is not asked for again.
 */
function sparseCheckout(repoDir: string, sha: string, ref: string, sparse: SparseBase): BaseCheckout {
  const parent = mkdtempSync(join(tmpdir(), "skillgate-base-"));
  const dir = join(parent, "base");
  const dispose = () => rmSync(parent, { recursive: true, force: true });
  try {
    mkdirSync(dir);
    const first = materializeTree(repoDir, sha, sparse.paths, dir);
    const covered = (p: string) => sparse.paths.some((q) => p === q || p.startsWith(`${q}/`));
    const more = sparse
      .more((rel) => {
        try {
          return readFileSync(join(dir, rel), "utf8");
        } catch {
          return undefined;
        }
      })
      .filter((p) => !covered(p));
    const second = materializeTree(repoDir, sha, more, dir);
    const files = first.files + first.links + second.files + second.links;
    return { dir, ref, sha, sparse: { paths: sparse.paths.length + more.length, files }, dispose };
  } catch (e) {
    dispose();
    throw e;
  }
}

/**
 * The files a working tree changes against `sha` (the merge base), as a PR's file list names them: tracked files
 * that differ (both sides of a rename), and untracked files git does not ignore, relative to `repoDir`. Undefined
 * when git cannot tell (not a checkout, `repoDir` below the repository's top, an unknown commit).
 */
export function changedFilesSince(repoDir: string, sha: string): string[] | undefined {
  const git = (...args: string[]) =>
    execFileSync("git", ["-C", repoDir, ...args], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
      maxBuffer: 256 * 1024 * 1024,
    });
  try {
    // Paths are the top's: a folder inside a repository reads its base whole.
    if (git("rev-parse", "--show-prefix").trim() !== "") return undefined;
    const diff = git("diff", "--name-only", "-z", "--no-renames", "--no-ext-diff", sha, "--");
    const untracked = git("ls-files", "-z", "--others", "--exclude-standard");
    return [...new Set([...diff.split("\0"), ...untracked.split("\0")].filter(Boolean))].sort();
  } catch {
    return undefined;
  }
}
