/**
 * Issue #33 item 4: the action started as a non-root runner user with password-less sudo (a GitHub-hosted
 * runner's `runner`) reaches `uid+namespaces`: it re-runs itself as root through `sudo -n`, untrusted code still runs
 * under a uid of its own, the runner's cancellation still reaches it, and the runner user gets back what it made.
 *
 * The runner user: this process itself when it is not root and sudo answers without a password; as root (CI), a
 * user made here with the hosted runners' sudoers line (`NOPASSWD:ALL`, under the system's own `env_reset`,
 * `secure_path` and `use_pty`). On CI (`CI=true`) a missing sudo fails instead of skipping (.ci/run installs it).
 */
import { execFileSync } from "node:child_process";
import { chownSync, existsSync, lstatSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { chmod, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { execa } from "execa";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import {
  elevationWanted,
  findSudo,
  giveBack,
  invokingUser,
  sudoWithoutPassword,
} from "../../src/github/elevate.js";
import type { Report } from "../../src/model/index.js";
import { readFileCommand, stepEnvironment } from "../support/actions-runner.js";
import { bundledDist } from "../support/dist.js";
import { type GitHubApi, startGitHubApi } from "../support/github-api.js";

const ROOT = join(import.meta.dirname, "../..");
const RUNNER_USER = "skillgate-runner";

describe("elevationWanted", () => {
  const facts = { platform: "linux" as const, uid: 1001, env: {}, sudo: "/usr/bin/sudo" };
  it("elevates a non-root evaluating action on Linux when sudo is there", () => {
    expect(elevationWanted(facts)).toEqual({ elevate: true, sudo: "/usr/bin/sudo" });
    expect(elevationWanted({ ...facts, env: { INPUT_MODE: "evaluate" } }).elevate).toBe(true);
  });
  it("not as root, without sudo, in report mode, nor when the operator lowered the level", () => {
    expect(elevationWanted({ ...facts, uid: 0 }).elevate).toBe(false);
    expect(elevationWanted({ ...facts, sudo: undefined }).elevate).toBe(false);
    expect(elevationWanted({ ...facts, platform: "darwin" }).elevate).toBe(false);
    expect(elevationWanted({ ...facts, env: { INPUT_MODE: "report" } }).elevate).toBe(false);
    expect(elevationWanted({ ...facts, env: { SKILLGATE_ISOLATION: "namespaces" } }).elevate).toBe(false);
    expect(elevationWanted({ ...facts, env: { SKILLGATE_ISOLATION: "none" } }).elevate).toBe(false);
  });
});

describe("invokingUser", () => {
  it("takes plain ids sudo set, never root's or garbage", () => {
    expect(invokingUser({ SUDO_UID: "1001", SUDO_GID: "118" })).toEqual({ uid: 1001, gid: 118 });
    expect(invokingUser({ SUDO_UID: "0", SUDO_GID: "0" })).toBeUndefined();
    expect(invokingUser({ SUDO_UID: "1e3", SUDO_GID: "1" })).toBeUndefined();
    expect(invokingUser({})).toBeUndefined();
  });
});

const scratch: string[] = [];
async function scratchDir(prefix: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  scratch.push(dir);
  return dir;
}
afterAll(async () => {
  await Promise.all(scratch.map((d) => rm(d, { recursive: true, force: true })));
});

describe.runIf(process.getuid?.() === 0)("giveBack", () => {
  it("gives root's new entries to the user, and nothing else: no older file, no other uid's, no link target", async () => {
    const dir = await scratchDir("sg-giveback-");
    const outside = join(await scratchDir("sg-giveback-out-"), "target");
    writeFileSync(join(dir, "old"), "");
    writeFileSync(outside, "");
    const since = Date.now() + 1_000;
    // the entries the "elevated run" makes, born after `since`
    await new Promise((r) => setTimeout(r, 1_100));
    await mkdir(join(dir, "made/deeper"), { recursive: true });
    writeFileSync(join(dir, "made/deeper/report.json"), "{}");
    writeFileSync(join(dir, "sandbox-file"), "");
    chownSync(join(dir, "sandbox-file"), 1_600_000_123, 1_600_000_123);
    execFileSync("ln", ["-s", outside, join(dir, "link")]);
    const given = giveBack([dir], { uid: 4242, gid: 4343 }, since);
    const owner = (p: string) => `${lstatSync(join(dir, p)).uid}:${lstatSync(join(dir, p)).gid}`;
    expect([owner("made"), owner("made/deeper"), owner("made/deeper/report.json"), owner("link")]).toEqual([
      "4242:4343",
      "4242:4343",
      "4242:4343",
      "4242:4343",
    ]);
    expect([owner("old"), owner("sandbox-file")]).toEqual(["0:0", "1600000123:1600000123"]);
    expect(lstatSync(outside).uid).toBe(0);
    expect(given).toBe(4);
  });
});

/** The runner user: uid and gid, or why there is none on this machine. */
function runnerUser(): { uid: number; gid: number } | string {
  const sudo = findSudo();
  if (!sudo) return "sudo is not installed (apt-get install sudo)";
  if (process.getuid?.() !== 0) return { uid: process.getuid!(), gid: process.getgid!() };
  const id = (flag: string) =>
    Number(execFileSync("id", [flag, RUNNER_USER], { encoding: "utf8", stdio: "pipe" }).trim());
  try {
    id("-u");
  } catch {
    execFileSync("useradd", ["--no-create-home", "--shell", "/bin/sh", RUNNER_USER]);
  }
  const sudoers = `/etc/sudoers.d/${RUNNER_USER}`;
  if (!existsSync(sudoers)) {
    writeFileSync(sudoers, `${RUNNER_USER} ALL=(ALL) NOPASSWD:ALL\n`, { mode: 0o440 });
    execFileSync("visudo", ["-cf", sudoers]);
  }
  return { uid: id("-u"), gid: id("-g") };
}

const SKILL = (body: string) =>
  `---\nname: split-cents\ndescription: Split a money total held in integer cents among people so no cent is lost.\n---\n# Splitting cents\n\n${body}\n`;
const GOOD = "Use the largest remainder method: floor every quota, then hand the missing cents out.";
const BAD = "Divide the total by the number of people and round each share.";
/** Follows the installed skill, writes its code; reports the uid it ran as (never the runner user's, never root). */
const AGENT = `#!/usr/bin/env node
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
readFileSync(0, "utf8");
const path = ".agents/skills/split-cents/SKILL.md";
const skill = existsSync(path) ? readFileSync(path, "utf8") : "";
if (skill.includes("TAKES FOREVER")) await new Promise((r) => setTimeout(r, 30_000));
const good = skill.includes("largest remainder");
mkdirSync("src", { recursive: true });
writeFileSync("src/split.js", good
  ? "export function allocate(t, n) { const b = Math.floor(t / n); let r = t - b * n; return Array.from({ length: n }, () => b + (r-- > 0 ? 1 : 0)); }\\n"
  : "export function allocate(t, n) { return Array.from({ length: n }, () => Math.round(t / n)); }\\n");
process.stdout.write(JSON.stringify({
  output: (good ? "334 + 333 + 333" : "333 + 333 + 333") + " (of 1000 cents) uid=" + process.getuid(),
  skillsActivated: skill ? ["split-cents"] : [],
}));
`;
/** The case, with an assertion that the agent ran under neither `runnerUid` nor root. */
const CASE = (runnerUid: number) => `id: split
prompt: Split 1000 cents among 3 people and tell me the parts.
assertions:
  - id: sandbox-uid
    type: regex
    value: "uid=(?!0$|${runnerUid}$)[0-9]+$"
  - id: D:no-lost-cent
    type: not-one-of
    extract: first-number
    values: [333]
  - id: conserves
    type: gate
    gate: conservation
    module: src/split.js
    export: allocate
`;
const CASE_FILE = ".agent/evals/split-cents/prompts/split.yaml";
const GIT_ENV = {
  GIT_AUTHOR_NAME: "t",
  GIT_AUTHOR_EMAIL: "t@example.test",
  GIT_COMMITTER_NAME: "t",
  GIT_COMMITTER_EMAIL: "t@example.test",
  GIT_CONFIG_NOSYSTEM: "1",
};

/** Every entry below `dir` not owned by `uid` (a file root left behind), as paths relative to it. */
function foreignEntries(dir: string, uid: number): string[] {
  const out: string[] = [];
  const walk = (p: string) => {
    const st = lstatSync(p);
    if (st.uid !== uid) out.push(p.slice(dir.length + 1) || ".");
    if (st.isDirectory()) for (const n of readdirSync(p)) walk(join(p, n));
  };
  walk(dir);
  return out;
}

describe("the action as a non-root runner user with password-less sudo", () => {
  let user: { uid: number; gid: number } | string;
  let dist: string;
  let api: GitHubApi | undefined;
  beforeAll(async () => {
    user = runnerUser();
    if (typeof user === "string") return;
    if (process.getuid?.() !== 0 && !(await sudoWithoutPassword(findSudo()!)))
      user = "sudo asks this user for a password";
    if (typeof user === "string") return;
    dist = await bundledDist(); // its folders are world-readable: the runner user reads it
  }, 180_000);
  afterEach(async () => {
    await api?.close();
    api = undefined;
  });

  /** A PR's checkout and runner files, all the runner user's; the loopback API. */
  async function prepare(headBody: string) {
    const u = user as { uid: number; gid: number };
    const dir = await scratchDir("sg-elevate-repo-");
    const put = async (file: string, text: string) => {
      await mkdir(dirname(join(dir, file)), { recursive: true });
      await writeFile(join(dir, file), text);
    };
    const git = (...args: string[]) =>
      execFileSync("git", args, { cwd: dir, env: { ...process.env, ...GIT_ENV }, encoding: "utf8" }).trim();
    git("init", "-q", "-b", "main");
    await put(
      ".skillgate.yml",
      "agent:\n  adapter: command\n  command: ./tools/agent.mjs\ntrials: 3\nverdict:\n  baseDepth: 6\n",
    );
    await put("tools/agent.mjs", AGENT);
    await chmod(join(dir, "tools/agent.mjs"), 0o755);
    await put(".claude/skills/split-cents/SKILL.md", SKILL(GOOD));
    await put(".agent/evals/split-cents/meta.json", JSON.stringify({ trials: 3, thresholds: {} }));
    await put(CASE_FILE, CASE(u.uid));
    git("add", "-A");
    git("commit", "-qm", "base");
    const baseSha = git("rev-parse", "HEAD");
    git("checkout", "-qb", "feature");
    await put(".claude/skills/split-cents/SKILL.md", SKILL(headBody));
    git("commit", "-qam", "edit the skill");
    const headSha = git("rev-parse", "HEAD");
    const payload = JSON.parse(
      readFileSync(join(ROOT, "test/fixtures/github-events/pull_request.synchronize.json"), "utf8"),
    );
    payload.pull_request.head.sha = headSha;
    payload.pull_request.base.sha = baseSha;
    payload.pull_request.changed_files = 1;
    const [owner, repo] = [payload.repository.owner.login as string, payload.repository.name as string];
    api = await startGitHubApi({
      owner,
      repo,
      pullFiles: {
        [payload.number]: [{ filename: ".claude/skills/split-cents/SKILL.md", status: "modified" }],
      },
    });
    const { env, temp } = await stepEnvironment({
      dist,
      workspace: dir,
      eventName: "pull_request",
      payload,
      apiUrl: api.url,
      repository: `${owner}/${repo}`,
      sha: "9".repeat(40),
    });
    scratch.push(temp);
    // The runner's files are the runner user's, as on a hosted runner.
    execFileSync("chown", ["-R", `${u.uid}:${u.gid}`, dir, temp]);
    return { dir, temp, env, headSha, api };
  }

  const start = (job: Awaited<ReturnType<typeof prepare>>) => {
    const u = user as { uid: number; gid: number };
    return execa(process.execPath, [join(dist, "index.js")], {
      cwd: job.dir,
      env: job.env,
      extendEnv: false,
      reject: false,
      timeout: 240_000,
      ...(process.getuid?.() === 0 ? { uid: u.uid, gid: u.gid } : {}),
    });
  };

  it("reaches uid+namespaces without allowWeaker, confines the agent under a uid of its own, and leaves the runner user's files its own", async (ctx) => {
    if (typeof user === "string") {
      if (process.env.CI === "true") expect.fail(user);
      ctx.skip();
    }
    const u = user as { uid: number; gid: number };
    const job = await prepare(BAD);
    const r = await start(job);
    if (r.exitCode !== 1) console.log(r.stdout, r.stderr);
    const report = JSON.parse(readFileSync(join(job.dir, "skillgate-report.json"), "utf8")) as Report;
    expect(report.isolation?.level).toBe("uid+namespaces");
    expect(report.isolation?.weakerAccepted).toBeUndefined();
    expect(report.isolation?.reason).toMatch(/through sudo/);
    // the regression is caught: the agent and the gate child ran (confined) and judged the head's code
    expect(report.verdict).toBe("fail");
    const newRoots = report.skills.flatMap((s) => s.newRoots.map((n) => n.id));
    expect(newRoots).toContain("split/D:no-lost-cent");
    expect(job.api.checkRuns.map((c) => [c.head_sha, c.conclusion])).toEqual([[job.headSha, "failure"]]);
    expect((await readFileCommand(job.env.GITHUB_OUTPUT!)).verdict).toBe("fail");
    // the agent ran as neither the runner user nor root: its assertion held in every trial of both arms
    expect(report.skills.flatMap((s) => s.roots.map((x) => x.id))).not.toContain("split/sandbox-uid");
    // nothing root-owned left where the runner user must clean up; its git still works in its checkout
    expect(foreignEntries(job.dir, u.uid)).toEqual([]);
    expect(foreignEntries(job.temp, u.uid)).toEqual([]);
    expect(r.exitCode).toBe(1);
  }, 300_000);

  it("the runner's cancellation (SIGINT to the step) reaches the root child: the check run is completed as cancelled", async (ctx) => {
    if (typeof user === "string") {
      if (process.env.CI === "true") expect.fail(user);
      ctx.skip();
    }
    const job = await prepare(`${BAD} TAKES FOREVER`);
    const child = start(job);
    await vi.waitFor(() => expect(readFileSync(job.env.GITHUB_STATE!, "utf8")).toContain("check-run<<"), {
      timeout: 120_000,
      interval: 100,
    });
    child.kill("SIGINT");
    const r = await child;
    expect(job.api.checkRuns.map((c) => [c.head_sha, c.status, c.conclusion])).toEqual([
      [job.headSha, "completed", "cancelled"],
    ]);
    expect(r.exitCode).toBe(130);
  }, 300_000);
});
