/**
 * Issue #39, items 3–5, through a freshly bundled `dist/index.js` on a `pull_request` event: what the Action writes
 * and prints must not be steerable by the PR or the agent. A report path committed as a link is never written
 * through; names and answers holding line breaks cannot start runner commands in the log; links and @-mentions
 * in untrusted text reach no Markdown output GitHub renders (check run, job summary, PR comment) as links.
 */
import { lstatSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Files, pullRequest, runPullRequest, scratchFolders } from "../support/action-pr.js";
import { bundledDist } from "../support/dist.js";

const scratch = scratchFolders();
const temp = scratch.temp;
afterAll(() => scratch.cleanup());

let dist: string;
let agentFile: string;
beforeAll(async () => {
  dist = await bundledDist();
  agentFile = join(temp("sg-out-agent-"), "agent.sh");
  writeFileSync(agentFile, AGENT);
}, 180_000);

/**
 * Follows the installed skill (334/333/333 with the largest-remainder rule, else 333 each); its answer also
 * carries what an agent could say to reach a reviewer: a URL, a www address, mentions, an e-mail address, and
 * runner commands after line breaks.
 * A shell script, not Node: a Node start-up costs ~0.15 s of CPU per agent call on the 2-core test machine.
 */
const AGENT = String.raw`cat > /dev/null
md=''
for s in .agents/skills/*; do if [ -e "$s/SKILL.md" ]; then md="$md$(cat "$s/SKILL.md")"; fi; done
case "$md" in *"largest remainder"*) parts='334\n333\n333' ;; *) parts='333\n333\n333' ;; esac
if [ -n "$md" ]; then activated='"split-cents"'; else activated=''; fi
lure='Sign in at https://evil.example/login or www.evil.example, cc @octocat @github/security, mail ops@evil.example'
commands='\n::error::FORGED-BY-AGENT\r::stop-commands::agenttoken\n##[error]FORGED-BY-AGENT'
printf '{"output":"Parts for 1000 cents:\\n%s\\n%s%s","skillsActivated":[%s]}' "$parts" "$lure" "$commands" "$activated"
`;

const GOOD =
  "Use the largest remainder method: floor each share, then hand the missing cents out one by one.";
const BAD = "Divide the total by the number of people and round each share.";
const SKILL_FILE = ".claude/skills/split-cents/SKILL.md";
const SUITE = ".agent/evals/split-cents";
const skillMd = (body: string) =>
  `---\nname: split-cents\ndescription: Split money totals held in integer cents among people without losing a cent.\n---\n# Splitting cents\n\n${body}\n`;
const CASE = `id: split-1000-3\nprompt: Split 1000 cents among 3 people and list the parts.\nassertions:\n  - id: D:keeps-the-cent\n    type: regex\n    value: '334\\s*\\n\\s*333\\s*\\n\\s*333'\n`;
// Unconfined trials: the job's SKILLGATE_ISOLATION=none (UNCONFINED, given to every run below), which the base's
// config accepts (isolation.allowWeaker). These tests check what the Action writes and prints, not the sandbox
// (test/sandbox/ does), and a bubblewrap start per agent call was a large part of this file's CPU.
const UNCONFINED = { SKILLGATE_ISOLATION: "none" };
const baseFiles = (): Files => ({
  ".skillgate.yml": `agent:\n  adapter: command\n  command: ${JSON.stringify(`sh ${agentFile}`)}\ntrials: 2\ntriggerRuns: 1\nverdict:\n  baseDepth: 4\nisolation:\n  allowWeaker: true\n`,
  [SKILL_FILE]: skillMd(GOOD),
  [`${SUITE}/meta.json`]: JSON.stringify({ trials: 2, thresholds: { discriminatorPassRate: 0.9 } }),
  [`${SUITE}/prompts/split-1000-3.yaml`]: CASE,
  ".github/workflows/skillgate.yml": "name: skillgate\non: pull_request\njobs: {}\n",
});

describe("report files are never written through a link (item 3)", () => {
  it("a PR committing skillgate-report.json and the review report as links: the targets stay untouched, the run is a located error", async () => {
    const outside = temp("sg-out-victim-");
    const victim = join(outside, "victim.txt");
    const victimHtml = join(outside, "victim.html");
    writeFileSync(victim, "precious\n");
    writeFileSync(victimHtml, "precious html\n");
    const pr = pullRequest(temp, baseFiles(), {
      [SKILL_FILE]: skillMd(`${GOOD} Ties go to the lower index.`),
      "skillgate-report.json": { link: victim },
      "review.html": { link: victimHtml },
    });
    const run = await runPullRequest(pr, { dist, env: UNCONFINED, with: { "html-report": "review.html" } });
    await run.api.close();
    expect(readFileSync(victim, "utf8")).toBe("precious\n");
    expect(readFileSync(victimHtml, "utf8")).toBe("precious html\n");
    // the report is a file of its own where the link was, and says why the run is an error
    expect(lstatSync(join(pr.dir, "skillgate-report.json")).isFile()).toBe(true);
    const report = JSON.parse(readFileSync(join(pr.dir, "skillgate-report.json"), "utf8"));
    expect(report.verdict).toBe("error");
    expect(report.diagnostics.map((d: { file: string; code: string }) => [d.file, d.code])).toEqual([
      ["skillgate-report.json", "action/report-path-link"],
      ["review.html", "action/report-path-link"],
    ]);
    expect(run.stdout).toMatch(/skillgate-report\.json is a symbolic link in the checkout/);
    expect(run.checks.map((c) => c.conclusion)).toEqual(["failure"]);
    expect(run.checks[0]!.annotations.map((a) => a.path)).toContain("skillgate-report.json");
    expect(run.exitCode).not.toBe(0);
  }, 120_000);

  it("a linked folder on the way to the report: nothing is written there, the run is a located error", async () => {
    const outside = temp("sg-out-victim-dir-");
    const pr = pullRequest(temp, baseFiles(), {
      [SKILL_FILE]: skillMd(`${GOOD} Ties go to the lower index.`),
      reports: { link: outside },
    });
    const run = await runPullRequest(pr, {
      dist,
      env: UNCONFINED,
      with: { report: "reports/skillgate-report.json" },
    });
    await run.api.close();
    expect(() => lstatSync(join(outside, "skillgate-report.json"))).toThrow();
    expect(run.stdout).toMatch(/reports is a symbolic link in the checkout/);
    expect(run.checks.map((c) => c.conclusion)).toEqual(["failure"]);
    expect(run.checks[0]!.annotations.map((a) => a.path)).toContain("reports");
  }, 120_000);
});

/** Lines as the runner reads them (it splits on \n, \r and \r\n) that it would take as commands. */
function runnerCommands(log: string): string[] {
  return log
    .split(/\r\n|\r|\n/)
    .filter((l) => /^\s*::/.test(l) || l.includes("##["))
    .filter((l) => /FORGED|stop-commands/.test(l));
}

const WEIRD =
  ".claude/skills/pr\n::error::FORGED-BY-NAME\r::stop-commands::nametoken\n##[error]FORGED-BY-NAME";

describe("no runner command from repository or agent text (item 4)", () => {
  it("a skill folder named with line breaks and an agent answer holding commands start no line of the log", async () => {
    const pr = pullRequest(temp, baseFiles(), {
      [SKILL_FILE]: skillMd(BAD),
      // no `name:`: the folder's name is the skill's (as Claude Code does)
      [`${WEIRD}/SKILL.md`]: "---\ndescription: Split restaurant bills among friends.\n---\n# x\n",
    });
    const run = await runPullRequest(pr, { dist, env: UNCONFINED });
    await run.api.close();
    // the name and the answer did reach the log (so the test can fail), as text
    expect(run.stdout + run.stderr).toMatch(/FORGED-BY-NAME/);
    expect(runnerCommands(run.stdout)).toEqual([]);
    expect(runnerCommands(run.stderr)).toEqual([]);
    expect(run.checks.map((c) => c.conclusion)).toEqual(["failure"]);
  }, 120_000);

  it("the CLI run by a workflow step: its terminal output starts no runner command either", async () => {
    const pr = pullRequest(temp, baseFiles(), {
      [SKILL_FILE]: skillMd(BAD),
      [`${WEIRD}/SKILL.md`]: "---\ndescription: Split restaurant bills among friends.\n---\n# x\n",
    });
    const r = await execa(
      process.execPath,
      [join(dist, "cli.js"), "run", "--repo", pr.dir, "--base", pr.baseSha, "--verbose"],
      {
        reject: false,
        env: { GITHUB_ACTIONS: "true", XDG_CACHE_HOME: temp("sg-out-cache-"), ...UNCONFINED },
        timeout: 120_000,
      },
    );
    expect(`${r.stdout}${r.stderr}`).toMatch(/FORGED-BY-NAME/);
    expect(runnerCommands(String(r.stdout))).toEqual([]);
    expect(runnerCommands(String(r.stderr))).toEqual([]);
    expect(r.exitCode).toBe(1);
  }, 120_000);
});

/** Decoded text as GitHub's renderer sees it after entities (its autolinker and mention filter run on that). */
const decoded = (md: string) =>
  md.replace(/&#(\d+);/g, (_m, n) => String.fromCodePoint(Number(n))).replace(/&amp;/g, "&");

/** What GitHub would turn into a link or a mention (GFM autolinks, e-mail autolinks, @user and @org/team). */
function linkable(md: string): string[] {
  const text = decoded(md);
  return [
    ...(text.match(/\b(?:https?|ftp):\/\/[^\s<]+/gi) ?? []),
    ...(text.match(/(?:^|[^\w.])www\.[a-z0-9-]+/gim) ?? []),
    ...(text.match(/(?:^|[^\w`])@[a-z0-9][a-z0-9-]*(?:\/[a-z0-9-]+)?/gim) ?? []),
    ...(text.match(/[\w.+-]+@[a-z0-9-]+\.[a-z]{2,}/gi) ?? []),
  ];
}

describe("links and mentions in untrusted text are neutralised (item 5)", () => {
  it("an agent answer with a URL, www address, mentions and an e-mail: none is linkable in the check run, job summary or comment", async () => {
    const pr = pullRequest(temp, baseFiles(), { [SKILL_FILE]: skillMd(BAD) });
    const run = await runPullRequest(pr, { dist, env: UNCONFINED, with: { comment: "true" } });
    await run.api.close();
    expect(run.checks.map((c) => c.conclusion)).toEqual(["failure"]);
    const summary = run.checks[0]!.output.summary ?? "";
    const outputs = { check: summary, job: run.summary, comment: run.comments.map((c) => c.body).join("\n") };
    for (const [where, md] of Object.entries(outputs)) {
      // the answer is quoted (so the test can fail) …
      expect(decoded(md), where).toMatch(/evil/);
      // … and nothing of it links or mentions; only the links skillgate composed itself may be there
      expect(
        linkable(md).filter((l) => !/github\.com\/skillgate|example\.test/.test(l)),
        where,
      ).toEqual([]);
    }
  }, 120_000);
});
