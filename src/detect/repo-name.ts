import { execFileSync } from "node:child_process";
import { realpathSync } from "node:fs";

/**
 * The repository's name, which a skill at the repository root must carry (the spec wants a skill named after
 * its folder, and a root skill's folder is the repository): from the git remote (`origin`, else the first) when
 * `repoDir` is the top of a git work tree, else from `GITHUB_REPOSITORY` when `repoDir` is the Actions
 * workspace. Undefined when neither says (a folder that is no checkout has no name to check against).
 */
export function repositoryName(repoDir: string, env: NodeJS.ProcessEnv): string | undefined {
  return fromGitRemote(repoDir) ?? fromActions(repoDir, env);
}

/** `owner/name`, `https://host/owner/name.git`, `git@host:owner/name.git` → `name`. */
function nameFromRemote(url: string): string | undefined {
  const m = /([^/:\\]+?)(?:\.git)?\/?$/.exec(url.trim());
  return m?.[1] || undefined;
}

function fromGitRemote(repoDir: string): string | undefined {
  const url = remoteUrl(repoDir);
  return url ? nameFromRemote(url) : undefined;
}

/** The URL of the `origin` remote (else the first) when `repoDir` is the top of a git work tree. */
function remoteUrl(repoDir: string): string | undefined {
  try {
    const git = (...args: string[]) =>
      execFileSync("git", ["-C", repoDir, ...args], {
        encoding: "utf8",
        stdio: ["ignore", "pipe", "ignore"],
      }).trim();
    // A folder inside another repository (a fixture, the bundled demo) is not that repository.
    if (realpathSync(git("rev-parse", "--show-toplevel")) !== realpathSync(repoDir)) return undefined;
    const remotes = git("remote").split("\n").filter(Boolean);
    const remote = remotes.includes("origin") ? "origin" : remotes[0];
    return remote ? git("remote", "get-url", remote) : undefined;
  } catch {
    return undefined;
  }
}

function fromActions(repoDir: string, env: NodeJS.ProcessEnv): string | undefined {
  if (!env.GITHUB_REPOSITORY || !env.GITHUB_WORKSPACE) return undefined;
  try {
    if (realpathSync(env.GITHUB_WORKSPACE) !== realpathSync(repoDir)) return undefined;
  } catch {
    return undefined;
  }
  return nameFromRemote(env.GITHUB_REPOSITORY);
}

/**
 * Where the page links a file of `repoDir` at `sha`: `https://host/owner/repo/blob/<sha>` from the Actions
 * environment when it names the repository, else from the git remote when it is a GitHub-style URL and `repoDir`
 * is the top of the work tree. Undefined when neither says, or the commit is unknown.
 */
export function githubBlobBase(
  repoDir: string,
  sha: string | undefined,
  env: NodeJS.ProcessEnv,
): string | undefined {
  if (!sha || !/^[0-9a-f]{7,64}$/.test(sha)) return undefined;
  if (
    env.GITHUB_REPOSITORY &&
    env.GITHUB_SERVER_URL &&
    realpathOr(env.GITHUB_WORKSPACE) === realpathOr(repoDir)
  )
    return `${env.GITHUB_SERVER_URL.replace(/\/+$/, "")}/${env.GITHUB_REPOSITORY}/blob/${sha}`;
  const url = remoteUrl(repoDir);
  const m =
    url &&
    /^(?:https:\/\/(?:[^@/]+@)?|git@|ssh:\/\/git@)(github\.com|[\w.-]+\.ghe\.com)[:/]([\w.-]+\/[\w.-]+?)(?:\.git)?\/?$/.exec(
      url,
    );
  return m ? `https://${m[1]}/${m[2]}/blob/${sha}` : undefined;
}

function realpathOr(p: string | undefined): string | undefined {
  if (!p) return undefined;
  try {
    return realpathSync(p);
  } catch {
    return undefined;
  }
}
