/**
 * Issue #42, where agents run unconfined (SKILLGATE_ISOLATION=none, this process only): the runner gives trigger
 * trials their catalogue as links, never as a bind no sandbox would make (the agent would see an empty skills
 * folder and activate nothing: a silent pass), and a bind asked for an unconfined agent fails.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { confineAgent } from "../../src/agents/confine.js";
import { type RunOptions, runTrials } from "../../src/run/runner.js";
import { isolation } from "../../src/sandbox/isolation/detect.js";
import { makeRequest, recordingLogger, skill } from "../support/trials.js";

let dir: string;
const NAMES = ["alpha", "beta", "gamma"];

beforeAll(() => {
  process.env.SKILLGATE_ISOLATION = "none";
  dir = mkdtempSync(join(tmpdir(), "sg-cat-none-"));
  for (const n of NAMES) {
    mkdirSync(join(dir, "src", n), { recursive: true });
    writeFileSync(join(dir, "src", n, "SKILL.md"), `---\nname: ${n}\ndescription: The ${n} skill.\n---\n`);
  }
});
afterAll(() => {
  delete process.env.SKILLGATE_ISOLATION;
  rmSync(dir, { recursive: true, force: true });
});

describe("unconfined trigger trials", () => {
  test("see the whole catalogue through links (the runner never asks for a bind there)", async () => {
    expect((await isolation()).level).toBe("none");
    const agent = join(dir, "agent.sh");
    writeFileSync(
      agent,
      `#!/bin/sh\ncat > /dev/null\nn=$(ls .agents/skills/*/SKILL.md | wc -l | tr -d ' ')\nprintf '{"output":"n=%s","skillsActivated":[]}' "$n"\n`,
      { mode: 0o755 },
    );
    const options: RunOptions = {
      agent: { adapter: "command", command: agent },
      repoDir: dir,
      concurrency: 1,
      timeoutMs: 20_000,
      maxRetries: 0,
      cache: { enabled: false, dir: join(dir, "cache") },
      budget: {},
      logger: recordingLogger(),
      workspaceParent: dir,
    };
    const install = NAMES.map((n) => skill(n, join(dir, "src", n), ["SKILL.md"], `The ${n} skill.`));
    const out = await runTrials(
      [0, 1].map((trial) =>
        makeRequest({ prompt: "which?", mode: "trigger", caseId: "trigger/fire/0", install, trial }),
      ),
      options,
    );
    for (const r of out.records) {
      expect(r.error).toBeUndefined();
      expect(r.output).toBe("n=3");
    }
  });

  test("a bind asked for an unconfined agent fails instead of hiding the catalogue", async () => {
    const ws = { dir, home: dir, skillPaths: {}, mounts: [{ from: join(dir, "src"), to: join(dir, "x") }] };
    await expect(
      confineAgent("/bin/true", [], { cwd: dir, env: {} }, { workspace: ws, repoDir: dir }),
    ).rejects.toThrow(/read-only catalogue bind/);
  });
});
