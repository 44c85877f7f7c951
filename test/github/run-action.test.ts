import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execa } from "execa";
import { afterEach, describe, expect, it, vi } from "vitest";
import { type CacheAccess, trialCacheKeys } from "../../src/github/cache-actions.js";
import { createGitHubClient } from "../../src/github/client.js";
import { commentMarker } from "../../src/github/comment.js";
import { type ActionDeps, type EvaluationContext, runAction } from "../../src/github/run-action.js";
import type { Report } from "../../src/model/report.js";
import type { Settings } from "../../src/model/settings.js";
import { exitCodeFor } from "../../src/report/exit-codes.js";
import { decideIsolation } from "../../src/run/isolation.js";
import type { RawOptions } from "../../src/settings/resolve.js";
import { type ArtifactService, startArtifactService } from "../support/artifact-service.js";
import {
  type GitHubApi,
  type GitHubApiOptions,
  type RecordedRequest,
  startGitHubApi,
} from "../support/github-api.js";
import { makeReport, makeRoot, makeSkill, manyRoots } from "./fixtures.js";
import { recordingIO } from "./recording-io.js";

const EVENTS = join(import.meta.dirname, "../fixtures/github-events");
/** GITHUB_SHA of a pull_request run is the test merge commit, never the PR head. */
const MERGE_SHA = "9".repeat(40);
/** The fork-safe report workflow as the fixture's `workflow.path` names it, at the run's head and on the base. */
const WORKFLOW_PATH = ".github/workflows/syntax.yml";
const WORKFLOW_RUN_HEAD = "5779607b49aab1200488439f02372c57b4f75444";
const WORKFLOW = "on: pull_request\njobs:\n  evaluate:\n    runs-on: ubuntu-latest\n    steps:\n";
const sameWorkflow = (): Record<string, Record<string, string>> => ({
  [WORKFLOW_RUN_HEAD]: { [WORKFLOW_PATH]: WORKFLOW },
  [MERGE_SHA]: { [WORKFLOW_PATH]: WORKFLOW },
});

let api: GitHubApi | undefined;
const scratch: string[] = [];
afterEach(async () => {
  await api?.close();
  api = undefined;
  await Promise.all(scratch.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

async function setup(o: {
  event?: string;
  payloadFile?: string;
  // biome-ignore lint/suspicious/noExplicitAny: webhook payload fixtures are edited in place.
  patch?: (p: any) => void;
  inputs?: Record<string, string>;
  api?: Partial<GitHubApiOptions>;
  report?: Report | (() => Promise<Report>);
}) {
  const payload = JSON.parse(
    await readFile(join(EVENTS, o.payloadFile ?? "pull_request.synchronize.json"), "utf8"),
  );
  o.patch?.(payload);
  const owner = payload.repository.owner.login;
  const repo = payload.repository.name;
  await api?.close(); // a test may set up twice
  api = await startGitHubApi({
    owner,
    repo,
    // the payload says the PR changes 1 file
    pullFiles: {
      [payload.pull_request?.number ?? 0]: [
        { filename: ".claude/skills/split-cents/SKILL.md", status: "modified" },
      ],
    },
    ...o.api,
  });
  const dir = await mkdtemp(join(tmpdir(), "sg-action-"));
  scratch.push(dir);
  const eventPath = join(dir, "event.json");
  await writeFile(eventPath, JSON.stringify(payload));
  const { io, rec } = recordingIO({ "github-token": "ghs_test", "check-name": "skillgate", ...o.inputs });
  const seen: { raw?: RawOptions; run?: EvaluationContext } = {};
  const deps: ActionDeps = {
    io,
    env: {
      GITHUB_EVENT_NAME: o.event ?? "pull_request",
      GITHUB_EVENT_PATH: eventPath,
      GITHUB_REPOSITORY: `${owner}/${repo}`,
      GITHUB_SHA: MERGE_SHA,
      GITHUB_API_URL: api.url,
      GITHUB_SERVER_URL: "https://github.com",
      GITHUB_RUN_ID: "77",
      GITHUB_WORKSPACE: dir,
    },
    resolveSettings: async (raw) => {
      seen.raw = raw;
      return {
        repoDir: raw.repo,
        policy: {
          origin: "base",
          changes: [],
          headDiagnostics: [],
          overrideLabel: "skillgate: allow-weakening",
        },
      } as unknown as Settings;
    },
    runPipeline: async (_settings, run) => {
      seen.run = run;
      return typeof o.report === "function" ? o.report() : (o.report ?? makeReport());
    },
    exitCodeFor,
    createClient: (token, baseUrl, logger) =>
      createGitHubClient({ token, baseUrl, logger, retryAfterBaseValue: 1, writeSpacing: "none" }),
  };
  return { deps, rec, payload, dir, seen };
}

interface CheckBody {
  status?: string;
  output?: { annotations?: unknown[] };
}
const checkBody = (r: RecordedRequest) => (r.body ?? {}) as CheckBody;
/** A REST pull request object (the webhook payload's, which has every field `pulls.get` returns) with this head. */
async function forkPull(number: number, headSha: string) {
  const pr = JSON.parse(await readFile(join(EVENTS, "pull_request.synchronize.json"), "utf8")).pull_request;
  return { ...pr, number, head: { ...pr.head, sha: headSha } };
}

const annotationRequests = (a: GitHubApi) =>
  a.requests.filter((r) => r.operationId?.startsWith("checks/") && checkBody(r).output?.annotations);

describe("runAction on a pull_request that regresses a skill", () => {
  it("creates one check run on the PR head SHA, 120 roots in 3 annotation requests, fails", async () => {
    const roots = manyRoots(120);
    const report = makeReport({ skills: [makeSkill({ roots })] });
    const { deps, rec, payload, seen } = await setup({
      report,
      api: {
        pullFiles: {
          2: [
            { filename: ".claude/skills/split-cents/SKILL.md", status: "modified" },
            { filename: "skills/b/SKILL.md", status: "renamed", previous_filename: "skills/a/SKILL.md" },
          ],
        },
      },
      patch: (p) => {
        p.pull_request.changed_files = 2;
      },
    });
    const result = await runAction(deps);
    expect(api!.violations).toEqual([]);
    expect(result.exitCode).toBe(1);
    expect(api!.checkRuns).toHaveLength(1);
    const run = api!.checkRuns[0]!;
    expect(run.head_sha).toBe(payload.pull_request.head.sha);
    expect(run.head_sha).not.toBe(MERGE_SHA);
    expect(run.name).toBe("skillgate");
    expect(run.status).toBe("completed");
    expect(run.conclusion).toBe("failure");
    // created in_progress before the evaluation
    const create = api!.requests.find((r) => r.operationId === "checks/create")!;
    expect(checkBody(create).status).toBe("in_progress");
    const batches = annotationRequests(api!).map((r) => checkBody(r).output!.annotations!.length);
    expect(batches).toEqual([50, 50, 20]);
    expect(run.annotations).toHaveLength(120);
    expect(run.annotations[0]).toMatchObject({
      path: roots[0]!.file,
      start_line: 1,
      end_line: 1,
      annotation_level: "failure",
    });
    expect(String(run.annotations[0]!.message)).toContain("expected the first part not to be 333");
    expect(run.output.title).toBe("fail: 120 blocking roots (120 new) in 1 skill");
    // changed files came from the API, both sides of the rename
    expect(seen.raw?.changedFiles).toEqual([
      ".claude/skills/split-cents/SKILL.md",
      "skills/a/SKILL.md",
      "skills/b/SKILL.md",
    ]);
    expect(seen.raw?.base).toBe(payload.pull_request.base.sha);
    expect(rec.outputs).toMatchObject({ verdict: "fail", "new-roots": "120" });
    expect(JSON.parse(await readFile(rec.outputs.report!, "utf8")).pullRequest).toBe(2);
    expect(rec.summary.join("")).toContain("Blocking root failures");
    expect(rec.annotations).toEqual([]); // check run worked: no workflow-command fallback
  });

  it("orders new roots before pre-existing ones and warnings", async () => {
    const report = makeReport({
      skills: [
        makeSkill({
          roots: [
            makeRoot({ id: "old", status: "pre-existing", blocking: false, line: 2 }),
            makeRoot({ id: "fresh", line: 40 }),
          ],
        }),
      ],
    });
    const { deps } = await setup({ report });
    await runAction(deps);
    expect(api!.checkRuns[0]!.annotations.map((a) => [a.start_line, a.annotation_level])).toEqual([
      [40, "failure"],
      [2, "warning"],
    ]);
  });

  it("with a read-only token (403) prints ::error annotations within GitHub's caps and still exits non-zero", async () => {
    const report = makeReport({ skills: [makeSkill({ roots: manyRoots(25) })] });
    const { deps, rec } = await setup({ report, api: { readOnly: true } });
    const result = await runAction(deps);
    expect(result.exitCode).toBe(1);
    expect(api!.checkRuns).toHaveLength(0);
    expect(rec.annotations).toHaveLength(10);
    expect(rec.annotations[0]).toMatchObject({ level: "error", file: manyRoots(1)[0]!.file, line: 1 });
    expect(rec.log.join("\n")).toMatch(/cannot write check runs \(403/);
    expect(rec.log.join("\n")).toMatch(/15 finding\(s\) above as log lines/);
    expect(rec.summary.join("")).toContain("Blocking root failures");
    expect(result.publishedTo).toContain("workflow-commands");
    expect(api!.violations).toEqual([]);
  });

  it("keeps one sticky comment, updated in place", async () => {
    const marker = commentMarker("skillgate");
    const { deps } = await setup({
      inputs: { comment: "true" },
      api: { comments: { 2: ["LGTM", `${marker}\nold results`] } },
    });
    await runAction(deps);
    await runAction(deps);
    const ours = api!.comments.filter((c) => c.body.includes(marker));
    expect(ours).toHaveLength(1);
    expect(ours[0]!.body).toContain("Blocking root failures");
    expect(api!.comments).toHaveLength(2);
    expect(api!.requests.filter((r) => r.operationId === "issues/create-comment")).toHaveLength(0);
    expect(api!.violations).toEqual([]);
  });

  describe("the HTML review report", () => {
    let results: ArtifactService | undefined;
    afterEach(async () => {
      vi.unstubAllEnvs();
      await results?.close();
      results = undefined;
    });
    /** The runner gives a `uses:` step its results service in the environment (@actions/artifact reads process.env). */
    const withResults = (deps: ActionDeps, r: ArtifactService) => {
      for (const [k, v] of Object.entries({ ACTIONS_RUNTIME_TOKEN: r.token, ACTIONS_RESULTS_URL: r.url })) {
        deps.env[k] = v;
        vi.stubEnv(k, v);
      }
    };

    it("is written, uploaded as an artifact and linked from the check run, the job summary and the comment", async () => {
      results = await startArtifactService();
      const report = makeReport();
      const { deps, rec, dir, payload } = await setup({
        report,
        inputs: { comment: "true", "html-report": "out/skillgate-report.html" },
      });
      const slug = payload.repository.full_name;
      withResults(deps, results);
      const result = await runAction(deps);
      expect(result.publishedTo).toEqual(expect.arrayContaining(["check-run", "summary", "comment"]));
      const page = await readFile(join(dir, "out/skillgate-report.html"), "utf8");
      expect(page).toMatch(/^<!doctype html>/);
      // files link to the head commit on GitHub
      expect(page).toContain(`href="https://github.com/${slug}/blob/${report.head.sha}/.agent/evals/`);
      const uploaded = results.artifacts[0]!;
      expect(uploaded).toMatchObject({ name: "skillgate-report.html", finalized: true });
      expect(uploaded.content.toString("utf8")).toBe(page);
      const url = `https://github.com/${slug}/actions/runs/77/artifacts/${uploaded.id}`;
      expect(rec.outputs["review-report-url"]).toBe(url);
      expect(api!.checkRuns[0]!.output.summary).toContain(`[Review report](${url})`);
      expect(rec.summary.join("")).toContain(`[Review report](${url})`);
      expect(api!.comments.at(-1)!.body).toContain(`[Review report](${url})`);
      expect(api!.violations).toEqual([]);
    });

    it("is written but not linked where the step has no artifact service, and a failed upload blocks nothing", async () => {
      const { deps, rec, dir } = await setup({ inputs: { "html-report": "skillgate-report.html" } });
      const result = await runAction(deps);
      expect(await readFile(join(dir, "skillgate-report.html"), "utf8")).toContain("review report");
      expect(rec.log.join("\n")).toMatch(/no artifact service in this step: not uploaded/);
      expect(api!.checkRuns[0]!.output.summary).not.toContain("Review report");
      expect(result.publishedTo).toContain("check-run");

      results = await startArtifactService({ failCreate: true });
      const second = await setup({ inputs: { "html-report": "skillgate-report.html" } });
      withResults(second.deps, results);
      const failed = await runAction(second.deps);
      expect(second.rec.log.join("\n")).toMatch(/warning: could not upload the review report \(.*403/);
      expect(failed.publishedTo).toContain("check-run");
      expect(failed.exitCode).toBe(1); // the verdict's, not the upload's
      expect(second.rec.outputs["review-report-url"]).toBeUndefined();
    });
  });

  it("retries a 5xx from the API", async () => {
    const { deps } = await setup({
      api: { faults: [{ operationId: "checks/create", status: 502, count: 1 }] },
    });
    const result = await runAction(deps);
    expect(result.publishedTo).toContain("check-run");
    expect(api!.checkRuns).toHaveLength(1);
    expect(api!.requests.filter((r) => r.operationId === "checks/create").map((r) => r.status)).toEqual([
      502, 201,
    ]);
  });

  it("falls back down the chain when completing the check run keeps failing (5xx after retries)", async () => {
    const { deps, rec } = await setup({
      api: { faults: [{ operationId: "checks/update", status: 500, count: 10 }] },
    });
    const result = await runAction(deps);
    expect(result.exitCode).toBe(1);
    expect(result.publishedTo).toEqual(["summary", "workflow-commands"]);
    expect(rec.annotations[0]).toMatchObject({ level: "error", line: 9 });
    expect(rec.log.join("\n")).toMatch(/check run unavailable \(500 while completing the check run/);
    // 1 try + 3 retries
    expect(api!.requests.filter((r) => r.operationId === "checks/update")).toHaveLength(4);
  });

  it("posts an error verdict when the pipeline throws, exit 3", async () => {
    const { deps } = await setup({
      report: async () => {
        throw new Error("agent exploded");
      },
    });
    const result = await runAction(deps);
    expect(result.exitCode).toBe(3);
    expect(api!.checkRuns[0]!.conclusion).toBe("failure");
    expect(api!.checkRuns[0]!.output.title).toMatch(/^error: skillgate failed: agent exploded/);
  });

  it("a runner that cannot isolate fully ends in error (exit 3) with the level in the report, unless the base accepts it", async () => {
    const reached = { level: "namespaces", reason: "bubblewrap in an unprivileged user namespace" } as const;
    const pipeline = async (settings: Settings) => {
      const d = decideIsolation(reached, settings);
      if (!d.go) throw d.refused;
      return makeReport({ skills: [makeSkill({ roots: [] })], isolation: d.report });
    };
    const refused = await setup({});
    refused.deps.runPipeline = pipeline;
    const result = await runAction(refused.deps);
    expect(result.exitCode).toBe(3);
    expect(result.report?.verdict).toBe("error");
    expect(result.report?.isolation).toMatchObject({ level: "namespaces", required: "uid+namespaces" });
    expect(api!.checkRuns[0]!.output.title).toMatch(
      /^error: isolation: this runner reaches only "namespaces"/,
    );
    const accepted = await setup({});
    const resolve = accepted.deps.resolveSettings;
    accepted.deps.resolveSettings = async (raw, logger) => ({
      ...(await resolve(raw, logger)),
      isolation: { required: false, allowWeaker: true },
    });
    accepted.deps.runPipeline = pipeline;
    const ok = await runAction(accepted.deps);
    expect(ok.exitCode).toBe(0);
    expect(ok.report?.isolation).toMatchObject({ level: "namespaces", weakerAccepted: "config" });
  });

  it("a passing report concludes success and exits 0", async () => {
    const { deps, rec } = await setup({ report: makeReport({ skills: [makeSkill({ roots: [] })] }) });
    expect((await runAction(deps)).exitCode).toBe(0);
    expect(api!.checkRuns[0]!.conclusion).toBe("success");
    expect(rec.outputs["new-roots"]).toBe("0");
  });
});

describe("runAction limits and events", () => {
  it("caps annotations at 500 per check run, in batches of 50, and says how many were left out", async () => {
    const report = makeReport({ skills: [makeSkill({ roots: manyRoots(600) })] });
    const { deps } = await setup({ report });
    await runAction(deps);
    const sizes = annotationRequests(api!).map((r) => checkBody(r).output!.annotations!.length);
    expect(sizes).toEqual(Array(10).fill(50));
    expect(api!.checkRuns[0]!.output.summary).toMatch(/100 further annotation\(s\) are not shown here/);
    expect(api!.checkRuns[0]!.output.summary!.length).toBeLessThanOrEqual(65_535);
    expect(api!.violations).toEqual([]);
  });

  it("push to the default branch: a full evaluation (no changed-file filter) checked on the pushed commit", async () => {
    const { deps, seen, payload } = await setup({
      event: "push",
      patch: (p) => {
        p.after = "a".repeat(40);
      },
    });
    await runAction(deps);
    expect(seen.raw?.changedFiles).toBeUndefined();
    expect(seen.raw?.base).toBeUndefined();
    expect(api!.checkRuns[0]!.head_sha).toBe(payload.after);
  });

  it("beyond the API's 3,000-file cap reads the change from git", async () => {
    const { deps, seen, dir, payload } = await setup({
      patch: (p) => {
        p.pull_request.changed_files = 5000;
      },
    });
    const env = {
      ...process.env,
      GIT_AUTHOR_NAME: "t",
      GIT_AUTHOR_EMAIL: "t@e.test",
      GIT_COMMITTER_NAME: "t",
      GIT_COMMITTER_EMAIL: "t@e.test",
    };
    const git = async (...args: string[]) => (await execa("git", args, { cwd: dir, env })).stdout.trim();
    await git("init", "-q");
    await writeFile(join(dir, "kept.md"), "x");
    await git("add", "kept.md");
    await git("commit", "-qm", "base");
    const base = await git("rev-parse", "HEAD");
    await writeFile(join(dir, "big-change.md"), "y");
    await git("add", "big-change.md");
    await git("commit", "-qm", "head");
    const head = await git("rev-parse", "HEAD");
    payload.pull_request.base.sha = base;
    payload.pull_request.head.sha = head;
    await writeFile(deps.env.GITHUB_EVENT_PATH!, JSON.stringify(payload));
    await runAction(deps);
    expect(seen.raw?.changedFiles).toEqual(["big-change.md"]);
    expect(api!.checkRuns[0]!.head_sha).toBe(head);
  });
});

describe("runAction refusals and modes", () => {
  it("refuses pull_request_target unless allowed, saying why, before any API call", async () => {
    const { deps, rec } = await setup({ event: "pull_request_target" });
    const result = await runAction(deps);
    expect(result.exitCode).toBe(2);
    expect(rec.annotations[0]!.message).toMatch(
      /refuses to evaluate pull request code under `pull_request_target`.*write token/,
    );
    expect(api!.requests).toHaveLength(0);

    const allowed = await setup({
      event: "pull_request_target",
      inputs: { "allow-pull-request-target": "true" },
    });
    expect((await runAction(allowed.deps)).exitCode).toBe(1);
  });

  it("rejects a malformed boolean input with its name", async () => {
    const { deps, rec } = await setup({ inputs: { comment: "yes" } });
    expect((await runAction(deps)).exitCode).toBe(2);
    expect(rec.annotations[0]!.message).toBe('input comment: expected true or false, got "yes"');
  });

  it("report mode merges shard reports and posts them on the workflow_run head SHA", async () => {
    const { deps, payload, dir } = await setup({
      event: "workflow_run",
      payloadFile: "workflow_run.completed.json",
      inputs: { mode: "report", "reports-from": "shards", comment: "true" },
      patch: (p) => {
        p.workflow_run.pull_requests = [];
      },
      api: {
        pulls: { 7: await forkPull(7, "5779607b49aab1200488439f02372c57b4f75444") },
        contents: sameWorkflow(),
      },
    });
    await mkdir(join(dir, "shards"));
    const head = { sha: payload.workflow_run.head_sha };
    await writeFile(
      join(dir, "shards/1.json"),
      JSON.stringify(
        makeReport({
          head,
          shard: { index: 1, total: 2 },
          skills: [makeSkill({ name: "a", roots: [], discriminator: undefined, base: undefined })],
          pullRequest: 7,
        }),
      ),
    );
    await writeFile(
      join(dir, "shards/2.json"),
      JSON.stringify(
        makeReport({
          head,
          shard: { index: 2, total: 2 },
          // non-statistical roots: the report carries no per-trial evidence to recompute assertion roots from
          skills: [
            makeSkill({
              name: "b",
              roots: manyRoots(3, { skill: "b", kind: "threshold" }),
              discriminator: undefined,
              base: undefined,
            }),
          ],
          pullRequest: 7,
        }),
      ),
    );
    const result = await runAction(deps);
    expect(result.exitCode).toBe(1);
    expect(api!.checkRuns).toHaveLength(1);
    expect(api!.checkRuns[0]!.head_sha).toBe(payload.workflow_run.head_sha);
    expect(api!.checkRuns[0]!.annotations).toHaveLength(3);
    // fork PRs have no workflow_run.pull_requests: the PR number travels in the report, checked against the PR's head
    expect(api!.comments.map((c) => c.issue)).toEqual([7]);
    expect(api!.violations).toEqual([]);
  });

  it("report mode refuses to comment on a PR the report names but whose head is another commit", async () => {
    const { deps, payload, dir, rec } = await setup({
      event: "workflow_run",
      payloadFile: "workflow_run.completed.json",
      inputs: { mode: "report", "reports-from": "r.json", comment: "true" },
      patch: (p) => {
        p.workflow_run.pull_requests = [];
      },
      api: { pulls: { 8: await forkPull(8, "0".repeat(40)) }, contents: sameWorkflow() },
    });
    await writeFile(
      join(dir, "r.json"),
      JSON.stringify(makeReport({ head: { sha: payload.workflow_run.head_sha }, pullRequest: 8 })),
    );
    await runAction(deps);
    expect(api!.comments).toHaveLength(0);
    expect(rec.log.join("\n")).toMatch(/names PR #8, whose head is 0{40}/);
    expect(api!.checkRuns).toHaveLength(1);
    expect(api!.violations).toEqual([]);
  });

  it("report mode fails closed on a report of another commit", async () => {
    const { deps, dir } = await setup({
      event: "workflow_run",
      payloadFile: "workflow_run.completed.json",
      inputs: { mode: "report", "reports-from": "r.json" },
      api: { contents: sameWorkflow() },
    });
    // An honest report (no statistical root without its evidence), only of another commit.
    const other = makeReport({
      head: { sha: "1".repeat(40) },
      skills: [makeSkill({ roots: [], discriminator: undefined, base: undefined, verdict: "pass" })],
    });
    await writeFile(join(dir, "r.json"), JSON.stringify(other));
    expect((await runAction(deps)).exitCode).toBe(3);
    expect(api!.checkRuns[0]!.output.title).toMatch(/^error: the report is of commit 1{40}/);
  });

  it("report mode refuses a report made by a workflow file the pull request changed", async () => {
    const contents = sameWorkflow();
    contents[WORKFLOW_RUN_HEAD]![WORKFLOW_PATH] =
      `${WORKFLOW}      - run: echo '{"verdict":"pass"}' > report.json\n`;
    const { deps, payload, dir } = await setup({
      event: "workflow_run",
      payloadFile: "workflow_run.completed.json",
      inputs: { mode: "report", "reports-from": "r.json" },
      api: { contents },
    });
    await writeFile(
      join(dir, "r.json"),
      JSON.stringify(makeReport({ verdict: "pass", head: { sha: payload.workflow_run.head_sha } })),
    );
    expect((await runAction(deps)).exitCode).toBe(3);
    const out = api!.checkRuns[0]!.output;
    expect(out.title).toMatch(/^error/);
    expect(out.summary).toMatch(/made by \.github\/workflows\/syntax\.yml as the pull request changed it/);
  });

  it("report mode refuses statistical roots that carry no per-trial evidence", async () => {
    const { deps, payload, dir } = await setup({
      event: "workflow_run",
      payloadFile: "workflow_run.completed.json",
      inputs: { mode: "report", "reports-from": "r.json" },
      api: { contents: sameWorkflow() },
    });
    const forged = makeReport({
      verdict: "pass",
      head: { sha: payload.workflow_run.head_sha },
      skills: [
        makeSkill({
          name: "a",
          roots: manyRoots(1, { skill: "a", status: "pre-existing", blocking: false }),
        }),
      ],
    });
    await writeFile(join(dir, "r.json"), JSON.stringify(forged));
    expect((await runAction(deps)).exitCode).toBe(3);
    expect(api!.checkRuns[0]!.output.summary).toMatch(/carries no per-trial evidence/);
  });

  it("evaluate mode (fork-safe first half) writes the report and posts nothing", async () => {
    const { deps, rec } = await setup({ inputs: { mode: "evaluate" } });
    const result = await runAction(deps);
    expect(result.exitCode).toBe(1);
    expect(api!.requests.filter((r) => r.method !== "GET")).toHaveLength(0);
    expect(JSON.parse(await readFile(rec.outputs.report!, "utf8")).verdict).toBe("fail");
  });

  it("a pull request's run reads the trial cache only after checking its ref; a push's run writes it", async () => {
    const prefix = trialCacheKeys().restoreKeys[0]!;
    const pr = await setup({ api: { caches: [{ key: `${prefix}forged`, ref: "refs/pull/2/merge" }] } });
    await runAction(pr.deps);
    expect(pr.seen.run?.cacheAccess.kind).toBe("read-only");
    const access = pr.seen.run!.cacheAccess as Extract<CacheAccess, { kind: "read-only" }>;
    expect(await access.verify()).toMatch(/1 cache\(s\) under refs\/pull\/2\/merge carry skillgate's key/);
    expect(api!.requests.some((r) => r.operationId === "actions/get-actions-cache-list")).toBe(true);
    await api!.close();
    api = undefined;
    const push = await setup({
      event: "push",
      patch: (p) => {
        p.after = "a".repeat(40);
      },
    });
    await runAction(push.deps);
    expect(push.seen.run?.cacheAccess).toEqual({ kind: "read-write" });
  });

  it("fail-on: never keeps the job green but the check run truthful", async () => {
    const { deps } = await setup({ inputs: { "fail-on": "never" } });
    expect((await runAction(deps)).exitCode).toBe(0);
    expect(api!.checkRuns[0]!.conclusion).toBe("failure");
  });
});

/** A git repository in `dir` with a base commit and a head commit that edits the skill; their SHAs. */
async function gitPair(dir: string): Promise<{ base: string; head: string }> {
  const env = {
    ...process.env,
    GIT_AUTHOR_NAME: "t",
    GIT_AUTHOR_EMAIL: "t@e.test",
    GIT_COMMITTER_NAME: "t",
    GIT_COMMITTER_EMAIL: "t@e.test",
  };
  const git = async (...args: string[]) => (await execa("git", args, { cwd: dir, env })).stdout.trim();
  await git("init", "-q");
  await mkdir(join(dir, ".claude/skills/split-cents"), { recursive: true });
  await writeFile(join(dir, ".claude/skills/split-cents/SKILL.md"), "base\n");
  await writeFile(join(dir, "README.md"), "x\n");
  await git("add", "-A");
  await git("commit", "-qm", "base");
  const base = await git("rev-parse", "HEAD");
  await writeFile(join(dir, ".claude/skills/split-cents/SKILL.md"), "head\n");
  await git("commit", "-qam", "head");
  return { base, head: await git("rev-parse", "HEAD") };
}

describe("merge queues", () => {
  it("merge_group: evaluates the group's head against its base and posts the check on merge_group.head_sha", async () => {
    const { deps, seen, dir, payload } = await setup({
      event: "merge_group",
      payloadFile: "merge_group.checks_requested.json",
      api: { labels: { 104: ["skillgate: allow-weakening"] } },
    });
    const { base, head } = await gitPair(dir);
    payload.merge_group.base_sha = base;
    payload.merge_group.head_sha = head;
    await writeFile(deps.env.GITHUB_EVENT_PATH!, JSON.stringify(payload));
    const result = await runAction(deps);
    expect(api!.violations).toEqual([]);
    expect(seen.raw).toMatchObject({ base, head, changedFiles: [".claude/skills/split-cents/SKILL.md"] });
    expect(api!.checkRuns.map((c) => [c.head_sha, c.name, c.status])).toEqual([
      [head, "skillgate", "completed"],
    ]);
    // the PR the group was made for (pr-104 in its head ref): its label, read fresh from the API, counts
    expect(api!.requests.some((r) => r.url.includes("/issues/104/labels"))).toBe(true);
    expect(result.report?.head.sha).toBe(head);
    expect(result.exitCode).toBe(1);
  });

  it("a merge group that changes the workflow running skillgate gets the blocking policy/workflow finding", async () => {
    const { deps, seen, dir, payload } = await setup({
      event: "merge_group",
      payloadFile: "merge_group.checks_requested.json",
    });
    const { base } = await gitPair(dir);
    const env = {
      ...process.env,
      GIT_COMMITTER_NAME: "t",
      GIT_COMMITTER_EMAIL: "t@e.test",
      GIT_AUTHOR_NAME: "t",
      GIT_AUTHOR_EMAIL: "t@e.test",
    };
    await mkdir(join(dir, ".github/workflows"), { recursive: true });
    await writeFile(join(dir, ".github/workflows/skillgate.yml"), "on: merge_group\n");
    await execa("git", ["add", "-A"], { cwd: dir, env });
    await execa("git", ["commit", "-qm", "workflow"], { cwd: dir, env });
    payload.merge_group.base_sha = base;
    payload.merge_group.head_sha = (await execa("git", ["rev-parse", "HEAD"], { cwd: dir })).stdout.trim();
    await writeFile(deps.env.GITHUB_EVENT_PATH!, JSON.stringify(payload));
    let policyIds: string[] = [];
    deps.env.GITHUB_WORKFLOW_REF = `${deps.env.GITHUB_REPOSITORY}/.github/workflows/skillgate.yml@refs/heads/gh-readonly-queue/main/pr-104-x`;
    const inner = deps.runPipeline;
    deps.runPipeline = async (settings, opts) => {
      policyIds = settings.policy.changes.map((c) => c.id);
      return inner(settings, opts);
    };
    await runAction(deps);
    expect(seen.raw?.changedFiles).toContain(".github/workflows/skillgate.yml");
    expect(policyIds).toEqual(["policy/workflow"]);
  });
});

/** Signals delivered by the test instead of the OS. */
function fakeSignals() {
  const listeners = new Map<string, ((s: NodeJS.Signals) => void)[]>();
  return {
    on: (s: string, f: (s: NodeJS.Signals) => void) => listeners.set(s, [...(listeners.get(s) ?? []), f]),
    off: (s: string, f: (s: NodeJS.Signals) => void) =>
      listeners.set(
        s,
        (listeners.get(s) ?? []).filter((x) => x !== f),
      ),
    emit: (s: NodeJS.Signals) => {
      for (const f of listeners.get(s) ?? []) f(s);
    },
    count: () => [...listeners.values()].flat().length,
  };
}

describe("a cancelled or timed-out job completes its check run", () => {
  async function interrupted(o: { minutesBeforeSignal: number; timeoutMinutes?: number }) {
    let release: ((r: Report) => void) | undefined;
    const { deps, rec, dir } = await setup({ report: () => new Promise<Report>((r) => (release = r)) });
    if (o.timeoutMinutes !== undefined) {
      await mkdir(join(dir, ".github/workflows"), { recursive: true });
      await writeFile(
        join(dir, ".github/workflows/skillgate.yml"),
        `on: pull_request\njobs:\n  evaluate:\n    timeout-minutes: ${o.timeoutMinutes}\n    runs-on: ubuntu-latest\n    steps: []\n`,
      );
      deps.env.GITHUB_WORKFLOW_REF = `${deps.env.GITHUB_REPOSITORY}/.github/workflows/skillgate.yml@refs/pull/2/merge`;
      deps.env.GITHUB_JOB = "evaluate";
    }
    const signals = fakeSignals();
    let clock = new Date("2026-11-29T12:00:00Z");
    const exited: number[] = [];
    let onExit: () => void = () => {};
    const exitedOnce = new Promise<void>((r) => (onExit = r));
    Object.assign(deps, {
      signals,
      now: () => clock,
      exit: (code: number) => {
        exited.push(code);
        onExit();
      },
    });
    const running = runAction(deps);
    // the check run is open and recorded for the post step before the evaluation starts
    await vi.waitFor(() => expect(release).toBeDefined(), { timeout: 20_000 });
    expect(rec.state["check-run"]).toBeDefined();
    expect(api!.checkRuns[0]!.status).toBe("in_progress");
    clock = new Date(clock.getTime() + o.minutesBeforeSignal * 60_000);
    signals.emit("SIGINT");
    signals.emit("SIGTERM"); // 7.5 s later the runner insists: changes nothing
    await exitedOnce;
    release!(makeReport()); // let the test's promise settle
    await running;
    return { rec, exited, signals };
  }

  it("SIGINT from a cancellation: cancelled, recorded as completed, exit 130", async () => {
    const { rec, exited } = await interrupted({ minutesBeforeSignal: 3 });
    const check = api!.checkRuns[0]!;
    expect(check.status).toBe("completed");
    expect(check.conclusion).toBe("cancelled");
    expect(check.output.summary).toMatch(/cancelled before skillgate finished/);
    expect(rec.state["check-run-completed"]).toBe("true");
    expect(exited).toEqual([130]);
    expect(api!.violations).toEqual([]);
  });

  it("a signal at the job's timeout-minutes (read from its workflow file): timed_out", async () => {
    await interrupted({ minutesBeforeSignal: 29, timeoutMinutes: 30 });
    expect(api!.checkRuns[0]!.conclusion).toBe("timed_out");
    expect(api!.checkRuns[0]!.output.summary).toMatch(/timeout-minutes: 30/);
  });

  it("a signal while the check run is being created waits for it, then completes it", async () => {
    let release: ((r: Report) => void) | undefined;
    const { deps, rec } = await setup({ report: () => new Promise<Report>((r) => (release = r)) });
    const signals = fakeSignals();
    const exited: number[] = [];
    let onExit: () => void = () => {};
    const exitedOnce = new Promise<void>((r) => (onExit = r));
    Object.assign(deps, {
      signals,
      exit: (code: number) => {
        exited.push(code);
        onExit();
      },
    });
    const running = runAction(deps);
    signals.emit("SIGTERM"); // checks.create is in flight
    await exitedOnce;
    expect(api!.checkRuns.map((c) => [c.status, c.conclusion])).toEqual([["completed", "cancelled"]]);
    expect(rec.state["check-run-completed"]).toBe("true");
    expect(exited).toEqual([143]);
    await vi.waitFor(() => expect(release).toBeDefined(), { timeout: 20_000 });
    release!(makeReport());
    await running;
  });

  it("a run that finishes stops listening for signals", async () => {
    const { deps } = await setup({});
    const signals = fakeSignals();
    Object.assign(deps, { signals });
    await runAction(deps);
    expect(signals.count()).toBe(0);
  });
});

describe("report mode: where the reports come from", () => {
  async function sweepMerge(o: { event: string; commitReports: boolean }) {
    const sha = "b".repeat(40);
    const { deps, dir } = await setup({
      event: o.event,
      inputs: { mode: "report", "reports-from": "skillgate-reports" },
      patch: (p) => {
        delete p.pull_request;
      },
    });
    deps.env.GITHUB_SHA = sha;
    await mkdir(join(dir, "skillgate-reports"));
    await writeFile(
      join(dir, "skillgate-reports/shard-1.json"),
      JSON.stringify(
        makeReport({
          head: { sha },
          skills: [makeSkill({ name: "a", roots: [], discriminator: undefined, base: undefined })],
        }),
      ),
    );
    if (o.commitReports) {
      const env = {
        ...process.env,
        GIT_AUTHOR_NAME: "t",
        GIT_AUTHOR_EMAIL: "t@e.test",
        GIT_COMMITTER_NAME: "t",
        GIT_COMMITTER_EMAIL: "t@e.test",
      };
      await execa("git", ["init", "-q"], { cwd: dir, env });
      await execa("git", ["add", "skillgate-reports"], { cwd: dir, env });
      await execa("git", ["commit", "-qm", "reports"], { cwd: dir, env });
    }
    return { result: await runAction(deps), sha };
  }

  it("a sweep's merge job (workflow_dispatch) posts the shard reports its own jobs uploaded", async () => {
    const { result, sha } = await sweepMerge({ event: "workflow_dispatch", commitReports: false });
    expect(result.report?.errors).toEqual([]);
    expect(api!.checkRuns.map((c) => [c.head_sha, c.conclusion])).toEqual([[sha, "success"]]);
    expect(result.exitCode).toBe(0);
  });

  it("reports committed in the repository are not posted as a verdict, whatever they say", async () => {
    const { result } = await sweepMerge({ event: "push", commitReports: true });
    expect(result.report?.verdict).toBe("error");
    expect(result.report?.errors.join("\n")).toMatch(
      /skillgate-reports\/shard-1\.json is a file committed in the repository/,
    );
    expect(api!.checkRuns.map((c) => c.conclusion)).toEqual(["failure"]);
  });

  it("on a pull_request event a report has no known origin: refused", async () => {
    const { deps, dir, payload } = await setup({ inputs: { mode: "report", "reports-from": "r.json" } });
    await writeFile(
      join(dir, "r.json"),
      JSON.stringify(
        makeReport({ head: { sha: payload.pull_request.head.sha }, skills: [makeSkill({ roots: [] })] }),
      ),
    );
    const result = await runAction(deps);
    expect(result.report?.errors.join("\n")).toMatch(/the pull_request event names no workflow run/);
    expect(result.report?.verdict).toBe("error");
  });
});
