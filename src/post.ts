// The action's post step (dist/post.js): completes a check run the main step left open. Never fails the job.
import { coreActionIO } from "./github/io.js";
import { runPost } from "./github/post-action.js";

try {
  await runPost({ io: coreActionIO(), env: process.env });
} catch (e) {
  process.stdout.write(`skillgate post: ${(e as Error).stack ?? e}\n`);
}
process.exitCode = 0;
