/**
 * Issue #39, item 8, through a freshly bundled `dist/cli.js` on a PR (head over its merge base): a frontmatter
 * that skillgate reads and Claude Code drops. Closed by `...`, or opened by ` ---`, the description is the same
 * to a line reader, so no trigger battery would run, while Claude Code (2.1.332, see
 * test/detect/claude-code-frontmatter.test.ts) lists the skill without its description and no longer routes to it.
 * Each is an error at the line where the two readings part.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Report } from "../../src/model/index.js";
import { type Files, pullRequest, scratchFolders } from "../support/action-pr.js";
import { bundledDist } from "../support/dist.js";

const scratch = scratchFolders();
const temp = scratch.temp;
afterAll(() => scratch.cleanup());
let dist: string;
let agentFile: string;
beforeAll(async () => {
  dist = await bundledDist();
  agentFile = join(temp("sg-fm-agent-"), "agent.mjs");
  writeFileSync(
    agentFile,
    `import { existsSync, readFileSync } from "node:fs";\nreadFileSync(0, "utf8");\nconst on = existsSync(".agents/skills/split-cents/SKILL.md");\nprocess.stdout.write(JSON.stringify({ output: on ? "Parts: 334 333 333" : "Parts: 333 333 333", skillsActivated: on ? ["split-cents"] : [] }));\n`,
  );
}, 180_000);

const SKILL_FILE = ".claude/skills/split-cents/SKILL.md";
const FM = "name: split-cents\ndescription: Split money totals in cents among people without losing a cent.";
const BODY = "\n# Splitting cents\n\nUse the largest remainder method.\n";
const base = (): Files => ({
  ".skillgate.yml": `agent:\n  adapter: command\n  command: ${JSON.stringify(`${process.execPath} ${agentFile}`)}\ntrials: 1\ntriggerRuns: 1\ncache:\n  enabled: false\n`,
  [SKILL_FILE]: `---\n${FM}\n---\n${BODY}`,
  ".agent/evals/split-cents/meta.json": '{"trials": 1, "thresholds": {}}',
  ".agent/evals/split-cents/prompts/c.yaml":
    "id: c\nprompt: Split 1000 cents among 3 people.\nassertions:\n  - id: D:cent\n    type: contains\n    value: '334'\n",
});

async function runPr(skillText: string) {
  const pr = pullRequest(temp, base(), { [SKILL_FILE]: skillText });
  const out = join(temp("sg-fm-out-"), "report.json");
  const r = await execa(
    process.execPath,
    [join(dist, "cli.js"), "run", "--repo", pr.dir, "--base", pr.baseSha, "--json", out],
    { reject: false, env: { XDG_CACHE_HOME: temp("sg-fm-cache-") }, timeout: 120_000 },
  );
  return {
    code: r.exitCode,
    stdout: String(r.stdout),
    report: JSON.parse(readFileSync(out, "utf8")) as Report,
  };
}

const harnessErrors = (report: Report) =>
  report.diagnostics
    .filter((d) => d.code === "skill/frontmatter-harness")
    .map((d) => `${d.file}:${d.line} ${d.severity}`);

const blocking = (report: Report) => report.blockingRoots.map((r) => `${r.kind} ${r.file}:${r.line}`);

describe("frontmatter read as the harness reads it (item 8)", () => {
  it("control: a body edit with the frontmatter as it was passes", async () => {
    const r = await runPr(`---\n${FM}\n---\n${BODY}Ties go to the lower index.\n`);
    expect(harnessErrors(r.report)).toEqual([]);
    expect(r.code, r.stdout).toBe(0);
  }, 120_000);

  it("closed by `...`: an error on that line, never a pass", async () => {
    const r = await runPr(`---\n${FM}\n...\n${BODY}`);
    expect(harnessErrors(r.report)).toEqual([`${SKILL_FILE}:4 error`]);
    expect(blocking(r.report)).toEqual([`validation ${SKILL_FILE}:4`]);
    expect(r.code).toBe(1);
  }, 120_000);

  it("opened by ` ---`: an error on line 1, never a pass", async () => {
    const r = await runPr(` ---\n${FM}\n---\n${BODY}`);
    expect(harnessErrors(r.report)).toEqual([`${SKILL_FILE}:1 error`]);
    expect(blocking(r.report)).toEqual([`validation ${SKILL_FILE}:1`]);
    expect(r.code).toBe(1);
  }, 120_000);
});
