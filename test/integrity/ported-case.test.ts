/**
 * Issue #39, item 1, through a freshly bundled `dist/cli.js` on a PR: another tool's format as a way round the
 * suite comparison. A case ported from skillgate's format to skill-creator's `evals.json` keeps its id and its
 * checks, and meta.json keeps its `vars`; skill-creator has no placeholders, so sent as written its prompt would
 * reach the agent as `Split $total cents …`. Cases are compared as the agent receives them: the names meta.json
 * defines resolve in every format (the ported case is sent and graded as before, and the regression it hides is
 * found), and a port that does change what is sent (a `$$` that was a text `$`) is a case change.
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
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
  agentFile = join(temp("sg-port-agent-"), "agent.mjs");
  writeFileSync(agentFile, AGENT);
}, 180_000);

/**
 * Follows the installed skill on a task it can read; given a task with an unfilled `$placeholder` it copies the
 * worked example of its instructions (334, 333, 333), as agents do with a template they cannot fill.
 */
const AGENT = `import { existsSync, readFileSync } from "node:fs";
const prompt = readFileSync(0, "utf8");
const path = ".agents/skills/split-cents/SKILL.md";
const md = existsSync(path) ? readFileSync(path, "utf8") : "";
const good = md.includes("largest remainder") || /\\$[a-z]/.test(prompt);
process.stdout.write(JSON.stringify({ output: "Parts:\\n" + (good ? "334\\n333\\n333" : "333\\n333\\n333"), skillsActivated: md ? ["split-cents"] : [] }));
`;

const DIR = ".claude/skills/split-cents";
const GOOD = "Use the largest remainder method: floor each share, then hand out the missing cents.";
const BAD = "Divide and round each share. Example: 1000 among 3 is 334, 333, 333.";
const skillMd = (body: string) =>
  `---\nname: split-cents\ndescription: Split money totals in cents among people without losing a cent.\n---\n# Splitting cents\n\n${body}\n`;
const PROMPT = "Split $total cents among $people people and list the parts.";
const REGEX = "334\\\\s*\\\\n\\\\s*333\\\\s*\\\\n\\\\s*333";
const META = JSON.stringify({
  trials: 2,
  thresholds: { discriminatorPassRate: 0.9 },
  vars: { total: 1000, people: 3 },
});

const base = (): Files => ({
  ".skillgate.yml": `agent:\n  adapter: command\n  command: ${JSON.stringify(`${process.execPath} ${agentFile}`)}\ntrials: 2\ntriggerRuns: 1\ncache:\n  enabled: false\nverdict:\n  baseDepth: 4\n`,
  [`${DIR}/SKILL.md`]: skillMd(GOOD),
  [`${DIR}/evals/meta.json`]: META,
  [`${DIR}/evals/prompts/split.yaml`]: `id: split\nprompt: "${PROMPT}"\nassertions:\n  - id: D:keeps-the-cent\n    type: regex\n    value: "${REGEX}"\n`,
});

/** The same case in skill-creator's evals.json: same id, same check, the prompt as written. */
const ported = (prompt: string): Files => ({
  [`${DIR}/evals/prompts/split.yaml`]: null,
  [`${DIR}/evals/evals.json`]: JSON.stringify(
    {
      skill_name: "split-cents",
      evals: [
        {
          id: "split",
          prompt,
          assertions: [{ id: "D:keeps-the-cent", type: "regex", value: REGEX.replaceAll("\\\\", "\\") }],
        },
      ],
    },
    null,
    2,
  ),
});

/** The PR run; the prompts skill trials were sent (from `--record`: each trial's recording holds its prompt). */
async function runPr(head: Files, baseFiles: Files = base()) {
  const pr = pullRequest(temp, baseFiles, head);
  const out = join(temp("sg-port-out-"), "report.json");
  const record = temp("sg-port-rec-");
  const r = await execa(
    process.execPath,
    [join(dist, "cli.js"), "run", "--repo", pr.dir, "--base", pr.baseSha, "--json", out, "--record", record],
    { reject: false, env: { XDG_CACHE_HOME: temp("sg-port-cache-") }, timeout: 180_000 },
  );
  const sent = new Set<string>();
  for (const f of readdirSync(record))
    for (const line of readFileSync(join(record, f), "utf8").split("\n").filter(Boolean)) {
      const rec = JSON.parse(line) as { mode: string; prompt: string };
      if (rec.mode === "skill") sent.add(rec.prompt);
    }
  return {
    code: r.exitCode,
    out: String(r.stdout),
    report: JSON.parse(readFileSync(out, "utf8")) as Report,
    sent: [...sent],
  };
}

describe("a case ported to another tool's format is compared as the agent receives it (item 1)", () => {
  it("control: the port alone, with the skill as it was, passes and sends the same task", async () => {
    const r = await runPr(ported(PROMPT));
    expect(r.sent, r.out).toEqual(["Split 1000 cents among 3 people and list the parts."]);
    expect(r.code, r.out).toBe(0);
  }, 180_000);

  it("the port beside a weakened skill: placeholders still resolve, and the regression is found", async () => {
    const r = await runPr({ ...ported(PROMPT), [`${DIR}/SKILL.md`]: skillMd(BAD) });
    expect(r.sent).toEqual(["Split 1000 cents among 3 people and list the parts."]);
    expect(r.report.blockingRoots.map((x) => x.id)).toContain("split/D:keeps-the-cent");
    expect(r.code).toBe(1);
  }, 180_000);

  it("a port that changes what is sent (a text `$` written `$$` in skillgate's format) is a case change", async () => {
    const withCost = "Split $total cents among $people people; each pays a $$5 fee. List the parts.";
    const b = base();
    b[`${DIR}/evals/prompts/split.yaml`] = (b[`${DIR}/evals/prompts/split.yaml`] as string).replace(
      PROMPT,
      () => withCost,
    );
    const r = await runPr(ported(withCost), b);
    expect(r.report.blockingRoots.map((x) => x.id)).toContain("suite-weakened/case-changed/split/prompt");
    expect(r.code).toBe(1);
  }, 180_000);
});
