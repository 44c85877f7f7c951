/**
 * The action's `post:` step (dist/post.js, `post-if: always()`): completes the check run the main step opened
 * when the main step ended without completing it (killed after a cancellation or at the job's timeout, or the API
 * failed it), so a required check never stays `in_progress`. It never fails the job itself.
 */

import type { Verdict } from "../model/report.js";
import type { Logger } from "../model/settings.js";
import { CheckRun } from "./check-run.js";
import { createGitHubClient, type GitHubClient, httpStatus } from "./client.js";
import { runUrl, workflowFile } from "./context.js";
import {
  type InterruptedOutput,
  interruptedConclusion,
  interruptedOutput,
  jobTimeoutMinutes,
  parseOpenCheckRun,
  STATE,
} from "./interruption.js";
import { type ActionIO, actionLogger } from "./io.js";

export interface PostDeps {
  io: ActionIO;
  env: Record<string, string | undefined>;
  createClient?(token: string, baseUrl: string, logger: Logger): GitHubClient;
  now?(): Date;
}

export type PostOutcome =
  | { action: "nothing"; why: string }
  | { action: "concluded"; output: InterruptedOutput }
  | { action: "failed"; why: string };

const VERDICTS: readonly string[] = ["pass", "fail", "error"];

export async function runPost(deps: PostDeps): Promise<PostOutcome> {
  const { io, env } = deps;
  const now = deps.now ?? (() => new Date());
  const open = parseOpenCheckRun(io.getState(STATE.checkRun));
  const done = (outcome: PostOutcome): PostOutcome => {
    io.info(
      outcome.action === "concluded"
        ? `skillgate post: the check run was still open; completed it as ${outcome.output.conclusion}`
        : `skillgate post: ${outcome.why}`,
    );
    return outcome;
  };
  if (!open)
    return done({ action: "nothing", why: "the main step opened no check run: nothing to complete" });
  if (io.getState(STATE.completed) === "true")
    return done({ action: "nothing", why: `check run ${open.id} was completed by the main step` });
  const token = io.getInput("github-token");
  if (!token) return done({ action: "failed", why: `no github-token to complete check run ${open.id} with` });
  const workspace = env.GITHUB_WORKSPACE || process.cwd();
  const timeoutMinutes = jobTimeoutMinutes(workspace, workflowFile(env), env.GITHUB_JOB);
  const saved = io.getState(STATE.verdict);
  const output = interruptedOutput({
    conclusion: interruptedConclusion({ startedAt: new Date(open.startedAt), now: now(), timeoutMinutes }),
    reason: "the skillgate step ended without completing its check run",
    verdict: VERDICTS.includes(saved) ? (saved as Verdict) : undefined,
    timeoutMinutes,
    runUrl: runUrl({
      serverUrl: env.GITHUB_SERVER_URL || "https://github.com",
      owner: open.owner,
      repo: open.repo,
      runId: env.GITHUB_RUN_ID,
    }),
  });
  const logger = actionLogger(io);
  const client = (
    deps.createClient ?? ((t, u, l) => createGitHubClient({ token: t, baseUrl: u, logger: l }))
  )(token, env.GITHUB_API_URL || "https://api.github.com", logger);
  const check = new CheckRun(
    client,
    { owner: open.owner, repo: open.repo, headSha: open.headSha, name: open.name },
    open.id,
  );
  try {
    await check.conclude(output, now());
  } catch (e) {
    return done({
      action: "failed",
      why: `could not complete check run ${open.id} (${httpStatus(e) ?? "network"}): ${(e as Error).message}`,
    });
  }
  return done({ action: "concluded", output });
}
