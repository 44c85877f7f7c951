/**
 * Issue #16, "Done when", for the Action: the bypasses of bypass.test.ts, now through a freshly bundled
 * `dist/index.js` started as the runner starts it on a `pull_request` event, against the loopback GitHub API
 * (every request validated against GitHub's OpenAPI description). Each PR is a real git history: the base commit
 * on `main`, the PR's head on `feature`; the policy, the agent and its files come from the base. Every bypass ends
 * with a failing check run on the PR head and a located annotation, and exit 1.
 */
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Report } from "../../src/model/index.js";
import { entryDigest } from "../../src/run/cache.js";
import { runActionStep } from "../support/actions-runner.js";
import { bundledDist } from "../support/dist.js";
import { type GitHubApi, type PullFile, startGitHubApi } from "../support/github-api.js";

const ROOT = join(import.meta.dirname, "../..");
const EVENTS = join(ROOT, "test/fixtures/github-events");
const scratch: string[] = [];
const temp = (prefix: string) => {
  const d = mkdtempSync(join(tmpdir(), prefix));
  scratch.push(d);
  return d;
};
afterAll(() => {
  for (const d of scratch) rmSync(d, { recursive: true, force: true });
});
let api: GitHubApi | undefined;
afterEach(async () => {
  await api?.close();
  api = undefined;
});

let dist: string;
let agentFile: string;
beforeAll(async () => {
  dist = await bundledDist();
  agentFile = join(temp("sg-intact-agent-"), "agent.sh");
  writeFileSync(agentFile, AGENT);
}, 180_000);

/**
 * Follows the installed skill: with the largest-remainder rule it answers 334/333/333, without it 333 each. A shell
 * script, not Node: a Node start-up costs ~0.15 s of CPU per agent call on the 2-core test machine.
 */
const AGENT = String.raw`cat > /dev/null
f=.agents/skills/split-cents/SKILL.md
md=$(cat "$f" 2>/dev/null)
case "$md" in *"largest remainder"*) parts='334\n333\n333' ;; *) parts='333\n333\n333' ;; esac
if [ -s "$f" ]; then activated='"split-cents"'; else activated=''; fi
printf '{"output":"Parts for 1000 cents:\\n%s","skillsActivated":[%s]}' "$parts" "$activated"
`;

const GOOD =
  "Use the largest remainder method: floor each share, then hand the missing cents out one by one.";
const BAD = "Divide the total by the number of people and round each share.";
const SKILL_FILE = ".claude/skills/split-cents/SKILL.md";
const SUITE = ".agent/evals/split-cents";
const CASE_FILE = `${SUITE}/prompts/split-1000-3.yaml`;
const WORKFLOW = ".github/workflows/skillgate.yml";
const skillMd = (body: string) =>
  `---\nname: split-cents\ndescription: Split money totals held in integer cents among people without losing a cent.\n---\n# Splitting cents\n\n${body}\n`;
const caseYaml = (regex = "334\\s*\\n\\s*333\\s*\\n\\s*333") =>
  `id: split-1000-3\nprompt: Split 1000 cents among 3 people and list the parts.\nassertions:\n  - id: mentions-total\n    type: contains\n    value: "1000"\n  - id: D:keeps-the-cent\n    type: regex\n    value: '${regex}'\n`;
/** 1-based line of the discriminator in the case file. */
const DISCRIMINATOR_LINE =
  caseYaml()
    .split("\n")
    .findIndex((l) => l.includes("D:keeps-the-cent")) + 1;
const agentConfig = () => `agent:\n  adapter: command\n  command: ${JSON.stringify(`sh ${agentFile}`)}\n`;
// The base accepts the unconfined trials the job asks for (SKILLGATE_ISOLATION=none in runPr): a PR's own
// config cannot lower it (changing it is a policy root), and none of the tests here is about the sandbox.
const ISOLATION = "isolation:\n  allowWeaker: true\n";
const CONFIG = () => `${agentConfig()}trials: 3\ntriggerRuns: 3\nverdict:\n  baseDepth: 6\n${ISOLATION}`;

type Files = Record<string, string | null>;
const baseFiles = (): Files => ({
  ".skillgate.yml": CONFIG(),
  [SKILL_FILE]: skillMd(GOOD),
  [`${SUITE}/meta.json`]: JSON.stringify({ trials: 3, thresholds: { discriminatorPassRate: 0.9 } }, null, 2),
  [CASE_FILE]: caseYaml(),
  [WORKFLOW]:
    "name: skillgate\non: pull_request\njobs:\n  evaluate:\n    runs-on: ubuntu-latest\n    steps: []\n",
});

const GIT_ENV = {
  ...process.env,
  GIT_AUTHOR_NAME: "t",
  GIT_AUTHOR_EMAIL: "t@example.test",
  GIT_COMMITTER_NAME: "t",
  GIT_COMMITTER_EMAIL: "t@example.test",
  GIT_CONFIG_NOSYSTEM: "1",
};
const git = (dir: string, ...args: string[]) =>
  execFileSync("git", args, { cwd: dir, env: GIT_ENV, encoding: "utf8" }).trim();
function write(dir: string, files: Files) {
  for (const [p, c] of Object.entries(files)) {
    if (c === null) rmSync(join(dir, p), { force: true });
    else {
      mkdirSync(dirname(join(dir, p)), { recursive: true });
      writeFileSync(join(dir, p), c);
    }
  }
}

/** A checkout of the PR head (feature) over its base (main); the files it changes, as pulls.listFiles lists them. */
function pullRequest(headChanges: Files, base: Files = baseFiles()) {
  const dir = temp("sg-intact-repo-");
  git(dir, "init", "-q", "-b", "main");
  write(dir, base);
  git(dir, "add", "-A");
  git(dir, "commit", "-qm", "base");
  const baseSha = git(dir, "rev-parse", "HEAD");
  git(dir, "checkout", "-qb", "feature");
  write(dir, headChanges);
  git(dir, "add", "-A");
  git(dir, "commit", "-qm", "the PR", "--allow-empty");
  // a checkout has no empty folders: what the PR deleted leaves none behind
  git(dir, "clean", "-fdq");
  const headSha = git(dir, "rev-parse", "HEAD");
  const files: PullFile[] = git(dir, "diff", "--name-status", baseSha, headSha)
    .split("\n")
    .filter(Boolean)
    .map((l) => {
      const [s, f] = l.split("\t");
      return { filename: f!, status: s === "A" ? "added" : s === "D" ? "removed" : "modified" };
    });
  return { dir, baseSha, headSha, files };
}

interface Job {
  /** Labels on the PR as the API answers them now. */
  labels?: string[];
  /** Labels in the event payload (what the PR looked like when the event fired). */
  payloadLabels?: string[];
  with?: Record<string, string>;
  /** A trial cache to restore into RUNNER_TEMP before the step (as @actions/cache would). */
  runnerCache?: string;
}

/** The bundled action on the PR's pull_request event; the report and what GitHub saw. */
async function runPr(pr: ReturnType<typeof pullRequest>, job: Job = {}) {
  const payload = JSON.parse(readFileSync(join(EVENTS, "pull_request.synchronize.json"), "utf8"));
  payload.pull_request.head.sha = pr.headSha;
  payload.pull_request.base.sha = pr.baseSha;
  payload.pull_request.changed_files = pr.files.length;
  payload.pull_request.labels = (job.payloadLabels ?? []).map((name, i) => ({ id: i + 1, name }));
  const owner = payload.repository.owner.login as string;
  const repo = payload.repository.name as string;
  api = await startGitHubApi({
    owner,
    repo,
    pullFiles: { [payload.number]: pr.files },
    labels: { [payload.number]: job.labels ?? [] },
  });
  const step = {
    dist,
    workspace: pr.dir,
    eventName: "pull_request",
    payload,
    with: { report: "skillgate-report.json", ...job.with },
    apiUrl: api.url,
    repository: `${owner}/${repo}`,
    sha: "9".repeat(40),
    workflow: WORKFLOW,
    job: "evaluate",
    // The job's env: unconfined trials (the operator's switch, docs/isolation.md; the base's config accepts them).
    // These tests check the verdict and what GitHub sees, not the sandbox (test/sandbox/ does), and a bubblewrap
    // start per agent call was a large part of this file's CPU.
    env: { SKILLGATE_ISOLATION: "none" },
    before: (env: Record<string, string>) => {
      if (job.runnerCache)
        cpSync(job.runnerCache, join(env.RUNNER_TEMP!, "skillgate-trial-cache"), { recursive: true });
    },
  };
  const result = await runActionStep(step);
  scratch.push(result.runnerTemp);
  const report = JSON.parse(readFileSync(join(pr.dir, "skillgate-report.json"), "utf8")) as Report;
  expect(api.violations).toEqual([]);
  const checks = api.checkRuns;
  return { ...result, report, checks, check: checks[0]!, api };
}

/** The failing check run on the PR head, with a failure annotation at `file:line` (any line when omitted). */
function expectBlockedAt(
  run: Awaited<ReturnType<typeof runPr>>,
  headSha: string,
  file: string,
  line?: number,
) {
  expect(run.checks.map((c) => [c.head_sha, c.status, c.conclusion])).toEqual([
    [headSha, "completed", "failure"],
  ]);
  const at = run.check.annotations.filter(
    (a) =>
      a.path === file && a.annotation_level === "failure" && (line === undefined || a.start_line === line),
  );
  expect(
    at.length,
    JSON.stringify(run.check.annotations.map((a) => [a.path, a.start_line, a.title])),
  ).toBeGreaterThan(0);
  expect(run.outputs.verdict).toBe("fail");
  expect(run.exitCode).toBe(1);
}

describe("through dist/index.js on a pull_request event: a PR cannot talk the check out of its verdict", () => {
  it("control: the honest regression fails, annotated on the discriminator's line", async () => {
    const pr = pullRequest({ [SKILL_FILE]: skillMd(BAD) });
    const run = await runPr(pr);
    expectBlockedAt(run, pr.headSha, CASE_FILE, DISCRIMINATOR_LINE);
    expect(Number(run.outputs["new-roots"])).toBeGreaterThan(0);
  }, 120_000);

  it("a PR that only rewords the skill passes (so the bypass tests below can fail)", async () => {
    const pr = pullRequest({ [SKILL_FILE]: skillMd(`${GOOD} Ties go to the lower index.`) });
    const run = await runPr(pr);
    expect(run.checks.map((c) => c.conclusion)).toEqual(["success"]);
    expect(run.exitCode).toBe(0);
  }, 120_000);

  it("deleting the suite of the edited skill: a blocking suite-weakened root on its SKILL.md", async () => {
    const pr = pullRequest({ [SKILL_FILE]: skillMd(BAD), [CASE_FILE]: null, [`${SUITE}/meta.json`]: null });
    const run = await runPr(pr);
    expectBlockedAt(run, pr.headSha, SKILL_FILE);
    expect(run.report.blockingRoots.some((r) => r.kind === "suite-weakened")).toBe(true);
  }, 120_000);

  it("loosening the discriminator's regex until the wrong answer passes: blocking, at the regex's line", async () => {
    const pr = pullRequest({ [SKILL_FILE]: skillMd(BAD), [CASE_FILE]: caseYaml("\\d+") });
    const run = await runPr(pr);
    expectBlockedAt(run, pr.headSha, CASE_FILE);
    expect(run.report.blockingRoots.map((r) => r.id)).toContain(
      "suite-weakened/assertion-changed/split-1000-3/D:keeps-the-cent/value",
    );
  }, 120_000);

  it("the PR's own .skillgate.yml relaxing the policy changes nothing and is blocking, on its lines", async () => {
    const relaxed = `${agentConfig()}trials: 1\nverdict:\n  alpha: 0.4\n  headOnly: report\nthresholds:\n  discriminatorPassRate: 0.1\n${ISOLATION}`;
    const pr = pullRequest({ [SKILL_FILE]: skillMd(BAD), ".skillgate.yml": relaxed });
    const run = await runPr(pr);
    expectBlockedAt(run, pr.headSha, ".skillgate.yml");
    const weakened = run.report.policy.roots.filter((r) => r.kind === "policy-weakened").map((r) => r.id);
    expect(weakened.sort()).toEqual(["policy/trials", "policy/verdict.alpha", "policy/verdict.headOnly"]);
    // judged under the base's policy: 3 trials per case, not the PR's 1
    expect(run.report.skills[0]!.trials?.perCase).toBe(3);
    expect(run.report.policy.origin).toMatch(/^base commit/);
  }, 120_000);

  it("recordings planted in the checkout and a PR config that replays them: never read, the agent runs", async () => {
    const recording = JSON.stringify({
      skill: "split-cents",
      output: "Parts for 1000 cents:\n334\n333\n333",
    });
    const pr = pullRequest({
      [SKILL_FILE]: skillMd(BAD),
      ".skillgate.yml":
        "agent:\n  adapter: replay\n  recordings: .skillgate/recordings\ntrials: 3\ntriggerRuns: 3\n",
      ".skillgate/recordings/split-cents.jsonl": `${recording}\n`,
    });
    const run = await runPr(pr);
    expectBlockedAt(run, pr.headSha, CASE_FILE, DISCRIMINATOR_LINE);
    expect(run.report.agent.adapter).toBe("command");
    expect(run.report.cost.agentCalls).toBeGreaterThan(0);
    expect(
      run.report.policy.roots.some((r) => r.kind === "policy-weakened" && r.file === ".skillgate.yml"),
    ).toBe(true);
  }, 120_000);

  it("forged trial-cache entries committed in the checkout are never read, even where the base config points", async () => {
    // The base's maintainers (wrongly) point the cache into the checkout; the PR plants answers there.
    const base = { ...baseFiles(), ".skillgate.yml": `${CONFIG()}cache:\n  dir: .skillgate-cache\n` };
    const honest = pullRequest({ [SKILL_FILE]: skillMd(BAD) }, base);
    const first = await runPr(honest);
    expect(first.exitCode).toBe(1);
    // The trials the action cached (outside the checkout, in RUNNER_TEMP), forged into passing answers with a
    // valid digest: exactly what a PR author who read src/run/cache.ts would commit.
    const cached = join(first.runnerTemp, "skillgate-trial-cache");
    const forged = temp("sg-intact-forged-");
    let entries = 0;
    // Entries live in sub-folders; files beside them (the usage ledger) are not trials.
    for (const sub of readdirSync(cached, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name)) {
      mkdirSync(join(forged, sub), { recursive: true });
      for (const f of readdirSync(join(cached, sub))) {
        const e = JSON.parse(readFileSync(join(cached, sub, f), "utf8"));
        e.result.output = String(e.result.output).replace("333\n333\n333", "334\n333\n333");
        e.digest = entryDigest(e.key, e.identity, e.result);
        writeFileSync(join(forged, sub, f), JSON.stringify(e));
        entries++;
      }
    }
    expect(entries).toBeGreaterThan(0);
    // The forgery is a good one: restored where the action keeps its cache, it would be served and pass.
    const served = await runPr(pullRequest({ [SKILL_FILE]: skillMd(BAD) }, base), { runnerCache: forged });
    expect(served.report.cost.cacheHits).toBeGreaterThan(0);
    expect(served.exitCode).toBe(0);
    // Committed in the checkout, it is never read.
    const planted: Files = { [SKILL_FILE]: skillMd(BAD) };
    for (const sub of readdirSync(forged))
      for (const f of readdirSync(join(forged, sub)))
        planted[`.skillgate-cache/${sub}/${f}`] = readFileSync(join(forged, sub, f), "utf8");
    const run = await runPr(pullRequest(planted, base));
    expect(run.stdout).toMatch(/cache\.dir \.skillgate-cache lies inside the checkout/);
    expect(run.report.cost.cacheHits).toBe(0);
    expect(run.report.cost.agentCalls).toBeGreaterThan(0);
    expectBlockedAt(run, run.report.head.sha!, CASE_FILE, DISCRIMINATOR_LINE);
  }, 180_000);

  it("a PR that edits the workflow running skillgate gets a blocking policy/workflow root on that file", async () => {
    const pr = pullRequest({
      [SKILL_FILE]: skillMd(`${GOOD} Ties go to the lower index.`),
      [WORKFLOW]:
        "name: skillgate\non: pull_request\njobs:\n  evaluate:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo trust me\n",
    });
    const run = await runPr(pr, { with: { "allow-weakening": "true" } });
    expectBlockedAt(run, pr.headSha, WORKFLOW, 1);
    expect(run.report.policy.roots.map((r) => r.id)).toContain("policy/workflow");
    // the workflow's own allow-weakening input does not approve the workflow change
    expect(run.report.policy.override).toBeUndefined();
    expect(run.stdout).toMatch(/allow-weakening is ignored: this PR changes the workflow that sets it/);
  }, 120_000);
});

describe("the maintainers' override is the label on the PR, read from the API", () => {
  const loosened = () =>
    pullRequest({ [SKILL_FILE]: skillMd(`${GOOD} Be brief.`), [CASE_FILE]: caseYaml("\\d+") });

  it("the label present on the PR (via the API) accepts the weakening: pass, and the report says who accepted it", async () => {
    const pr = loosened();
    const run = await runPr(pr, { labels: ["skillgate: allow-weakening"] });
    expect(run.report.policy.override?.by).toBe(`label "skillgate: allow-weakening" on PR #${2}`);
    expect(run.checks.map((c) => c.conclusion)).toEqual(["success"]);
    expect(run.exitCode).toBe(0);
  }, 120_000);

  it("a label only in the event payload (removed since) is not an override", async () => {
    const pr = loosened();
    const run = await runPr(pr, { payloadLabels: ["skillgate: allow-weakening"], labels: [] });
    expect(run.report.policy.override).toBeUndefined();
    expectBlockedAt(run, pr.headSha, CASE_FILE);
  }, 120_000);

  it("a label name written in the PR's own config is not an override, even when the PR carries that label", async () => {
    const pr = pullRequest({
      [SKILL_FILE]: skillMd(`${GOOD} Be brief.`),
      [CASE_FILE]: caseYaml("\\d+"),
      ".skillgate.yml": `${CONFIG()}override:\n  label: bug\n`,
    });
    const run = await runPr(pr, { labels: ["bug"] });
    expect(run.report.policy.override).toBeUndefined();
    expectBlockedAt(run, pr.headSha, CASE_FILE);
    expect(run.report.policy.roots.map((r) => r.id)).toContain("policy/override");
  }, 120_000);
});

describe("the base branch moved on", () => {
  it("the PR is compared with the merge base: main's later changes are neither the PR's nor its policy", async () => {
    const pr = pullRequest({ [SKILL_FILE]: skillMd(`${GOOD} Ties go to the lower index.`) });
    // main moves on after the PR branched: a stricter policy and a new skill
    git(pr.dir, "checkout", "-q", "main");
    write(pr.dir, {
      ".skillgate.yml": `${agentConfig()}trials: 5\ntriggerRuns: 3\n`,
      ".claude/skills/other/SKILL.md":
        "---\nname: other\ndescription: Something else entirely.\n---\nBody.\n",
    });
    git(pr.dir, "add", "-A");
    git(pr.dir, "commit", "-qm", "main moves on");
    const tip = git(pr.dir, "rev-parse", "HEAD");
    git(pr.dir, "checkout", "-q", "feature");
    const run = await runPr({ ...pr, baseSha: tip });
    expect(run.report.base).toMatchObject({ sha: pr.baseSha, tip });
    expect(run.report.policy.roots).toEqual([]);
    expect(run.report.skills.map((s) => s.name)).toEqual(["split-cents"]);
    expect(run.checks.map((c) => c.conclusion)).toEqual(["success"]);
    expect(run.exitCode).toBe(0);
  }, 120_000);
});
