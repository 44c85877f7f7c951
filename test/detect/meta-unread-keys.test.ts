/**
 * Issue #33: meta.json accepted `lastRun` and `evalMode` (and `constraints`, the seed's baseline block) without
 * reading them, so a user who set them believed they took effect. Each is now a located warning that says what
 * skillgate does instead; the suite still loads and runs.
 */
import { rmSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { writeRepo } from "../support/repo-files.js";
import { runCli } from "../support/run-cli.js";

const scratch: string[] = [];
afterAll(() => {
  for (const d of scratch) rmSync(d, { recursive: true, force: true });
});

describe("meta.json keys skillgate does not read", () => {
  it("lastRun, evalMode and constraints are located warnings, never silent; the suite stays valid", async () => {
    const meta = `{
  "skillVersion": "1",
  "suiteVersion": "1",
  "lastRun": "2026-11-30",
  "evalMode": "baseline",
  "constraints": ["Do NOT read any file under .agent/skills/"],
  "thresholds": {}
}
`;
    const dir = writeRepo({
      ".agent/skills/split-cents/SKILL.md":
        "---\nname: split-cents\ndescription: Split money in cents among people.\n---\nBody\n",
      ".agent/evals/split-cents/meta.json": meta,
      ".agent/evals/split-cents/prompts/split.yaml":
        'id: split\nprompt: Split 1000 cents.\nassertions:\n  - id: total\n    type: contains\n    value: "1000"\n',
    });
    scratch.push(dir);
    const r = await runCli(["validate", "--repo", dir]);
    const out = r.stdout + r.stderr;
    expect(out).toMatch(/meta\.json:4:\d+: warning: .*lastRun.*not read/);
    expect(out).toMatch(/meta\.json:5:\d+: warning: .*evalMode.*not read/);
    expect(out).toMatch(/meta\.json:6:\d+: warning: .*constraints.*not read.*baseline/);
    expect(r.code).toBe(0);
  });
});
