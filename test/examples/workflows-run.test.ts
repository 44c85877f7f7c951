/**
 * Issue #21: every example workflow's skillgate step, run the way the runner runs it: the step's `with:` and
 * `env:` taken from the example file and evaluated against the event (`${{ … }}`), every other input from
 * action.yml's defaults, the event payload, `GITHUB_*`, the file commands, against the loopback GitHub API; the
 * agent is the real CLI the example installs (the devDependency at the version the example pins, on PATH as
 * `npm install -g` would put it) talking to a scripted model on loopback. Nothing of the example is rewritten.
 */
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { countEntries } from "../../src/github/cache-actions.js";
import type { Report } from "../../src/model/index.js";
import { runActionStep } from "../support/actions-runner.js";
import { bundledDist } from "../support/dist.js";
import {
  type GitHubApi,
  type GitHubApiOptions,
  type PullFile,
  startGitHubApi,
} from "../support/github-api.js";
import { type ScriptedServer, startScriptedAnthropic, text, toolUse } from "../support/scripted-anthropic.js";
import {
  respCall,
  respText,
  type ScriptedResponsesServer,
  startScriptedResponses,
} from "../support/scripted-responses.js";

const ROOT = join(import.meta.dirname, "../..");
const EXAMPLES = join(ROOT, "examples/workflows");
const EVENTS = join(ROOT, "test/fixtures/github-events");
const BIN = join(ROOT, "node_modules/.bin");
const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));

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

// ---------------------------------------------------------------------------------------------------------------
// The workflow side: a step of an example, with its expressions evaluated as the runner would.

/**
 * The expression language as the examples use it: property paths, string and number literals, `true`/`false`/
 * `null`, `==` and `!=` (strings compared case-insensitively), `!`, `&&` and `||` (yielding an operand, as in
 * JavaScript), parentheses, and the functions `startsWith`, `contains`, `format`, `always` and `success`.
 */
function evaluate(expr: string, contexts: Record<string, unknown>): unknown {
  const tokens =
    expr.match(/'(?:[^']|'')*'|&&|\|\||[=!]=|[!().,[\]]|[A-Za-z_][\w-]*|\d+(?:\.\d+)?|\S/g) ?? [];
  let i = 0;
  const peek = () => tokens[i];
  const take = (t?: string) => {
    const got = tokens[i++];
    if (t !== undefined && got !== t) throw new Error(`expression ${expr}: expected ${t} at ${got}`);
    return got!;
  };
  const truthy = (v: unknown) => v !== undefined && v !== null && v !== false && v !== 0 && v !== "";
  const str = (v: unknown) => (v === undefined || v === null ? "" : String(v));
  const equal = (a: unknown, b: unknown) =>
    typeof a === "string" && typeof b === "string" ? a.toLowerCase() === b.toLowerCase() : a === b;
  const functions: Record<string, (...a: unknown[]) => unknown> = {
    startswith: (a, b) => str(a).toLowerCase().startsWith(str(b).toLowerCase()),
    contains: (a, b) => str(a).toLowerCase().includes(str(b).toLowerCase()),
    format: (f, ...a) => str(f).replace(/\{(\d+)\}/g, (_m, n: string) => str(a[Number(n)])),
    always: () => true,
    success: () => true,
  };
  const or = (): unknown => {
    let v = and();
    while (peek() === "||") {
      take();
      const r = and();
      v = truthy(v) ? v : r;
    }
    return v;
  };
  const and = (): unknown => {
    let v = comparison();
    while (peek() === "&&") {
      take();
      const r = comparison();
      v = truthy(v) ? r : v;
    }
    return v;
  };
  const comparison = (): unknown => {
    const l = unary();
    if (peek() !== "==" && peek() !== "!=") return l;
    const op = take();
    const r = unary();
    return op === "==" ? equal(l, r) : !equal(l, r);
  };
  const unary = (): unknown => {
    if (peek() !== "!") return primary();
    take();
    return !truthy(unary());
  };
  const primary = (): unknown => {
    const t = take();
    if (t === "(") {
      const v = or();
      take(")");
      return v;
    }
    if (t.startsWith("'")) return t.slice(1, -1).replace(/''/g, "'");
    if (/^\d/.test(t)) return Number(t);
    if (t === "true" || t === "false") return t === "true";
    if (t === "null") return null;
    if (!/^[A-Za-z_]/.test(t)) throw new Error(`expression ${expr}: unexpected ${t}`);
    if (peek() === "(") {
      take();
      const args: unknown[] = [];
      while (peek() !== ")") {
        args.push(or());
        if (peek() === ",") take();
      }
      take(")");
      const fn = functions[t.toLowerCase()];
      if (!fn) throw new Error(`expression ${expr}: unknown function ${t}`);
      return fn(...args);
    }
    let v: unknown = contexts[t];
    while (peek() === "." || peek() === "[") {
      let key: string;
      if (take() === ".") key = take();
      else {
        key = str(or());
        take("]");
      }
      v = (v as Record<string, unknown> | undefined)?.[key];
    }
    return v;
  };
  const value = or();
  if (i !== tokens.length) throw new Error(`expression ${expr}: unexpected ${tokens[i]}`);
  return value;
}

/** A value with its `${{ … }}` expressions replaced by their values. */
function evaluateExpressions(value: string, contexts: Record<string, unknown>): string {
  return value.replace(/\$\{\{\s*(.+?)\s*\}\}/g, (_m, expr: string) => {
    const v = evaluate(expr, contexts);
    return v === undefined || v === null ? "" : String(v);
  });
}

interface ExampleStep {
  with: Record<string, string>;
  env: Record<string, string>;
  /** `run:` commands of the steps before it in its job. */
  before: string[];
}

/** The skillgate step of `job` in an example, evaluated in `contexts`. */
function exampleStep(file: string, job: string, contexts: Record<string, unknown>): ExampleStep {
  const wf = parse(readFileSync(join(EXAMPLES, file), "utf8"));
  const steps = wf.jobs[job].steps as Record<string, unknown>[];
  const i = steps.findIndex((s) => String(s.uses ?? "").startsWith("skillgate/skillgate@"));
  expect(i, `${file}: the skillgate step of job ${job}`).toBeGreaterThanOrEqual(0);
  const ev = (o: unknown) =>
    Object.fromEntries(
      Object.entries((o ?? {}) as Record<string, unknown>).map(([k, v]) => [
        k,
        evaluateExpressions(String(v), contexts),
      ]),
    );
  return {
    with: ev(steps[i]!.with),
    env: { ...ev(wf.env), ...ev(wf.jobs[job].env), ...ev(steps[i]!.env) },
    before: steps.slice(0, i).flatMap((s) => (typeof s.run === "string" ? [s.run] : [])),
  };
}

/**
 * PATH of a runner after the example's `npm install -g <cli>@<version>`: that CLI at that version. The tests run
 * the devDependency, so the pinned version must be the one installed here.
 */
function pathAfterInstall(step: ExampleStep): string {
  for (const run of step.before) {
    const m = /^npm install -g (@anthropic-ai\/claude-code|@openai\/codex)@(\S+)$/.exec(run.trim());
    if (!m) continue;
    const installed = JSON.parse(readFileSync(join(ROOT, "node_modules", m[1]!, "package.json"), "utf8"));
    expect(installed.version, `${m[1]} installed for the tests`).toBe(m[2]);
    expect(pkg.devDependencies[m[1]!]).toBe(m[2]);
  }
  return `${BIN}:${process.env.PATH}`;
}

// ---------------------------------------------------------------------------------------------------------------
// The repository side: a skill, its suite, a base and a PR.

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
function write(dir: string, files: Record<string, string>) {
  for (const [p, c] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, p)), { recursive: true });
    writeFileSync(join(dir, p), c);
  }
}

const SPLIT_GOOD = "Use the largest remainder method: floor every share, then hand out the missing cents.";
const SPLIT_BAD = "Divide the total by the number of people and round each share.";
const ROUND_GOOD = "Round half to even (banker's rounding): 2.5 becomes 2.";
const skillMd = (name: string, description: string, body: string) =>
  `---\nname: ${name}\ndescription: ${description}\n---\n# ${name}\n\n${body}\n`;
const SPLIT_FILE = ".claude/skills/split-cents/SKILL.md";
const SPLIT_CASE = ".agent/evals/split-cents/prompts/split.yaml";
const SPLIT_CASE_TEXT =
  'id: split\nprompt: Split 1000 cents among 3 people and list the parts.\nassertions:\n  - id: mentions-total\n    type: contains\n    value: "1000"\n  - id: D:no-lost-cent\n    type: not-one-of\n    extract: first-number\n    values: [333]\n';
const DISCRIMINATOR_LINE = SPLIT_CASE_TEXT.split("\n").findIndex((l) => l.includes("D:no-lost-cent")) + 1;

function repoFiles(config: string, splitBody = SPLIT_GOOD): Record<string, string> {
  return {
    ".skillgate.yml": config,
    [SPLIT_FILE]: skillMd(
      "split-cents",
      "Split a money total held in integer cents among people so no cent is lost.",
      splitBody,
    ),
    ".agent/evals/split-cents/meta.json": JSON.stringify({ trials: 3, thresholds: {} }),
    [SPLIT_CASE]: SPLIT_CASE_TEXT,
    ".claude/skills/round-money/SKILL.md": skillMd(
      "round-money",
      "Round money amounts for statements and invoices.",
      ROUND_GOOD,
    ),
    ".agent/evals/round-money/meta.json": JSON.stringify({ trials: 3, thresholds: {} }),
    ".agent/evals/round-money/prompts/round.yaml":
      "id: round\nprompt: Round 2.5 to a whole number the way accountants do and give only the number.\nassertions:\n  - id: D:half-even\n    type: not-one-of\n    extract: first-number\n    values: [3]\n",
  };
}

/** main: the base; feature: the PR's head with `head` applied. */
function pullRequest(config: string, headSplitBody: string) {
  const dir = temp("sg-ex-repo-");
  git(dir, "init", "-q", "-b", "main");
  write(dir, repoFiles(config));
  git(dir, "add", "-A");
  git(dir, "commit", "-qm", "base");
  const baseSha = git(dir, "rev-parse", "HEAD");
  git(dir, "checkout", "-qb", "feature");
  write(dir, { [SPLIT_FILE]: repoFiles(config, headSplitBody)[SPLIT_FILE]! });
  git(dir, "commit", "-qam", "edit split-cents");
  const headSha = git(dir, "rev-parse", "HEAD");
  const files: PullFile[] = [{ filename: SPLIT_FILE, status: "modified" }];
  return { dir, baseSha, headSha, files };
}

function pullRequestEvent(pr: ReturnType<typeof pullRequest>, action = "synchronize") {
  const payload = JSON.parse(readFileSync(join(EVENTS, `pull_request.${action}.json`), "utf8"));
  payload.pull_request.head.sha = pr.headSha;
  payload.pull_request.base.sha = pr.baseSha;
  payload.pull_request.changed_files = pr.files.length;
  return payload;
}

const repository = (payload: { repository: { owner: { login: string }; name: string } }) => ({
  owner: payload.repository.owner.login,
  repo: payload.repository.name,
});

// ---------------------------------------------------------------------------------------------------------------
// The models: an agent knows the answer only when the skill's body reached it.

/** Which case a request is about, and whether the skill's body is in the conversation. */
function understand(raw: string) {
  if (raw.includes("Split 1000 cents"))
    return {
      skill: "split-cents",
      knows: raw.includes("largest remainder method"),
      right: "334",
      wrong: "333",
    };
  if (raw.includes("Round 2.5"))
    return { skill: "round-money", knows: raw.includes("Round half to even"), right: "2", wrong: "3" };
  return undefined;
}

let anthropic: ScriptedServer;
let responses: ScriptedResponsesServer;
let dist: string;
beforeAll(async () => {
  anthropic = await startScriptedAnthropic((r) => {
    if (!r.hasTools) return text("ok");
    const c = understand(r.raw);
    if (!c) return text("Done.");
    if (r.turn === 0 && r.raw.includes(`- ${c.skill}:`)) return toolUse("Skill", { skill: c.skill });
    return text(c.knows ? `${c.right} (1000 cents in all)` : `${c.wrong} (1000 cents in all)`);
  });
  responses = await startScriptedResponses((r) => {
    const c = understand(r.raw);
    if (!c) return respText("Done.");
    if (r.turn === 0 && r.raw.includes(`- ${c.skill}:`))
      return respCall("exec_command", { cmd: `cat .agents/skills/${c.skill}/SKILL.md` });
    return respText(c.knows ? `${c.right} (1000 cents in all)` : `${c.wrong} (1000 cents in all)`);
  });
  dist = await bundledDist();
}, 180_000);
afterAll(async () => {
  await anthropic?.close();
  await responses?.close();
});

// No isolation key: the tests run as root with bubblewrap, so the agents run confined at the level the Action
// requires by default.
// verdict.baseDepth 6: main's sweep stores 6 trials per case (30 by default), enough for what these runs show
const CLAUDE_CONFIG =
  "trials: 3\ntriggerRuns: 3\nconcurrency: 4\ntimeoutSeconds: 120\nverdict:\n  baseDepth: 6\n";
const secrets = { ANTHROPIC_API_KEY: "sk-ant-scripted", OPENAI_API_KEY: "sk-scripted" };

async function readReport(path: string): Promise<Report> {
  return JSON.parse(readFileSync(path, "utf8")) as Report;
}

describe("examples/workflows/skillgate-claude-code.yml (the README's workflow)", () => {
  it("pull_request: a regression fails the check on the PR head, annotated at the discriminator, exit 1", async () => {
    const pr = pullRequest(CLAUDE_CONFIG, SPLIT_BAD);
    const payload = pullRequestEvent(pr);
    const { owner, repo } = repository(payload);
    api = await startGitHubApi({ owner, repo, pullFiles: { [payload.number]: pr.files } });
    const step = exampleStep("skillgate-claude-code.yml", "evaluate", {
      github: { event: payload, sha: "9".repeat(40), ref: `refs/pull/${payload.number}/merge` },
      secrets,
    });
    expect(step.with).toEqual({ agent: "claude-code" });
    const run = await runActionStep(
      {
        dist,
        workspace: pr.dir,
        eventName: "pull_request",
        payload,
        with: step.with,
        // the model: the scripted one on loopback, where Claude Code's base URL points
        env: { ...step.env, ANTHROPIC_BASE_URL: anthropic.url },
        path: pathAfterInstall(step),
        apiUrl: api.url,
        repository: `${owner}/${repo}`,
        sha: "9".repeat(40),
        workflow: ".github/workflows/skillgate.yml",
        job: "evaluate",
      },
      { post: true },
    );
    scratch.push(run.runnerTemp);
    const report = await readReport(join(pr.dir, "skillgate-report.json"));
    if (run.exitCode !== 1) console.log(run.stdout, run.stderr);
    expect(report.agent.adapter).toBe("claude-code");
    expect(report.cost.agentCalls).toBeGreaterThan(0);
    expect(api.violations).toEqual([]);
    expect(api.checkRuns.map((c) => [c.name, c.head_sha, c.conclusion])).toEqual([
      ["skillgate", pr.headSha, "failure"],
    ]);
    expect(
      api.checkRuns[0]!.annotations.filter(
        (a) =>
          a.path === SPLIT_CASE && a.start_line === DISCRIMINATOR_LINE && a.annotation_level === "failure",
      ),
    ).toHaveLength(1);
    // the job summary names the PR's base, never "no base (sweep)"
    expect(run.summary).toContain(`base \`${pr.baseSha.slice(0, 12)}\``);
    expect(run.stdout).toMatch(/was completed by the main step/);
    expect(run.outputs.verdict).toBe("fail");
    expect(run.exitCode).toBe(1);
  }, 300_000);

  it("merge_group: the merge queue's check is posted on merge_group.head_sha", async () => {
    const pr = pullRequest(CLAUDE_CONFIG, `${SPLIT_GOOD} Ties go to the first person.`);
    const payload = JSON.parse(readFileSync(join(EVENTS, "merge_group.checks_requested.json"), "utf8"));
    payload.merge_group.base_sha = pr.baseSha;
    payload.merge_group.head_sha = pr.headSha;
    const { owner, repo } = repository(payload);
    api = await startGitHubApi({ owner, repo });
    const step = exampleStep("skillgate-claude-code.yml", "evaluate", {
      github: { event: payload, sha: pr.headSha, ref: payload.merge_group.head_ref },
      secrets,
    });
    const run = await runActionStep({
      dist,
      workspace: pr.dir,
      eventName: "merge_group",
      payload,
      with: step.with,
      env: { ...step.env, ANTHROPIC_BASE_URL: anthropic.url },
      path: pathAfterInstall(step),
      apiUrl: api.url,
      repository: `${owner}/${repo}`,
      sha: pr.headSha,
    });
    scratch.push(run.runnerTemp);
    if (run.exitCode !== 0) console.log(run.stdout, run.stderr);
    const report = await readReport(join(pr.dir, "skillgate-report.json"));
    expect([report.agent.adapter, report.cost.agentCalls > 0]).toEqual(["claude-code", true]);
    expect(api.violations).toEqual([]);
    expect(api.checkRuns.map((c) => [c.name, c.head_sha, c.conclusion])).toEqual([
      ["skillgate", pr.headSha, "success"],
    ]);
    expect(run.exitCode).toBe(0);
  }, 300_000);
});

describe("examples/workflows/skillgate-codex.yml", () => {
  it("pull_request: the real Codex CLI, a PR that keeps the skill's rule passes, with the sticky comment and SARIF", async () => {
    const config = `agent:\n  adapter: codex\n  model: gpt-scripted\n  baseUrl: ${responses.url}/v1\n${CLAUDE_CONFIG}`;
    const pr = pullRequest(config, `${SPLIT_GOOD} Ties go to the first person.`);
    const payload = pullRequestEvent(pr, "labeled");
    const { owner, repo } = repository(payload);
    api = await startGitHubApi({ owner, repo, pullFiles: { [payload.number]: pr.files } });
    const step = exampleStep("skillgate-codex.yml", "evaluate", {
      github: { event: payload, sha: "9".repeat(40) },
      secrets,
    });
    expect(step.with).toMatchObject({ agent: "codex", comment: "true" });
    const run = await runActionStep({
      dist,
      workspace: pr.dir,
      eventName: "pull_request",
      payload,
      with: step.with,
      env: step.env,
      path: pathAfterInstall(step),
      apiUrl: api.url,
      repository: `${owner}/${repo}`,
      sha: "9".repeat(40),
    });
    scratch.push(run.runnerTemp);
    if (run.exitCode !== 0) console.log(run.stdout, run.stderr);
    const report = await readReport(join(pr.dir, "skillgate-report.json"));
    expect(report.agent.adapter).toBe("codex");
    expect(report.cost.agentCalls).toBeGreaterThan(0);
    expect(api.violations).toEqual([]);
    expect(api.checkRuns.map((c) => [c.head_sha, c.conclusion])).toEqual([[pr.headSha, "success"]]);
    expect(api.comments.filter((c) => c.issue === payload.number)).toHaveLength(1);
    expect(JSON.parse(readFileSync(join(pr.dir, "skillgate.sarif"), "utf8")).version).toBe("2.1.0");
    expect(run.exitCode).toBe(0);
  }, 300_000);
});

describe("examples/workflows/skillgate-sweep.yml", () => {
  it("workflow_dispatch: four shards evaluate, the merge job posts one check run on the swept commit", async () => {
    const dir = temp("sg-ex-sweep-");
    git(dir, "init", "-q", "-b", "main");
    write(dir, repoFiles(CLAUDE_CONFIG));
    git(dir, "add", "-A");
    git(dir, "commit", "-qm", "skills");
    const sha = git(dir, "rev-parse", "HEAD");
    const template = JSON.parse(readFileSync(join(EVENTS, "pull_request.synchronize.json"), "utf8"));
    const payload = {
      inputs: { skills: "", trials: "2" },
      ref: "refs/heads/main",
      repository: template.repository,
      sender: template.sender,
      workflow: ".github/workflows/skillgate-sweep.yml",
    };
    const { owner, repo } = repository(payload);
    api = await startGitHubApi({ owner, repo });
    const common = {
      dist,
      eventName: "workflow_dispatch",
      payload,
      apiUrl: api.url,
      repository: `${owner}/${repo}`,
      sha,
      workflow: ".github/workflows/skillgate-sweep.yml",
    };
    // the four shard jobs run at once, each on its own runner, as the matrix runs them
    const sweepShard = async (shard: number) => {
      const step = exampleStep("skillgate-sweep.yml", "sweep", {
        github: { event: payload, sha },
        inputs: payload.inputs,
        matrix: { shard },
        secrets,
      });
      expect(step.with).toMatchObject({ agent: "claude-code", shard: `${shard}/4`, trials: "2" });
      // each shard job checks out the commit on its own runner
      const checkout = temp("sg-ex-shard-");
      git(checkout, "clone", "-q", dir, ".");
      const run = await runActionStep({
        ...common,
        workspace: checkout,
        with: step.with,
        env: { ...step.env, ANTHROPIC_BASE_URL: anthropic.url },
        path: pathAfterInstall(step),
        job: "sweep",
      });
      scratch.push(run.runnerTemp);
      expect(run.exitCode, run.stdout).toBe(0); // fail-on: never
      return join(checkout, step.with.report!);
    };
    const reports = await Promise.all([1, 2, 3, 4].map(sweepShard));
    expect(api.checkRuns).toEqual([]); // mode: evaluate posts nothing
    const shards = await Promise.all(reports.map(readReport));
    expect(shards.map((r) => r.agent.adapter)).toEqual(Array(4).fill("claude-code"));
    expect(shards.reduce((n, r) => n + r.cost.agentCalls, 0)).toBeGreaterThan(0);
    const evaluated = shards.flatMap((r) => r.skills.map((s) => s.name));
    expect(evaluated.sort()).toEqual(["round-money", "split-cents"]);
    // the merge job: a fresh checkout, the shard artifacts downloaded into skillgate-reports/
    const merge = temp("sg-ex-merge-");
    git(merge, "clone", "-q", dir, ".");
    mkdirSync(join(merge, "skillgate-reports"));
    for (const r of reports) cpSync(r, join(merge, "skillgate-reports", r.split("/").pop()!));
    const step = exampleStep("skillgate-sweep.yml", "merge", { github: { event: payload, sha }, secrets });
    const run = await runActionStep({
      ...common,
      workspace: merge,
      with: step.with,
      env: step.env,
      job: "merge",
    });
    scratch.push(run.runnerTemp);
    if (run.exitCode !== 0) console.log(run.stdout, run.stderr);
    expect(api.violations).toEqual([]);
    expect(api.checkRuns.map((c) => [c.name, c.head_sha, c.conclusion])).toEqual([
      ["skillgate", sha, "success"],
    ]);
    expect(run.exitCode).toBe(0);
  }, 400_000);
});

describe("examples/workflows/skillgate-fork-safe-*.yml", () => {
  it("evaluate on pull_request posts nothing; report on workflow_run posts the check and the comment on the PR head", async () => {
    const pr = pullRequest(CLAUDE_CONFIG, `${SPLIT_GOOD} Ties go to the first person.`);
    const payload = pullRequestEvent(pr);
    const { owner, repo } = repository(payload);
    const evaluatePath = ".github/workflows/skillgate-evaluate.yml";
    const workflowText = readFileSync(join(EXAMPLES, "skillgate-fork-safe-evaluate.yml"), "utf8");
    api = await startGitHubApi({
      owner,
      repo,
      pullFiles: { [payload.number]: pr.files },
      // the evaluate workflow as the PR's head and the default branch have it: unchanged
      contents: {
        [pr.headSha]: { [evaluatePath]: workflowText },
        [pr.baseSha]: { [evaluatePath]: workflowText },
      },
    });
    const evaluate = exampleStep("skillgate-fork-safe-evaluate.yml", "evaluate", {
      github: { event: payload, sha: "9".repeat(40) },
      secrets,
    });
    const first = await runActionStep({
      dist,
      workspace: pr.dir,
      eventName: "pull_request",
      payload,
      with: evaluate.with,
      env: { ...evaluate.env, ANTHROPIC_BASE_URL: anthropic.url },
      path: pathAfterInstall(evaluate),
      apiUrl: api.url,
      repository: `${owner}/${repo}`,
      sha: "9".repeat(40),
      workflow: evaluatePath,
    });
    scratch.push(first.runnerTemp);
    expect(first.exitCode).toBe(0);
    const evaluated = await readReport(join(pr.dir, evaluate.with.report!));
    expect([evaluated.agent.adapter, evaluated.verdict, evaluated.cost.agentCalls > 0]).toEqual([
      "claude-code",
      "pass",
      true,
    ]);
    expect(api.checkRuns).toEqual([]);
    // part 2: the default branch checked out, the artifact downloaded
    const wrPayload = JSON.parse(readFileSync(join(EVENTS, "workflow_run.completed.json"), "utf8"));
    wrPayload.workflow_run.event = "pull_request";
    wrPayload.workflow_run.head_sha = pr.headSha;
    wrPayload.workflow_run.pull_requests = [
      { number: payload.number, head: { sha: pr.headSha }, base: { sha: pr.baseSha } },
    ];
    wrPayload.workflow.path = evaluatePath;
    expect(wrPayload.workflow_run.event).toBe("pull_request"); // the report job's `if:`
    const base = temp("sg-ex-default-branch-");
    git(base, "clone", "-q", "--branch", "main", pr.dir, ".");
    mkdirSync(join(base, "skillgate-reports"));
    cpSync(join(pr.dir, evaluate.with.report!), join(base, "skillgate-reports/report.json"));
    const report = exampleStep("skillgate-fork-safe-report.yml", "report", {
      github: { event: wrPayload, sha: pr.baseSha, token: "ghs_runnertoken" },
      secrets,
    });
    const second = await runActionStep({
      dist,
      workspace: base,
      eventName: "workflow_run",
      payload: wrPayload,
      with: report.with,
      env: report.env,
      apiUrl: api.url,
      repository: `${owner}/${repo}`,
      sha: pr.baseSha,
    });
    scratch.push(second.runnerTemp);
    if (second.exitCode !== 0) console.log(second.stdout, second.stderr);
    expect(api.violations).toEqual([]);
    expect(api.checkRuns.map((c) => [c.head_sha, c.conclusion])).toEqual([[pr.headSha, "success"]]);
    expect(api.comments.filter((c) => c.issue === payload.number)).toHaveLength(1);
    expect(second.exitCode).toBe(0);
  }, 300_000);
});

/** A job of an example as written (its `if:` and steps), before any expression is evaluated. */
function exampleJob(file: string, job: string) {
  const wf = parse(readFileSync(join(EXAMPLES, file), "utf8"));
  return {
    wf: wf as { concurrency?: unknown },
    on: wf.on,
    job: wf.jobs[job] as {
      if?: string;
      concurrency?: { group: string; "cancel-in-progress"?: boolean };
      steps: Record<string, unknown>[];
    },
  };
}

/** The `ref:` the job's actions/checkout step checks out, evaluated in `contexts`. */
function checkoutRef(file: string, job: string, contexts: Record<string, unknown>): string {
  const checkout = exampleJob(file, job).job.steps.find((s) =>
    String(s.uses).startsWith("actions/checkout@"),
  );
  const ref = (checkout?.with as Record<string, string> | undefined)?.ref;
  expect(ref, `${file}: the checkout step's ref`).toBeDefined();
  return evaluateExpressions(ref!, contexts);
}

/** A `paths:` filter pattern of a workflow trigger as a regular expression. */
const pathPattern = (glob: string) =>
  new RegExp(
    `^${glob
      .replace(/[.+^$()|[\]\\]/g, "\\$&")
      .replace(/\*\*/g, "\0")
      .replace(/\*/g, "[^/]*")
      .replace(/\0/g, ".*")}$`,
  );

describe("examples/workflows/skillgate-main.yml", () => {
  it("push to main fills the trial cache; the README's PR workflow then takes its base arm from it", async () => {
    const pr = pullRequest(CLAUDE_CONFIG, `${SPLIT_GOOD} Ties go to the first person.`);
    const template = JSON.parse(readFileSync(join(EVENTS, "pull_request.synchronize.json"), "utf8"));
    // the push that made main's head (the base of the PR below)
    const push = {
      ref: "refs/heads/main",
      before: "0".repeat(40),
      after: pr.baseSha,
      created: true,
      head_commit: { id: pr.baseSha },
      repository: template.repository,
      sender: template.sender,
    };
    const { owner, repo } = repository(push);
    // on.push: the branch and a path of the pushed commit match the trigger's filters
    const { on } = exampleJob("skillgate-main.yml", "fill-cache");
    expect(on.push.branches).toContain("main");
    const pushed = git(pr.dir, "show", "--name-only", "--format=", pr.baseSha).split("\n");
    expect(pushed.filter((f) => (on.push.paths as string[]).some((p) => pathPattern(p).test(f)))).toContain(
      SPLIT_FILE,
    );
    expect(Object.keys(on)).toContain("schedule");
    api = await startGitHubApi({ owner, repo });
    const main = temp("sg-ex-main-");
    git(main, "clone", "-q", "--branch", "main", pr.dir, ".");
    const fill = exampleStep("skillgate-main.yml", "fill-cache", {
      github: { event: push, sha: pr.baseSha, ref: push.ref },
      secrets,
    });
    expect(fill.with).toMatchObject({ agent: "claude-code" });
    const callsBefore = anthropic.requests.length;
    const first = await runActionStep({
      dist,
      workspace: main,
      eventName: "push",
      payload: push,
      with: fill.with,
      env: { ...fill.env, ANTHROPIC_BASE_URL: anthropic.url },
      path: pathAfterInstall(fill),
      apiUrl: api.url,
      repository: `${owner}/${repo}`,
      sha: pr.baseSha,
      workflow: ".github/workflows/skillgate-main.yml",
      job: "fill-cache",
    });
    scratch.push(first.runnerTemp);
    if (first.exitCode !== 0) console.log(first.stdout, first.stderr);
    expect(first.exitCode).toBe(0);
    const swept = await readReport(join(main, "skillgate-report.json"));
    expect(anthropic.requests.length).toBeGreaterThan(callsBefore);
    expect([swept.agent.adapter, swept.cost.agentCalls > 0]).toEqual(["claude-code", true]);
    expect(swept.skills.map((s) => s.name).sort()).toEqual(["round-money", "split-cents"]);
    // No Actions cache service here: the folder the Action restores and saves is RUNNER_TEMP's, which the
    // runner's cache service would carry from this run to the PR's.
    const saved = join(first.runnerTemp, "skillgate-trial-cache");
    expect(await countEntries(saved)).toBeGreaterThan(0);
    // fail-on: error: the swept commit's check says how its skills fare
    expect(api.violations).toEqual([]);
    expect(api.checkRuns.map((c) => [c.name, c.head_sha, c.conclusion])).toEqual([
      ["skillgate", pr.baseSha, "success"],
    ]);
    // The PR: the README's workflow, its base (main's head) unchanged since the push.
    const payload = pullRequestEvent(pr);
    await api.close();
    api = await startGitHubApi({ owner, repo, pullFiles: { [payload.number]: pr.files } });
    const step = exampleStep("skillgate-claude-code.yml", "evaluate", {
      github: { event: payload, sha: "9".repeat(40), ref: `refs/pull/${payload.number}/merge` },
      secrets,
    });
    const prRun = (restore: boolean) =>
      runActionStep({
        dist,
        workspace: pr.dir,
        eventName: "pull_request",
        payload,
        with: step.with,
        env: { ...step.env, ANTHROPIC_BASE_URL: anthropic.url },
        path: pathAfterInstall(step),
        apiUrl: api!.url,
        repository: `${owner}/${repo}`,
        sha: "9".repeat(40),
        workflow: ".github/workflows/skillgate.yml",
        job: "evaluate",
        // the cache service restoring the default branch's entry into the step's RUNNER_TEMP
        before: (env) => {
          if (restore) cpSync(saved, join(env.RUNNER_TEMP!, "skillgate-trial-cache"), { recursive: true });
        },
      });
    // cold: no cache service (or an evicted entry): both arms ask the model
    const cold = await prRun(false);
    scratch.push(cold.runnerTemp);
    if (cold.exitCode !== 0) console.log(cold.stdout, cold.stderr);
    const withoutCache = await readReport(join(pr.dir, "skillgate-report.json"));
    // warm: main's entry restored; the base arm (split-cents as main has it) is answered from it
    const callsBeforeWarm = anthropic.requests.length;
    const warm = await prRun(true);
    scratch.push(warm.runnerTemp);
    if (warm.exitCode !== 0) console.log(warm.stdout, warm.stderr);
    const withCache = await readReport(join(pr.dir, "skillgate-report.json"));
    expect(withoutCache.cost.cacheHits).toBe(0);
    expect(withCache.cost.cacheHits).toBeGreaterThan(0);
    expect(withCache.cost.agentCalls).toBeLessThan(withoutCache.cost.agentCalls);
    // every call the warm run saved was served from main's store; the warm base arm reads all that main stored
    // (verdict.baseDepth per case, free to the PR), so it holds more trials than the cold one paid for
    expect(withCache.cost.cacheHits).toBeGreaterThanOrEqual(
      withoutCache.cost.agentCalls - withCache.cost.agentCalls,
    );
    expect(anthropic.requests.length).toBeGreaterThan(callsBeforeWarm); // the head arm still runs
    expect([withCache.verdict, withoutCache.verdict]).toEqual(["pass", "pass"]);
    expect(warm.stdout).toMatch(/a pull request's run saves nothing/);
    expect(api.violations).toEqual([]);
    expect(api.checkRuns.map((c) => [c.name, c.head_sha, c.conclusion])).toEqual([
      ["skillgate", pr.headSha, "success"],
      ["skillgate", pr.headSha, "success"],
    ]);
    expect([cold.exitCode, warm.exitCode]).toEqual([0, 0]);
  }, 600_000);
});

describe("examples/workflows/skillgate-on-demand.yml", () => {
  const FILE = "skillgate-on-demand.yml";
  const ON_DEMAND_CONFIG = `${CLAUDE_CONFIG}onDemand:\n  label: skillgate\n`;
  const jobIf = () => exampleJob(FILE, "evaluate").job.if!;
  const event = (name: string) => JSON.parse(readFileSync(join(EVENTS, name), "utf8"));
  /** A comment created on issue `number`; `onPullRequest`: the issue is a pull request. */
  const commentEvent = (body: string, number: number, onPullRequest = true) => {
    const p = event("issue_comment.created.json");
    p.issue.number = number;
    if (onPullRequest)
      p.issue.pull_request = {
        url: `https://api.github.com/repos/${p.repository.full_name}/pulls/${number}`,
      };
    p.comment.body = body;
    return p;
  };

  it("the job's if: a pull_request and a merge_group always start it, a comment only when it is /skillgate on a PR", () => {
    const runs = (eventName: string, payload: unknown) =>
      evaluate(jobIf(), { github: { event_name: eventName, event: payload } });
    expect(runs("pull_request", event("pull_request.synchronize.json"))).toBeTruthy();
    expect(runs("merge_group", event("merge_group.checks_requested.json"))).toBeTruthy();
    expect(runs("issue_comment", commentEvent("/skillgate", 2))).toBeTruthy();
    expect(runs("issue_comment", commentEvent("/skillgate please, the split changed", 2))).toBeTruthy();
    // not the command: no runner starts
    expect(runs("issue_comment", commentEvent("You are totally right! /skillgate later", 2))).toBeFalsy();
    expect(runs("issue_comment", commentEvent("LGTM", 2))).toBeFalsy();
    // the command on an issue that is not a pull request
    expect(runs("issue_comment", commentEvent("/skillgate", 2, false))).toBeFalsy();
    // The concurrency group is claimed by the job once its if: holds: a workflow-level group is claimed by every
    // run, so a comment that is not the command would cancel the PR's evaluation in progress (cancel-in-progress).
    const { wf, job } = exampleJob(FILE, "evaluate");
    expect(wf.concurrency).toBeUndefined();
    const group = (eventName: string, payload: unknown) =>
      evaluateExpressions(job.concurrency!.group, {
        github: { event_name: eventName, event: payload, ref: "refs/heads/x" },
      });
    // a /skillgate run and the PR's own runs share one group: a push to the PR cancels the evaluation of the old head
    expect(group("issue_comment", commentEvent("/skillgate", 2))).toBe("skillgate-2");
    expect(group("pull_request", event("pull_request.synchronize.json"))).toBe("skillgate-2");
    expect(job.concurrency!["cancel-in-progress"]).toBe(true);
  });

  /** The job as the runner runs it for `payload`: its `if:`, its checkout's `ref:`, the skillgate step. */
  async function runJob(o: {
    pr: ReturnType<typeof pullRequest>;
    eventName: string;
    payload: { repository: { owner: { login: string }; name: string } };
    sha: string;
    api: Partial<GitHubApiOptions>;
  }) {
    const { owner, repo } = repository(o.payload);
    api = await startGitHubApi({ owner, repo, ...o.api });
    const contexts = { github: { event_name: o.eventName, event: o.payload, sha: o.sha }, secrets };
    expect(evaluate(jobIf(), contexts), "the job's if:").toBeTruthy();
    // actions/checkout with the evaluated ref, fetch-depth 0
    const ref = checkoutRef(FILE, "evaluate", contexts);
    const workspace = temp("sg-ex-on-demand-");
    git(workspace, "clone", "-q", o.pr.dir, ".");
    if (ref.startsWith("refs/")) git(workspace, "fetch", "-q", "origin", `${ref}:${ref}`);
    git(workspace, "checkout", "-q", "--detach", ref);
    const step = exampleStep(FILE, "evaluate", contexts);
    expect(step.with).toEqual({ agent: "claude-code", "check-name": "skillgate" });
    const modelRequests = anthropic.requests.length;
    const run = await runActionStep({
      dist,
      workspace,
      eventName: o.eventName,
      payload: o.payload,
      with: step.with,
      env: { ...step.env, ANTHROPIC_BASE_URL: anthropic.url },
      path: pathAfterInstall(step),
      apiUrl: api.url,
      repository: `${owner}/${repo}`,
      sha: o.sha,
      workflow: `.github/workflows/${FILE}`,
      job: "evaluate",
    });
    scratch.push(run.runnerTemp);
    if (run.exitCode !== 0) console.log(run.stdout, run.stderr);
    return {
      run,
      ref,
      checkedOut: git(workspace, "rev-parse", "HEAD"),
      modelRequests: anthropic.requests.length - modelRequests,
      report: await readReport(join(workspace, "skillgate-report.json")),
    };
  }

  it("pull_request without the label: no agent runs, the required check is neutral with what would run and cost", async () => {
    const pr = pullRequest(ON_DEMAND_CONFIG, `${SPLIT_GOOD} Ties go to the first person.`);
    const payload = pullRequestEvent(pr);
    const job = await runJob({
      pr,
      eventName: "pull_request",
      payload,
      sha: "9".repeat(40),
      api: { pullFiles: { [payload.number]: pr.files }, labels: { [payload.number]: ["bug"] } },
    });
    expect([job.ref, job.checkedOut]).toEqual([pr.headSha, pr.headSha]);
    expect([job.modelRequests, job.report.cost.agentCalls]).toEqual([0, 0]);
    expect(api!.violations).toEqual([]);
    expect(api!.checkRuns.map((c) => [c.name, c.head_sha, c.conclusion])).toEqual([
      ["skillgate", pr.headSha, "neutral"],
    ]);
    expect(api!.checkRuns[0]!.output.title).toMatch(
      /^not evaluated: add the label "skillgate" or comment \/skillgate/,
    );
    expect(api!.checkRuns[0]!.output.summary).toMatch(/would run [1-9]\d* trial\(s\) of 1 skill\(s\)/);
    expect(job.run.exitCode).toBe(0);
  }, 300_000);

  it("pull_request labeled skillgate: evaluated, the check on the PR head", async () => {
    const pr = pullRequest(ON_DEMAND_CONFIG, `${SPLIT_GOOD} Ties go to the first person.`);
    const payload = pullRequestEvent(pr, "labeled");
    payload.label = { ...payload.label, name: "skillgate" };
    payload.pull_request.labels = [payload.label];
    const job = await runJob({
      pr,
      eventName: "pull_request",
      payload,
      sha: "9".repeat(40),
      api: { pullFiles: { [payload.number]: pr.files }, labels: { [payload.number]: ["skillgate"] } },
    });
    expect(job.modelRequests).toBeGreaterThan(0);
    expect([job.report.agent.adapter, job.report.cost.agentCalls > 0]).toEqual(["claude-code", true]);
    expect(api!.violations).toEqual([]);
    expect(api!.checkRuns.map((c) => [c.name, c.head_sha, c.conclusion])).toEqual([
      ["skillgate", pr.headSha, "success"],
    ]);
    expect(job.run.exitCode).toBe(0);
  }, 300_000);

  it("issue_comment /skillgate by a collaborator with write access: the PR's head checked out and evaluated", async () => {
    const pr = pullRequest(ON_DEMAND_CONFIG, SPLIT_BAD);
    const prPayload = pullRequestEvent(pr);
    const n = prPayload.number as number;
    git(pr.dir, "update-ref", `refs/pull/${n}/head`, pr.headSha); // what GitHub keeps for every PR
    const payload = commentEvent("/skillgate", n);
    const commenter = payload.comment.user.login as string;
    const job = await runJob({
      pr,
      eventName: "issue_comment",
      payload,
      sha: pr.baseSha, // a comment's run is on the default branch's head
      api: {
        pulls: { [n]: prPayload.pull_request },
        pullFiles: { [n]: pr.files },
        labels: { [n]: [] },
        permissions: { [commenter]: "write" },
      },
    });
    expect([job.ref, job.checkedOut]).toEqual([`refs/pull/${n}/head`, pr.headSha]);
    expect(api!.requests.map((r) => r.operationId)).toContain("repos/get-collaborator-permission-level");
    expect(job.modelRequests).toBeGreaterThan(0);
    expect(job.report.cost.agentCalls).toBeGreaterThan(0);
    expect(api!.violations).toEqual([]);
    // the regression is found on the PR's head, as a PR run would find it
    expect(api!.checkRuns.map((c) => [c.name, c.head_sha, c.conclusion])).toEqual([
      ["skillgate", pr.headSha, "failure"],
    ]);
    expect(job.run.exitCode).toBe(1);
  }, 300_000);

  it("merge_group: evaluated whatever the labels", async () => {
    const pr = pullRequest(ON_DEMAND_CONFIG, `${SPLIT_GOOD} Ties go to the first person.`);
    const payload = event("merge_group.checks_requested.json");
    payload.merge_group.base_sha = pr.baseSha;
    payload.merge_group.head_sha = pr.headSha;
    const job = await runJob({ pr, eventName: "merge_group", payload, sha: pr.headSha, api: {} });
    expect(job.checkedOut).toBe(pr.headSha);
    expect([job.modelRequests > 0, job.report.cost.agentCalls > 0]).toEqual([true, true]);
    expect(api!.violations).toEqual([]);
    expect(api!.checkRuns.map((c) => [c.name, c.head_sha, c.conclusion])).toEqual([
      ["skillgate", pr.headSha, "success"],
    ]);
    expect(job.run.exitCode).toBe(0);
  }, 300_000);
});

/**
 * A matrix cell's agent (`sh agent.sh CELL`): answers like the scripted models above, from the installed skill's
 * body; the cell's name is an argument, so each cell is an agent of its own identity.
 */
const CELL_AGENT = `IFS= read -r prompt
skill() { f=".agents/skills/$1/SKILL.md"; [ -f "$f" ] && printf '%s' "$1"; }
knows() { grep -q "$2" ".agents/skills/$1/SKILL.md" 2>/dev/null; }
case "$prompt" in
  *"Split 1000 cents"*) s=$(skill split-cents); if knows split-cents "largest remainder method"; then a=334; else a=333; fi ;;
  *"Round 2.5"*) s=$(skill round-money); if knows round-money "Round half to even"; then a=2; else a=3; fi ;;
  *) s=; a=Done. ;;
esac
act=; [ -n "$s" ] && act="\\"$s\\""
printf '{"output":"%s (1000 cents in all)","skillsActivated":[%s]}' "$a" "$act"
`;

describe("examples/workflows/skillgate-matrix.yml", () => {
  const FILE = "skillgate-matrix.yml";
  // The cells are two `command` agents (a shell script each, differing in their identity): this test is about the
  // workflow's jobs — one per cell, evaluate posting nothing, one merge job posting one check run. The real Claude
  // Code and Codex CLIs as matrix cells are test/run/matrix-demo.test.ts; each CLI in its example workflow above.
  it("pull_request: a job per cell, one merge job posts one check run with a verdict per cell and the interaction", async () => {
    const agent = join(temp("sg-ex-matrix-agent-"), "agent.sh");
    writeFileSync(agent, CELL_AGENT, { mode: 0o755 });
    const cell = (name: string) =>
      `  - name: ${name}\n    adapter: command\n    command: ${JSON.stringify(`sh ${agent} ${name}`)}\n`;
    const config = `agents:\n${cell("claude")}${cell("codex")}${CLAUDE_CONFIG}`;
    const pr = pullRequest(config, SPLIT_BAD);
    const payload = pullRequestEvent(pr);
    const { owner, repo } = repository(payload);
    api = await startGitHubApi({ owner, repo, pullFiles: { [payload.number]: pr.files } });
    const common = {
      dist,
      eventName: "pull_request",
      payload,
      apiUrl: api.url,
      repository: `${owner}/${repo}`,
      sha: "9".repeat(40),
      workflow: `.github/workflows/${FILE}`,
    };
    const cells = exampleJob(FILE, "evaluate").job as unknown as { strategy: { matrix: { cell: string[] } } };
    expect(cells.strategy.matrix.cell).toEqual(["claude", "codex"]);
    const reports: string[] = [];
    for (const cell of cells.strategy.matrix.cell) {
      const contexts = { github: { event: payload, sha: "9".repeat(40) }, matrix: { cell }, secrets };
      expect(checkoutRef(FILE, "evaluate", contexts)).toBe(pr.headSha);
      const step = exampleStep(FILE, "evaluate", contexts);
      expect(step.with).toMatchObject({ cell, mode: "evaluate", "fail-on": "never" });
      const run = await runActionStep({
        ...common,
        workspace: pr.dir,
        with: step.with,
        env: { ...step.env, ANTHROPIC_BASE_URL: anthropic.url },
        path: pathAfterInstall(step),
        job: "evaluate",
      });
      scratch.push(run.runnerTemp);
      if (run.exitCode !== 0) console.log(run.stdout, run.stderr);
      expect(run.exitCode).toBe(0); // fail-on: never; the merge job decides
      reports.push(join(pr.dir, step.with.report!));
    }
    expect(api.checkRuns).toEqual([]); // mode: evaluate posts nothing
    const cellReports = await Promise.all(reports.map(readReport));
    expect(cellReports.map((r) => [r.cell?.name, r.agent.adapter, r.cost.agentCalls > 0])).toEqual([
      ["claude", "command", true],
      ["codex", "command", true],
    ]);
    // the merge job: the base checked out (its config names the cells), the cells' artifacts downloaded
    const contexts = { github: { event: payload, sha: "9".repeat(40) }, secrets };
    const merge = temp("sg-ex-matrix-merge-");
    git(merge, "clone", "-q", pr.dir, ".");
    git(merge, "checkout", "-q", "--detach", checkoutRef(FILE, "merge", contexts));
    expect(git(merge, "rev-parse", "HEAD")).toBe(pr.baseSha);
    mkdirSync(join(merge, "skillgate-reports"));
    for (const r of reports) cpSync(r, join(merge, "skillgate-reports", r.split("/").pop()!));
    const step = exampleStep(FILE, "merge", contexts);
    const run = await runActionStep({
      ...common,
      workspace: merge,
      with: step.with,
      env: step.env,
      job: "merge",
    });
    scratch.push(run.runnerTemp);
    if (run.exitCode !== 1) console.log(run.stdout, run.stderr);
    expect(api.violations).toEqual([]);
    expect(api.checkRuns.map((c) => [c.name, c.head_sha, c.conclusion])).toEqual([
      ["skillgate", pr.headSha, "failure"],
    ]);
    const merged = await readReport(join(merge, "skillgate-report.json"));
    expect(merged.errors).toEqual([]);
    expect(merged.matrix!.cells.map((c) => [c.name, c.verdict])).toEqual([
      ["claude", "fail"],
      ["codex", "fail"],
    ]);
    const inter = merged.matrix!.interactions.find((i) => i.skill === "split-cents")!;
    expect([inter.a, inter.b, Number.isFinite(inter.difference)]).toEqual(["claude", "codex", true]);
    // the discriminator the edit broke, annotated once per cell that lost it
    const titles = api.checkRuns[0]!.annotations.filter(
      (a) => a.path === SPLIT_CASE && a.start_line === DISCRIMINATOR_LINE,
    ).map((a) => a.title);
    expect(titles.some((t) => String(t).includes("(cell claude)"))).toBe(true);
    expect(titles.some((t) => String(t).includes("(cell codex)"))).toBe(true);
    expect(run.summary).toContain("Agent matrix");
    expect(run.exitCode).toBe(1);
  }, 600_000);
});
