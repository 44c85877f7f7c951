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
const r = spawnSync(
  process.execPath,
  [
    join(root, "dist/cli.js"),
    "run",
    "--repo",
    demo,
    "--base-dir",
    join(root, "examples/demo-repo-base"),
    "--config",
    config,
    "--record",
    recordings,
    "--no-cache",
    "--quiet",
  ],
  { stdio: "inherit" },
);
// The sweep of the base (README: `node dist/cli.js run --repo examples/demo-repo-base`) runs every skill's
// batteries; the PR above runs only what it changed. Recordings merge by trial key.
const sweep = spawnSync(
  process.execPath,
  [
    join(root, "dist/cli.js"),
    "run",
    "--repo",
    join(root, "examples/demo-repo-base"),
    "--config",
    config,
    "--record",
    recordings,
    "--no-cache",
    "--quiet",
  ],
  { stdio: "inherit" },
);
rmSync(tmp, { recursive: true, force: true });
console.error(`recorded into ${recordings} (PR run exit ${r.status}, base sweep exit ${sweep.status})`);
