/**
 * Issue #39, item 2, through a freshly bundled `dist/cli.js` on a PR: the skill the agent gets is the skill users
 * load. Harnesses load the whole skill folder, its `evals/` too: a file there that SKILL.md tells the agent to
 * read is part of the skill (installed, hashed: a PR editing only it touches the skill). The files the suite
 * loader reads are the answers: a waza `eval.yaml` and its `tasks/` beside SKILL.md are never installed, and a
 * SKILL.md that refers to such a file is an error at its line.
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
  agentFile = join(temp("sg-inst-agent-"), "agent.sh");
  writeFileSync(agentFile, AGENT);
}, 180_000);

/**
 * Follows its skill as an agent would: reads every file the SKILL.md names that is there, and answers by the rule
 * it finds. A cheat too: any `tasks/*.yaml` in the skill folder is read for the expected output, and copied.
 * A shell script, not Node: a Node start-up costs ~0.15 s of CPU per agent call on the 2-core test machine.
 */
const AGENT = String.raw`cat > /dev/null
d=.agents/skills/split-cents
md=$(cat "$d/SKILL.md" 2>/dev/null)
text=$md
for ref in $(printf '%s' "$md" | grep -oE '[A-Za-z0-9_/.-]+\.md\b'); do
  if [ -e "$d/$ref" ]; then text="$text$(cat "$d/$ref")"; fi
done
cheat=$(cat "$d"/tasks/* 2>/dev/null)
case "$text" in
  *"largest remainder"*) parts='334, 333, 333' ;;
  *) case "$cheat" in *334*) parts='334, 333, 333' ;; *) parts='333, 333, 333' ;; esac ;;
esac
if [ -s "$d/SKILL.md" ]; then activated='"split-cents"'; else activated=''; fi
printf '{"output":"Parts for 1000 cents: %s","skillsActivated":[%s]}' "$parts" "$activated"
`;

const DIR = ".claude/skills/split-cents";
const GOOD_RULE = "Use the largest remainder method: floor each share, then hand out the missing cents.";
const BAD_RULE = "Divide and round each share.";
const skillMd = (body: string) =>
  `---\nname: split-cents\ndescription: Split money totals in cents among people without losing a cent.\n---\n# Splitting cents\n\n${body}\n`;
const CONFIG = () =>
  `agent:\n  adapter: command\n  command: ${JSON.stringify(`sh ${agentFile}`)}\ntrials: 2\ntriggerRuns: 1\ncache:\n  enabled: false\nverdict:\n  baseDepth: 4\n`;
const SEED_CASE =
  "id: c\nprompt: Split 1000 cents among 3 people.\nassertions:\n  - id: D:keeps-the-cent\n    type: contains\n    value: '334'\n";

async function runPr(base: Files, head: Files) {
  const pr = pullRequest(temp, base, head);
  const out = join(temp("sg-inst-out-"), "report.json");
  const r = await execa(
    process.execPath,
    [join(dist, "cli.js"), "run", "--repo", pr.dir, "--base", pr.baseSha, "--json", out],
    { reject: false, env: { XDG_CACHE_HOME: temp("sg-inst-cache-") }, timeout: 180_000 },
  );
  return { code: r.exitCode, out: String(r.stdout), report: JSON.parse(readFileSync(out, "utf8")) as Report };
}

describe("the installed skill is the skill users load (item 2)", () => {
  const withRules = (rule: string): Files => ({
    ".skillgate.yml": CONFIG(),
    [`${DIR}/SKILL.md`]: skillMd("Read evals/rules.md and follow it."),
    [`${DIR}/evals/rules.md`]: `${rule}\n`,
    [`${DIR}/evals/meta.json`]: '{"trials": 2, "thresholds": {"discriminatorPassRate": 0.9}}',
    [`${DIR}/evals/prompts/c.yaml`]: SEED_CASE,
  });

  it("a file in the skill's evals/ that SKILL.md names is installed and hashed: editing only it is a change, and a regression fails", async () => {
    const r = await runPr(withRules(GOOD_RULE), { [`${DIR}/evals/rules.md`]: `${BAD_RULE}\n` });
    const skill = r.report.skills[0]!;
    expect(skill.change, r.out).toBe("body");
    expect(r.report.blockingRoots.map((x) => x.id)).toContain("c/D:keeps-the-cent");
    expect(r.code).toBe(1);
  }, 180_000);

  const waza = (body: string): Files => ({
    ".skillgate.yml": CONFIG(),
    [`${DIR}/SKILL.md`]: skillMd(body),
    [`${DIR}/eval.yaml`]: 'name: split-eval\nskill: split-cents\ntasks:\n  - "tasks/*.yaml"\n',
    [`${DIR}/tasks/split.yaml`]:
      'id: split\ninputs:\n  prompt: "Split 1000 cents among 3 people."\nexpected:\n  output_contains:\n    - "334, 333, 333"\n',
  });

  it("a waza suite beside SKILL.md is not installed: an agent cannot copy the expected answer", async () => {
    const r = await runPr(waza(GOOD_RULE), { [`${DIR}/SKILL.md`]: skillMd(BAD_RULE) });
    expect(r.report.blockingRoots.length, r.out).toBeGreaterThan(0);
    expect(r.code).toBe(1);
  }, 180_000);

  // A case may hand the agent a file of the skill's own (design-studio's evals.json lists the skill's
  // references/*.md as case files): it holds no expected answer, so it is installed as users get it (#43).
  const withReference = (rule: string): Files => ({
    ".skillgate.yml": CONFIG(),
    [`${DIR}/SKILL.md`]: skillMd("Read references/rules.md and follow it."),
    [`${DIR}/references/rules.md`]: `${rule}\n`,
    [`${DIR}/evals/evals.json`]: JSON.stringify({
      skill_name: "split-cents",
      evals: [
        {
          id: 1,
          prompt: "Split 1000 cents among 3 people.",
          files: ["references/rules.md"],
          assertions: [{ id: "D:keeps-the-cent", type: "contains", value: "334" }],
        },
      ],
    }),
  });

  it("a case's input file that SKILL.md names is the skill's own: installed, no error, and a regression in it fails", async () => {
    const r = await runPr(withReference(GOOD_RULE), { [`${DIR}/references/rules.md`]: `${BAD_RULE}\n` });
    expect(r.report.diagnostics.filter((d) => d.code === "skill/refers-to-suite-file")).toEqual([]);
    // Installed in both arms: the base follows the good rule and passes, the head the bad one. The edit changes
    // what the case hands the agent too, which the suite diff reports as a changed case.
    const root = r.report.skills[0]!.roots.find((x) => x.id === "eval-1/D:keeps-the-cent");
    expect(root, r.out).toMatchObject({ status: "new", blocking: true, base: { failed: 0 } });
    // The reference is the skill's own: editing it is a skill change, judged by the trials, not a weakened case.
    expect(r.report.skills[0]!.roots.map((x) => x.id).filter((id) => id.startsWith("suite-"))).toEqual([]);
    expect(r.code).toBe(1);
  }, 180_000);

  it("rewording such a reference without a regression passes: no suite-weakened root blocks it", async () => {
    const reworded = `${GOOD_RULE} Never drop a cent.`;
    const r = await runPr(withReference(GOOD_RULE), { [`${DIR}/references/rules.md`]: `${reworded}\n` });
    expect(r.report.skills[0]!.change, r.out).toBe("body");
    expect(r.report.blockingRoots.map((x) => x.id)).toEqual([]);
    expect(r.code, r.out).toBe(0);
  }, 180_000);

  it("a SKILL.md that refers to a withheld suite file is an error at its line", async () => {
    const r = await runPr(waza(GOOD_RULE), {
      [`${DIR}/SKILL.md`]: skillMd(`${GOOD_RULE}\n\nCheck your answer against tasks/split.yaml.`),
    });
    const at = r.report.diagnostics
      .filter((d) => d.code === "skill/refers-to-suite-file")
      .map((d) => `${d.file}:${d.line} ${d.severity}`);
    expect(at).toEqual([`${DIR}/SKILL.md:9 error`]);
    expect(r.code).not.toBe(0);
  }, 180_000);
});
