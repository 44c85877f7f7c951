/**
 * Issue #43's walkthrough, as a new user takes it with the README and docs only, through the bundled CLI: a
 * repository of three skills — one gets a suite from `skillgate init`, one has a skill-creator `evals/evals.json`
 * (expectations, graded by a judge), one has none — a local `command` agent and the example `command` judge of
 * docs/agent-protocol.md, no network. `init` → `validate` (its placeholders at their lines) → a suite filled in →
 * `validate` clean → a harmless PR passes, a PR that breaks the judged skill fails at that skill's expectations.
 * Found by it: the docs described the judge's blocks as `<expectation>`, while their tags end in a per-message
 * code; a judge written from the docs failed every expectation.
 */
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { execa } from "execa";
import { beforeAll, describe, expect, it } from "vitest";
import { parseReport } from "../../src/report/load.js";
import { e2eFile } from "../support/dist.js";
import { writeRepo } from "../support/repo-files.js";

const { cliJs, scratch } = e2eFile();
const EXAMPLE_JUDGE = join(import.meta.dirname, "..", "..", "examples", "judges", "judge.mjs");

/** Loads the installed skill whose description shares the most words with the prompt, then follows its body. */
const AGENT = `import { existsSync, readdirSync, readFileSync } from "node:fs";
const prompt = readFileSync(0, "utf8");
const words = (s) => new Set(s.toLowerCase().match(/[a-z]{4,}/g) ?? []);
const asked = words(prompt);
const installed = existsSync(".agents/skills") ? readdirSync(".agents/skills") : [];
let best = null;
let bestScore = 1;
for (const name of installed) {
  const text = readFileSync(".agents/skills/" + name + "/SKILL.md", "utf8");
  const description = /description:\\s*(.*)/.exec(text)?.[1] ?? "";
  const score = [...words(description)].filter((w) => asked.has(w)).length;
  if (score > bestScore) [best, bestScore] = [{ name, body: text.split("---").slice(2).join("---") }, score];
}
let output = "I would need more detail.";
const split = /(\\d+) cents among (\\d+)/.exec(prompt);
if (split) {
  const [total, n] = [Number(split[1]), Number(split[2])];
  const share = Math.floor(total / n);
  const leftover = best?.body.includes("leftover") ? total - share * n : 0;
  output = Array.from({ length: n }, (_, i) => share + (i < leftover ? 1 : 0)).join(", ");
} else if (best) output = "Following " + best.name + ": " + best.body.trim();
process.stdout.write(JSON.stringify({ output, skillsActivated: best ? [best.name] : [] }));
`;

const skill = (name: string, description: string, body: string) =>
  `---\nname: ${name}\ndescription: ${description}\n---\n# ${name}\n${body}\n`;

const SPLIT = "Splits an amount of cents among people fairly. Use when asked to split money or a bill.";
const NOTES =
  "Writes release notes from a list of merged changes. Use when asked for release notes or a changelog.";
const DATES = "Formats dates in ISO 8601. Use when asked to format or normalise a date.";
const NOTES_BODY = "Group the changes under Added, Fixed and Removed headings.";

const THREE_SKILLS = {
  ".claude/skills/split-bill/SKILL.md": skill(
    "split-bill",
    SPLIT,
    "Give everyone the floor share and hand the leftover cents out one each.",
  ),
  ".claude/skills/release-notes/SKILL.md": skill("release-notes", NOTES, NOTES_BODY),
  ".claude/skills/iso-dates/SKILL.md": skill(
    "iso-dates",
    DATES,
    "Always answer with the date as YYYY-MM-DD.",
  ),
  // skill-creator's format: expectations only, graded by the judge the config names
  ".claude/skills/release-notes/evals/evals.json": `${JSON.stringify(
    {
      skill_name: "release-notes",
      evals: [
        {
          id: 1,
          prompt: "Write release notes for: added dark mode, fixed login crash, removed legacy export.",
          expected_output: "Release notes grouped by kind of change",
          expectations: [
            'The notes have a heading "Fixed" that lists the login crash',
            'The notes have a heading "Added" that lists dark mode',
          ],
        },
      ],
    },
    null,
    2,
  )}\n`,
  "agents/agent.mjs": AGENT,
  // docs/agent-protocol.md: a command agent and a command judge, named by paths from the repository root
  ".skillgate.yml":
    "agent:\n  adapter: command\n  command: node agents/agent.mjs\njudge:\n  adapter: command\n  command: node judges/judge.mjs\n",
};

/** What the user writes over init's placeholders (`TODO-` keys) in the split-bill suite. */
const FILLED_IN = {
  ".claude/skills/split-bill/evals/prompts/example.yaml": [
    "id: example",
    'prompt: "Split a bill of 1000 cents among 3 friends. How many cents does each pay?"',
    "assertions:",
    "  - id: D:avoids-the-tempting-wrong-answer",
    "    type: not-contains",
    '    value: "333, 333, 333"',
    "  - id: activated",
    "    type: skill-used",
    "",
  ].join("\n"),
  ".claude/skills/split-bill/evals/trigger-eval.json": `${JSON.stringify({
    shouldFire: [
      { prompt: "Split this dinner bill of 4700 cents among our four friends" },
      { prompt: "How do we split money for the taxi bill fairly?" },
    ],
    shouldNotFire: [
      { prompt: "Write release notes for the changes merged this week" },
      { prompt: "Format 3 March 2024 as a date in ISO 8601" },
    ],
  })}\n`,
};

let repo = "";
const git = (...args: string[]) =>
  execFileSync("git", ["-c", "user.name=dev", "-c", "user.email=dev@example.com", ...args], { cwd: repo });
const cli = (...args: string[]) => execa("node", [cliJs(), ...args], { cwd: repo, reject: false });

beforeAll(() => {
  repo = writeRepo(THREE_SKILLS, "sg-first-steps-");
  scratch.push(repo);
  mkdirSync(join(repo, "judges"));
  copyFileSync(EXAMPLE_JUDGE, join(repo, "judges", "judge.mjs"));
  git("init", "-q", "-b", "main");
});

/** A PR branch off main with `files` changed, run against main: exit code, printed verdict, JSON report. */
async function pullRequest(branch: string, files: Record<string, string>) {
  git("checkout", "-q", "-b", branch, "main");
  for (const [path, content] of Object.entries(files)) writeFileSync(join(repo, path), content);
  git("commit", "-qam", branch);
  const json = join(repo, "..", `${branch}-${process.pid}.json`);
  scratch.push(json);
  const r = await cli("run", "--base", "main", "--json", json, "--no-color");
  git("checkout", "-q", "main");
  // parsed as `merge` reads a stored report: validated against the schema of the Report type
  return { ...r, report: parseReport(readFileSync(json, "utf8"), json) };
}

describe("a new user's three-skill repository, from init to a PR verdict, offline", () => {
  it("init scaffolds a suite whose placeholders validate names at their lines; filled in, validate passes", async () => {
    const init = await cli("init", "split-bill");
    expect(init.exitCode, init.stderr).toBe(0);
    expect(init.stdout).toContain("skillgate validate");
    const pending = await cli("validate");
    expect(pending.exitCode).toBe(2);
    expect(pending.stdout + pending.stderr).toMatch(
      /prompts\/example\.yaml:\d+:\d+: error: unknown key `TODO-prompt`/,
    );
    expect(pending.stdout + pending.stderr).toMatch(
      /prompts\/example\.yaml:\d+:\d+: error: unknown key `TODO-value`/,
    );
    expect(pending.stdout + pending.stderr).toMatch(
      /trigger-eval\.json:\d+:\d+: error: unknown key `TODO-shouldFire`/,
    );

    for (const [path, content] of Object.entries(FILLED_IN)) writeFileSync(join(repo, path), content);
    const clean = await cli("validate");
    expect(clean.exitCode, clean.stdout + clean.stderr).toBe(0);
    expect(clean.stdout).toContain("3 skill(s), 2 suite(s)");
    git("add", "-A");
    git("commit", "-qm", "three skills, two suites");
  }, 60_000);

  it("a harmless PR (two descriptions reworded) passes", async () => {
    const pr = await pullRequest("reword", {
      ".claude/skills/split-bill/SKILL.md": skill(
        "split-bill",
        "Divides a bill in cents among people, fairly. Use when asked to split money or a bill.",
        "Give everyone the floor share and hand the leftover cents out one each.",
      ),
      ".claude/skills/iso-dates/SKILL.md": skill(
        "iso-dates",
        "Writes dates as ISO 8601. Use when asked to format or normalise a date.",
        "Always answer with the date as YYYY-MM-DD.",
      ),
    });
    expect(pr.exitCode, pr.stdout + pr.stderr).toBe(0);
    expect(pr.report.verdict).toBe("pass");
    // only what the PR touches is evaluated
    expect(pr.report.skills.map((s) => s.name).sort()).toEqual(["iso-dates", "split-bill"]);
    const split = pr.report.skills.find((s) => s.name === "split-bill");
    expect(split?.verdict).toBe("pass");
  }, 240_000);

  it("a PR that drops the headings the judged expectations ask for fails at those expectations", async () => {
    const pr = await pullRequest("merge-headings", {
      ".claude/skills/release-notes/SKILL.md": skill(
        "release-notes",
        NOTES,
        "List every change under one heading.",
      ),
    });
    expect(pr.exitCode, pr.stdout + pr.stderr).toBe(1);
    const notes = pr.report.skills.find((s) => s.name === "release-notes");
    expect(notes?.verdict).toBe("fail");
    const blocking = (notes?.roots ?? []).filter((r) => r.blocking).map((r) => `${r.status} ${r.id}`);
    expect(blocking.sort()).toEqual(["new eval-1/expectation-1", "new eval-1/expectation-2"]);
    expect(pr.stdout).toMatch(
      /NEW assertion eval-1\/expectation-1 {2}\.claude\/skills\/release-notes\/evals\/evals\.json:\d+/,
    );
  }, 240_000);
});
