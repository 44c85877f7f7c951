/**
 * Issue #27 item 3, end to end through the bundled CLI (`dist/cli.js`, bundled fresh for this file): routing is
 * gated even for a skill with no trigger suite. Its case prompts are the tasks it exists for, so they run as
 * should-fire queries when what the router reads of it changes, and as other skills' negatives when a PR adds a
 * skill that could take them. The agent is a `command` router that picks the installed skill sharing the most
 * words with the prompt (as a harness would: a skill with `disable-model-invocation: true` is never picked) and
 * answers with that skill's body.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Report } from "../../src/model/index.js";
import { bundledDist } from "../support/dist.js";

const scratch: string[] = [];
const temp = (prefix: string) => {
  const d = mkdtempSync(join(tmpdir(), prefix));
  scratch.push(d);
  return d;
};
afterAll(() => {
  for (const d of scratch) rmSync(d, { recursive: true, force: true });
});

let dist: string;
let agentFile: string;
beforeAll(async () => {
  dist = await bundledDist();
  agentFile = join(temp("sg-routing-agent-"), "agent.sh");
  writeFileSync(agentFile, AGENT);
}, 180_000);

/**
 * Routes a prompt to the skill whose description shares most words with it (of four letters or more, two at least;
 * the first skill by name wins a tie), skipping a skill with `disable-model-invocation: true`, and answers with that
 * skill's body. A shell script running awk, not Node: a Node start-up costs ~0.15 s of CPU per agent call on the
 * 2-core test machine.
 */
const AGENT = String.raw`exec env LC_ALL=C awk '
function words(s, set) { s = tolower(s); while (match(s, /[a-z][a-z][a-z][a-z]+/)) { set[substr(s, RSTART, RLENGTH)] = 1; s = substr(s, RSTART + RLENGTH) } }
function json(s) {
  gsub(/\\/, "&&", s); gsub(/"/, "\\\"", s); gsub(/\n/, "\\n", s); gsub(/\r/, "\\r", s); gsub(/\t/, "\\t", s)
  gsub(/\f/, "\\f", s); gsub(/\b/, "\\b", s)
  return "\"" s "\""
}
{ prompt = prompt $0 "\n" }
END {
  words(prompt, asked); dir = ".agents/skills"; n = 0; cmd = "ls " dir " 2>/dev/null"
  while ((cmd | getline s) > 0) skills[++n] = s
  close(cmd); best = ""; body = ""; bestScore = 1
  for (i = 1; i <= n; i++) {
    f = dir "/" skills[i] "/SKILL.md"; text = ""; desc = ""; got = 0; off = 0
    while ((getline line < f) > 0) {
      text = text line "\n"
      if (line ~ /^disable-model-invocation:[ \t]*true/) off = 1
      if (!got && (k = index(line, "description:")) > 0) { desc = substr(line, k + 12); got = 1 }
    }
    close(f)
    if (off) continue
    split("", dw); words(desc, dw); score = 0
    for (w in dw) if (w in asked) score++
    if (score > bestScore) {
      best = skills[i]; bestScore = score; rest = text; body = ""
      if ((a = index(rest, "---")) > 0) { rest = substr(rest, a + 3); if ((b = index(rest, "---")) > 0) body = substr(rest, b + 3) }
      sub(/^[ \t\n\r\f\v]+/, "", body); sub(/[ \t\n\r\f\v]+$/, "", body)
    }
  }
  if (best != "") printf "{\"output\":%s,\"skillsActivated\":[%s]}", json(body), json(best)
  else printf "{\"output\":\"none\",\"skillsActivated\":[]}"
}'
`;

const DESCRIPTION = "Splits a bill in cents between people. Use for splitting totals and shares.";
const GOOD = "Split with the largest remainder method: floor every share, then hand out the leftover cents.";
const BAD = "Divide the total by the number of people and round each share.";

const skill = (name: string, description: string, body: string, extra = "") =>
  `---\nname: ${name}\ndescription: ${description}\n${extra}---\n${body}\n`;

/** A git repository on `main`: `split-cents` gated by cases only (no trigger suite), and an unrelated skill. */
function repository(config = ""): string {
  const dir = temp("sg-routing-repo-");
  const files: Record<string, string> = {
    ".claude/skills/split-cents/SKILL.md": skill("split-cents", DESCRIPTION, GOOD),
    ".agent/evals/split-cents/prompts/c1.yaml":
      "id: c1\nprompt: Split 1000 cents among 3 people.\nassertions:\n  - {id: D:method, type: contains, value: largest remainder}\n",
    ".agent/evals/split-cents/prompts/c2.yaml":
      "id: c2\nprompt: Share a 25 euro bill between 4 people, in cents.\nassertions:\n  - {id: D:method, type: contains, value: largest remainder}\n",
    ".claude/skills/palette/SKILL.md": skill(
      "palette",
      "Choose accessible colour palette contrast.",
      "Use WCAG.",
    ),
    ".agent/evals/palette/trigger-eval.json": JSON.stringify({
      shouldFire: ["pick an accessible colour palette"],
      shouldNotFire: ["bake sourdough bread"],
    }),
    ".skillgate.yml": `agent:\n  adapter: command\n  command: ${JSON.stringify(`sh ${agentFile}`)}\ntrials: 3\ncache:\n  enabled: false\n${config}`,
  };
  write(dir, files);
  git(dir, "init", "-q", "-b", "main");
  git(dir, "add", "-A");
  git(dir, "commit", "-q", "-m", "base");
  git(dir, "checkout", "-q", "-b", "pr");
  return dir;
}
function write(dir: string, files: Record<string, string>) {
  for (const [p, c] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, p)), { recursive: true });
    writeFileSync(join(dir, p), c);
  }
}
const git = (dir: string, ...args: string[]) =>
  execFileSync("git", ["-C", dir, "-c", "user.name=t", "-c", "user.email=t@localhost", ...args], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "ignore"],
  });
function commit(dir: string, files: Record<string, string>) {
  write(dir, files);
  git(dir, "add", "-A");
  git(dir, "commit", "-q", "-m", "pr");
}

async function run(dir: string) {
  const out = join(temp("sg-routing-out-"), "report.json");
  const r = await execa(
    process.execPath,
    [join(dist, "cli.js"), "run", "--repo", dir, "--base", "main", "--quiet", "--json", out],
    { reject: false, env: { XDG_CACHE_HOME: temp("sg-routing-cache-") }, timeout: 240_000 },
  );
  return {
    code: r.exitCode,
    stdout: String(r.stdout),
    report: JSON.parse(readFileSync(out, "utf8")) as Report,
  };
}

/** Every blocking root of every skill: a new skill has no base, so its roots are head-only, not "new". */
const blocking = (report: Report) =>
  report.skills.flatMap((s) => s.blockingRoots.map((r) => `${r.skill} ${r.id} ${r.file}:${r.line}`));

const TWIN = { ".claude/skills/split-bills/SKILL.md": skill("split-bills", DESCRIPTION, BAD) };

describe("routing is gated without a trigger suite", () => {
  it("de-routing: the gated skill's description says 'do not use', a suite-less twin takes its work", async () => {
    const dir = repository();
    commit(dir, {
      ".claude/skills/split-cents/SKILL.md": skill("split-cents", "Legacy helper, do not use.", GOOD),
      ...TWIN,
    });
    const { code, report } = await run(dir);
    expect(report.errors).toEqual([]);
    expect(report.verdict).toBe("fail");
    expect(code).toBe(1);
    const roots = report.newRoots.map((r) => `${r.skill} ${r.id} ${r.file}:${r.line}`);
    // The description no longer catches its own tasks: a root at the description line of the gated skill.
    expect(roots).toContain("split-cents trigger/case/c1 .claude/skills/split-cents/SKILL.md:3");
    expect(roots).toContain("split-cents trigger/case/c2 .claude/skills/split-cents/SKILL.md:3");
    // The new skill fires on the gated skill's prompts: stealing, located on the new skill's description.
    expect(blocking(report)).toContain(
      "split-bills trigger/cross/split-cents/case/c1 .claude/skills/split-bills/SKILL.md:3",
    );
  }, 300_000);

  it("an invented attack of the class: disable-model-invocation on the gated skill, description unchanged", async () => {
    const dir = repository();
    commit(dir, {
      ".claude/skills/split-cents/SKILL.md": skill(
        "split-cents",
        DESCRIPTION,
        GOOD,
        "disable-model-invocation: true\n",
      ),
      ...TWIN,
    });
    const { code, report } = await run(dir);
    expect(report.errors).toEqual([]);
    expect(code).toBe(1);
    const ids = report.newRoots.map((r) => `${r.skill} ${r.id}`);
    expect(ids).toContain("split-cents trigger/case/c1");
    expect(blocking(report)).toContain(
      "split-bills trigger/cross/split-cents/case/c1 .claude/skills/split-bills/SKILL.md:3",
    );
  }, 300_000);

  it("stealing without touching the gated skill: a new skill that outbids it is a located root", async () => {
    const dir = repository();
    commit(dir, {
      ".claude/skills/split-bills/SKILL.md": skill(
        "split-bills",
        `${DESCRIPTION} Splits cents among people in every bill.`,
        BAD,
      ),
    });
    const { code, report } = await run(dir);
    expect(report.errors).toEqual([]);
    expect(code).toBe(1);
    expect(blocking(report)).toContain(
      "split-bills trigger/cross/split-cents/case/c1 .claude/skills/split-bills/SKILL.md:3",
    );
  }, 300_000);

  it("an unrelated new skill without a suite runs no routing probe and passes", async () => {
    const dir = repository();
    commit(dir, {
      ".claude/skills/haiku/SKILL.md": skill("haiku", "Write a haiku about seasons.", "Five, seven, five."),
    });
    const { code, report } = await run(dir);
    expect(report.errors).toEqual([]);
    expect(report.verdict).toBe("pass");
    expect(code).toBe(0);
    expect(report.cost.agentCalls).toBe(0);
  }, 300_000);

  it("requireSuite in the base config: a new skill without a suite is an error on its SKILL.md", async () => {
    const dir = repository("requireSuite: true\n");
    commit(dir, {
      ".claude/skills/haiku/SKILL.md": skill("haiku", "Write a haiku about seasons.", "Five, seven, five."),
    });
    const { code, report } = await run(dir);
    expect(code).toBe(1);
    const haiku = report.skills.find((s) => s.name === "haiku")!;
    const found = haiku.blockingRoots.filter((r) => r.message.includes("requireSuite"));
    expect(found.map((r) => `${r.kind} ${r.file}:${r.line}`)).toEqual([
      "validation .claude/skills/haiku/SKILL.md:2",
    ]);
  }, 300_000);

  it("a PR that drops requireSuite is policy-weakened, and the base's value still applies", async () => {
    const dir = repository("requireSuite: true\n");
    const config = readFileSync(join(dir, ".skillgate.yml"), "utf8").replace("requireSuite: true\n", "");
    commit(dir, {
      ".skillgate.yml": config,
      ".claude/skills/haiku/SKILL.md": skill("haiku", "Write a haiku about seasons.", "Five, seven, five."),
    });
    const { code, report } = await run(dir);
    expect(code).toBe(1);
    expect(report.policy.roots.map((r) => [r.kind, r.id])).toContainEqual([
      "policy-weakened",
      "policy/requireSuite",
    ]);
    expect(JSON.stringify(report)).toContain("skill/suite-required");
  }, 300_000);
});
