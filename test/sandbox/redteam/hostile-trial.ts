import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runTrials } from "../../../src/run/runner.js";
import { makeRequest, recordingLogger } from "../../support/trials.js";

/**
 * One trial of a hostile `node <script>` command agent through the real runner, confined as the machine allows:
 * its own scratch checkout and an off cache, no retry; `extraEnv` names the variables it may see.
 */
export function runHostileTrial(
  script: string,
  opts: {
    prompt: string;
    name: string;
    extraEnv: string[];
    timeoutMs?: number;
    sandbox?: Record<string, number>;
  },
) {
  return runTrials([makeRequest({ prompt: opts.prompt })], {
    agent: {
      adapter: "command",
      command: `node ${script}`,
      ...(opts.sandbox ? { options: { sandbox: opts.sandbox } } : {}),
    },
    repoDir: mkdtempSync(join(tmpdir(), `sg-redteam-${opts.name}-repo-`)),
    concurrency: 1,
    timeoutMs: opts.timeoutMs ?? 60_000,
    maxRetries: 0,
    cache: { enabled: false, dir: mkdtempSync(join(tmpdir(), `sg-redteam-${opts.name}-cache-`)) },
    budget: {},
    logger: recordingLogger(),
    extraEnv: opts.extraEnv,
  });
}
