// Re-records the demo's trials by running examples/demo-agent (a real process speaking the `command` protocol)
// through the real pipeline, head against base and a sweep of the base, and writing replay recordings next to the demo.
// Usage: npm run bundle && node scripts/record-demo.mjs
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const demo = join(root, "examples/demo-repo");
// Recordings live in the base: in a PR the agent configuration and the files it names come from the trusted base.
const recordings = join(root, "examples/demo-repo-base/.skillgate/recordings");
const tmp = mkdtempSync(join(tmpdir(), "skillgate-record-"));
const config = join(tmp, "record.skillgate.yml");
writeFileSync(
  config,
  `agent:\n  adapter: command\n  command: ${JSON.stringify(`${process.execPath} ${join(root, "examples/demo-agent/agent.mjs")}`)}\ntrials: 3\ntriggerRuns: 3\nconcurrency: 4\nbudget:\n  maxAgentCalls: 5000\n`,
);
// The recording run must not stop at the default budget (500 calls): confirmation trials cut short would be missing
// from the recordings, and the replay would ask for them.
rmSync(recordings, { recursive: true, force: true });
const record = (args) =>
  spawnSync(
    process.execPath,
    [
      join(root, "dist/cli.js"),
      "run",
      ...args,
      "--config",
      config,
      "--record",
      recordings,
      "--no-cache",
      "--quiet",
    ],
    { stdio: "inherit" },
  ).status;
// The PR the demo shows (head against base), then a sweep of the base (every battery of every skill), so that
// `npm run demo` and the README's sweep `node dist/cli.js run --repo examples/demo-repo-base` both replay.
const pr = record(["--repo", demo, "--base-dir", join(root, "examples/demo-repo-base")]);
const sweep = record(["--repo", join(root, "examples/demo-repo-base")]);
rmSync(tmp, { recursive: true, force: true });
console.error(`recorded into ${recordings} (the PR: exit ${pr}; the sweep of the base: exit ${sweep})`);
