/**
 * End to end: the bundled action (`dist/index.js`) started as the Actions runner starts it — `INPUT_*` with
 * action.yml's defaults applied, a real `pull_request` payload at GITHUB_EVENT_PATH, GITHUB_API_URL on a
 * loopback GitHub API that validates every request against GitHub's OpenAPI description, file commands for
 * outputs and the job summary — on a temp git repository whose head commit regresses a skill. The agent is a
 * small deterministic `command` agent that follows the skill it finds installed.
 */
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { execa } from "execa";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { parse } from "yaml";
import { bundledDist } from "../support/dist.js";
import { type GitHubApi, startGitHubApi } from "../support/github-api.js";
import { ensureNode24 } from "../support/node24.js";

const ROOT = join(import.meta.dirname, "../..");
const GIT_ENV = {
  GIT_AUTHOR_NAME: "t",
  GIT_AUTHOR_EMAIL: "t@example.test",
  GIT_COMMITTER_NAME: "t",
  GIT_COMMITTER_EMAIL: "t@example.test",
  GIT_CONFIG_NOSYSTEM: "1",
};

const SKILL = (body: string) => `---
name: split-cents
description: Split a money total held in integer cents among people so no cent is lost. Use when splitting a bill or allocating a total.
metadata:
  version: "1.2"
---
# Splitting cents

${body}
`;
const GOOD_BODY =
  "Use the largest remainder method: floor every quota, then hand the missing cents to the largest remainders.";
const BAD_BODY = "Divide the total by the number of people and round each share.";

/**
 * Answers like a model that follows the installed skill; without the largest-remainder rule it loses a cent. A shell
 * script, not a Node one: a Node start-up costs ~0.15 s of CPU per trial on the 2-core test machine (what it prints
 * and the module it writes are byte for byte what the Node agent it replaced gave).
 */
const AGENT = `#!/bin/sh
cat >/dev/null
skill=.agents/skills/split-cents/SKILL.md
# A skill that makes the agent work for long: the job is cancelled meanwhile (bounded, so nothing lingers).
if grep -q "TAKES FOREVER" "$skill" 2>/dev/null; then sleep 30; fi
mkdir -p src
# The code it writes: base share plus one unit for the first (total mod n) parts, or each share rounded.
if grep -q "largest remainder" "$skill" 2>/dev/null; then
  cat >src/split.js <<'JS'
export function allocate(total, n) {
  if (!Number.isSafeInteger(total) || total < 0) throw new RangeError('bad total');
  if (!Number.isInteger(n) || n < 1) throw new RangeError('bad parts');
  const base = Math.floor(total / n);
  let rest = total - base * n;
  return Array.from({ length: n }, () => base + (rest-- > 0 ? 1 : 0));
}
JS
  output="Parts: 334 + 333 + 333 (of 1000 cents)"
else
  cat >src/split.js <<'JS'
export function allocate(total, n) {
  return Array.from({ length: n }, () => Math.round(total / n));
}
JS
  output="Parts: 333 + 333 + 333 (of 1000 cents)"
fi
activated=; [ -s "$skill" ] && activated='"split-cents"'
printf '{"output":"%s","skillsActivated":[%s]}' "$output" "$activated"
`;

const CASE = `id: split-1000-3
prompt: Split 1000 cents among 3 people and tell me the parts.
assertions:
  - id: mentions-total
    type: contains
    value: "1000"
  - id: D:no-lost-cent
    type: not-one-of
    extract: first-number
    values: [333]
`;
/** Appended when the run should also exercise a gate (sandboxed child process + the native esbuild dist ships). */
const GATE_ASSERTION = `  - id: split-conserves
    type: gate
    gate: conservation
    module: src/split.js
    export: allocate
`;
/** 1-based line of the discriminator in CASE: where the new root must be annotated. */
const DISCRIMINATOR_LINE = CASE.split("\n").findIndex((l) => l.includes("D:no-lost-cent")) + 1;
/** 1-based line of the gate assertion: the code the agent wrote with the head skill loses cents. */
const GATE_LINE = (CASE + GATE_ASSERTION).split("\n").findIndex((l) => l.includes("id: split-conserves")) + 1;
const SUITE_FILE = ".agent/evals/split-cents/prompts/split-1000-3.yaml";

async function put(dir: string, file: string, text: string) {
  await mkdir(dirname(join(dir, file)), { recursive: true });
  await writeFile(join(dir, file), text);
}
const git = async (cwd: string, ...args: string[]) =>
  (await execa("git", args, { cwd, env: GIT_ENV })).stdout.trim();

/** Temp directories to remove after the run. */
const scratch: string[] = [];
async function scratchDir(prefix: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  scratch.push(dir);
  return dir;
}
afterAll(async () => {
  await Promise.all(scratch.map((d) => rm(d, { recursive: true, force: true })));
});

async function makeRepo(
  withGate: boolean,
  headBody = BAD_BODY,
): Promise<{ dir: string; baseSha: string; headSha: string }> {
  const dir = await scratchDir("sg-e2e-repo-");
  await git(dir, "init", "-q", "-b", "main");
  await put(
    dir,
    ".skillgate.yml",
    "agent:\n  adapter: command\n  command: ./tools/agent.sh\ntrials: 3\ncache:\n  enabled: false\nverdict:\n  baseDepth: 6\n",
  );
  await put(dir, "tools/agent.sh", AGENT);
  await chmod(join(dir, "tools/agent.sh"), 0o755);
  await put(dir, ".claude/skills/split-cents/SKILL.md", SKILL(GOOD_BODY));
  await put(
    dir,
    ".agent/evals/split-cents/meta.json",
    JSON.stringify({ skillVersion: "1.2", suiteVersion: "1", trials: 3, thresholds: {} }, null, 2),
  );
  await put(dir, SUITE_FILE, withGate ? CASE + GATE_ASSERTION : CASE);
  await git(dir, "add", "-A");
  await git(dir, "commit", "-qm", "base");
  const baseSha = await git(dir, "rev-parse", "HEAD");
  await git(dir, "checkout", "-qb", "feature");
  await put(dir, ".claude/skills/split-cents/SKILL.md", SKILL(headBody));
  await git(dir, "commit", "-qam", "simplify the skill");
  return { dir, baseSha, headSha: await git(dir, "rev-parse", "HEAD") };
}

let dist: string;
let api: GitHubApi | undefined;
afterEach(async () => {
  await api?.close();
  api = undefined;
});

beforeAll(async () => {
  dist = await bundledDist();
}, 120_000);

interface RunnerOptions {
  readOnly?: boolean;
  gate?: boolean;
  headBody?: string;
  inputs?: Record<string, string>;
}

/** The files, environment and API of one job as the runner lays them out, before the action starts. */
async function prepareRunner(o: RunnerOptions) {
  const repo = await makeRepo(o.gate ?? true, o.headBody);
  const payload = JSON.parse(
    await readFile(join(ROOT, "test/fixtures/github-events/pull_request.synchronize.json"), "utf8"),
  );
  payload.pull_request.head.sha = repo.headSha;
  payload.pull_request.base.sha = repo.baseSha;
  payload.pull_request.changed_files = 1;
  const owner = payload.repository.owner.login as string;
  const name = payload.repository.name as string;
  api = await startGitHubApi({
    owner,
    repo: name,
    readOnly: o.readOnly,
    pullFiles: {
      [payload.number]: [{ filename: ".claude/skills/split-cents/SKILL.md", status: "modified" }],
    },
  });
  const runner = await scratchDir("sg-e2e-runner-");
  const files = {
    event: join(runner, "event.json"),
    output: join(runner, "output"),
    summary: join(runner, "summary.md"),
  };
  await writeFile(files.event, JSON.stringify(payload));
  await writeFile(files.output, "");
  await writeFile(files.summary, "");
  // INPUT_* as the runner sets them: every input, defaults applied, `${{ github.token }}` substituted.
  const action = parse(await readFile(join(ROOT, "action.yml"), "utf8"));
  const inputs: Record<string, string> = {};
  for (const [k, spec] of Object.entries<{ default?: string }>(action.inputs)) inputs[k] = spec.default ?? "";
  inputs["github-token"] = "ghs_e2etoken";
  Object.assign(inputs, o.inputs);
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: runner,
    CI: "true",
    GITHUB_ACTIONS: "true",
    GITHUB_EVENT_NAME: "pull_request",
    GITHUB_EVENT_PATH: files.event,
    GITHUB_REPOSITORY: `${owner}/${name}`,
    GITHUB_SHA: "9".repeat(40), // the test merge commit: the check must not go here
    GITHUB_REF: `refs/pull/${payload.number}/merge`,
    GITHUB_API_URL: api.url,
    GITHUB_SERVER_URL: "https://github.com",
    GITHUB_RUN_ID: "4242",
    GITHUB_WORKSPACE: repo.dir,
    GITHUB_OUTPUT: files.output,
    GITHUB_STEP_SUMMARY: files.summary,
    RUNNER_TEMP: runner,
  };
  for (const [k, v] of Object.entries(inputs)) env[`INPUT_${k.replace(/ /g, "_").toUpperCase()}`] = v;
  env.GITHUB_STATE = join(runner, "state");
  await writeFile(env.GITHUB_STATE, "");
  return { repo, api, env, files };
}

/** `STATE_<name>` for the post step, from what the main step wrote to GITHUB_STATE (`name<<delimiter` blocks). */
async function stateForPost(file: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const lines = (await readFile(file, "utf8")).split("\n");
  for (let i = 0; i < lines.length; i++) {
    const m = /^([^<]+)<<(.+)$/.exec(lines[i]!);
    if (!m) continue;
    const value: string[] = [];
    for (i++; i < lines.length && lines[i] !== m[2]; i++) value.push(lines[i]!);
    out[`STATE_${m[1]}`] = value.join("\n");
  }
  return out;
}

/** Runs the bundle as the runner would; returns what the runner would see. */
async function runAsRunner(node: string, o: RunnerOptions = {}) {
  const { repo, api, env, files } = await prepareRunner(o);
  const r = await execa(node, [join(dist, "index.js")], {
    cwd: repo.dir,
    env,
    extendEnv: false,
    reject: false,
    timeout: 300_000,
  });
  return {
    repo,
    api,
    exitCode: r.exitCode,
    stdout: String(r.stdout),
    stderr: String(r.stderr),
    output: await readFile(files.output, "utf8"),
    summary: await readFile(files.summary, "utf8"),
  };
}

function expectRegressionCheckRun(run: Awaited<ReturnType<typeof runAsRunner>>) {
  expect(run.api.violations).toEqual([]);
  expect(run.api.checkRuns).toHaveLength(1);
  const check = run.api.checkRuns[0]!;
  expect(check.head_sha).toBe(run.repo.headSha);
  expect(check.name).toBe("skillgate");
  expect(check.status).toBe("completed");
  expect(check.conclusion).toBe("failure");
  const creates = run.api.requests.filter((r) => r.operationId === "checks/create");
  expect(creates).toHaveLength(1);
  expect((creates[0]!.body as { status: string }).status).toBe("in_progress");
  for (const r of run.api.requests.filter((x) => x.operationId?.startsWith("checks/")))
    expect(
      ((r.body as { output?: { annotations?: unknown[] } } | undefined)?.output?.annotations ?? []).length,
    ).toBeLessThanOrEqual(50);
  const onDiscriminator = check.annotations.filter(
    (a) => a.path === SUITE_FILE && a.start_line === DISCRIMINATOR_LINE,
  );
  expect(onDiscriminator).toHaveLength(1);
  expect(onDiscriminator[0]!.annotation_level).toBe("failure");
  // the conservation gate, run sandboxed from the bundle, rejects the module the agent wrote at head
  const onGate = check.annotations.filter((a) => a.path === SUITE_FILE && a.start_line === GATE_LINE);
  expect(onGate.map((a) => a.annotation_level)).toEqual(["failure"]);
  expect(run.exitCode).not.toBe(0);
  expect(run.output).toMatch(/verdict<<ghadelimiter_[\w-]+\nfail\n/);
  expect(run.summary).toContain("Blocking root failures");
}

describe("the bundled action on a PR that regresses a skill", () => {
  it("node 20: one failing check run on the head SHA, the new root annotated at its line, summary, exit ≠ 0", async () => {
    const run = await runAsRunner(process.execPath);
    if (run.api.checkRuns[0]?.conclusion !== "failure") console.log(run.stdout, run.stderr);
    expectRegressionCheckRun(run);
    expect(run.exitCode).toBe(1);
  }, 180_000);

  it("read-only token: ::error annotations at file and line instead, still exit ≠ 0", async () => {
    const run = await runAsRunner(process.execPath, { readOnly: true, gate: false });
    expect(run.api.checkRuns).toHaveLength(0);
    // `::error <properties>::message`; @actions/core orders the properties title, file, line
    const errors = run.stdout.split("\n").filter((l) => l.startsWith("::error "));
    const props = (l: string) => l.slice("::error ".length, l.indexOf("::", 2));
    expect(
      errors.filter(
        (l) =>
          props(l).split(",").includes(`file=${SUITE_FILE}`) &&
          props(l).split(",").includes(`line=${DISCRIMINATOR_LINE}`),
      ),
    ).toHaveLength(1);
    expect(run.stdout).toMatch(/cannot write check runs \(403/);
    expect(run.summary).toContain("Blocking root failures");
    expect(run.exitCode).toBe(1);
    expect(run.api.violations).toEqual([]);
  }, 180_000);

  it("a PR that only rewords the skill passes: success on the head SHA, exit 0", async () => {
    const run = await runAsRunner(process.execPath, {
      gate: false,
      headBody: `${GOOD_BODY} Ties go to the lower index.`,
    });
    expect(run.api.violations).toEqual([]);
    expect(run.api.checkRuns.map((c) => [c.head_sha, c.conclusion])).toEqual([[run.repo.headSha, "success"]]);
    expect(run.api.checkRuns[0]!.annotations.filter((a) => a.annotation_level === "failure")).toEqual([]);
    expect(run.output).toMatch(/verdict<<ghadelimiter_[\w-]+\npass\n/);
    expect(run.exitCode).toBe(0);
  }, 180_000);

  it("node 24 (the production runtime) runs the same bundle to the same result", async () => {
    const node24 = await ensureNode24();
    expect((await execa(node24, ["--version"])).stdout).toMatch(/^v24\./);
    const run = await runAsRunner(node24);
    expectRegressionCheckRun(run);
    expect(run.exitCode).toBe(1);
  }, 300_000);
});

describe("the required check never stays pending", () => {
  /** Starts the action on a PR whose agent takes forever; resolves once the check run is open. */
  async function startSlowJob() {
    const job = await prepareRunner({ gate: false, headBody: `${BAD_BODY} TAKES FOREVER` });
    const child = execa(process.execPath, [join(dist, "index.js")], {
      cwd: job.repo.dir,
      env: job.env,
      extendEnv: false,
      reject: false,
      timeout: 120_000,
    });
    await vi.waitFor(() => expect(job.api.checkRuns[0]?.status).toBe("in_progress"), {
      timeout: 60_000,
      interval: 100,
    });
    // …and recorded for the post step (what a runner's cancellation finds a moment later)
    await vi.waitFor(
      async () => expect(await readFile(job.env.GITHUB_STATE!, "utf8")).toContain("check-run<<"),
      {
        timeout: 60_000,
        interval: 100,
      },
    );
    return { ...job, child };
  }

  it("cancelled: SIGINT to the step completes the check run as cancelled and the post step has nothing left", async () => {
    const job = await startSlowJob();
    // what the runner does on cancel: SIGINT to the step's process
    job.child.kill("SIGINT");
    const r = await job.child;
    expect(r.exitCode).toBe(130);
    expect(job.api.checkRuns.map((c) => [c.head_sha, c.status, c.conclusion])).toEqual([
      [job.repo.headSha, "completed", "cancelled"],
    ]);
    const post = await execa(process.execPath, [join(dist, "post.js")], {
      env: { ...job.env, ...(await stateForPost(job.env.GITHUB_STATE!)) },
      extendEnv: false,
      reject: false,
    });
    expect(post.exitCode).toBe(0);
    expect(String(post.stdout)).toMatch(/was completed by the main step/);
    expect(job.api.requests.filter((x) => x.operationId === "checks/update")).toHaveLength(1);
    expect(job.api.violations).toEqual([]);
  }, 180_000);

  it("killed before it could answer: the post step completes the open check run", async () => {
    const job = await startSlowJob();
    // the runner's last resort, 10 s after SIGINT: the process tree is killed
    job.child.kill("SIGKILL");
    await job.child;
    expect(job.api.checkRuns[0]!.status).toBe("in_progress");
    const post = await execa(process.execPath, [join(dist, "post.js")], {
      env: { ...job.env, ...(await stateForPost(job.env.GITHUB_STATE!)) },
      extendEnv: false,
      reject: false,
    });
    expect(post.exitCode).toBe(0);
    expect(String(post.stdout)).toMatch(/completed it as cancelled/);
    expect(job.api.checkRuns.map((c) => [c.status, c.conclusion])).toEqual([["completed", "cancelled"]]);
    expect(job.api.violations).toEqual([]);
  }, 180_000);
});
