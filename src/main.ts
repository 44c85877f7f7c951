// The GitHub Action entry (dist/index.js, run by the runner on node24): a thin shell over runAction.
import * as core from "@actions/core";
import { coreActionIO } from "./github/io.js";
import { runAction } from "./github/run-action.js";
import { runPipeline } from "./pipeline.js";
import { EXIT, exitCodeFor } from "./report/exit-codes.js";
import { resolveSettings } from "./settings/resolve.js";

try {
  const result = await runAction({
    io: coreActionIO(),
    env: process.env,
    resolveSettings,
    runPipeline,
    exitCodeFor,
  });
  process.exitCode = result.exitCode;
} catch (e) {
  // Only a bug reaches here: runAction turns every expected failure into a report and an exit code.
  core.setFailed(`skillgate crashed: ${(e as Error).stack ?? e}`);
  process.exitCode = EXIT.error;
}
