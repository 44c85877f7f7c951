/**
 * Issue #16, end to end through the bundled CLI (`dist/cli.js`, bundled fresh for this file): each way a PR author
 * could get a green check without a better skill — delete the suite, loosen a discriminator, relax the policy in
 * the PR's own files, ship checks that cannot run, point the run at nothing — ends non-zero with a located
 * finding. The agent is a deterministic `command` agent that follows the skill it finds installed: with the
 * largest-remainder rule it answers 334/333/333, without it 333/333/333 (the lost cent).
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Report } from "../../src/model/index.js";
import { bundledDist } from "../support/dist.js";
import { writeRepo } from "../support/repo-files.js";

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
  agentFile = join(temp("sg-int-agent-"), "agent.sh");
  writeFileSync(agentFile, AGENT);
}, 180_000);

/**
 * Follows the installed skill; routes trigger prompts to the skill whose description shares most words (of four
 * letters or more; two at least, the first skill listed wins a tie). A shell script running awk, not Node: a run
 * makes dozens of agent calls, and a Node start-up costs ~0.15 s of CPU each on the 2-core test machine.
 */
const AGENT = String.raw`exec env LC_ALL=C awk '
function words(s, set) { while (match(s, /[a-z][a-z][a-z][a-z]+/)) { set[substr(s, RSTART, RLENGTH)] = 1; s = substr(s, RSTART + RLENGTH) } }
{ prompt = prompt $0 "\n" }
END {
  dir = ".agents/skills"; n = 0; cmd = "ls " dir " 2>/dev/null"
  while ((cmd | getline s) > 0) skills[++n] = s
  close(cmd)
  if (ENVIRON["SKILLGATE_MODE"] == "trigger") {
    words(tolower(prompt), asked); best = ""; bestScore = 1
    for (i = 1; i <= n; i++) {
      f = dir "/" skills[i] "/SKILL.md"; desc = ""; got = 0
      while ((getline line < f) > 0) if (!got && (k = index(line, "description:")) > 0) { desc = substr(line, k + 12); got = 1 }
      close(f); sub(/^[ \t]+/, "", desc)
      split("", dw); words(tolower(desc), dw); score = 0
      for (w in dw) if (w in asked) score++
      if (score > bestScore) { best = skills[i]; bestScore = score }
    }
    if (best != "") printf "{\"output\":\"using %s\",\"skillsActivated\":[\"%s\"]}", best, best
    else printf "{\"output\":\"no skill\",\"skillsActivated\":[]}"
  } else {
    md = ""; f = dir "/split-cents/SKILL.md"
    for (i = 1; i <= n; i++) if (skills[i] == "split-cents") while ((getline line < f) > 0) md = md line "\n"
    parts = index(md, "largest remainder") ? "334\\n333\\n333" : "333\\n333\\n333"
    printf "{\"output\":\"Parts for 1000 cents:\\n%s\",\"skillsActivated\":[%s]}", parts, md == "" ? "" : "\"split-cents\""
  }
}'
`;

const GOOD =
  "Use the largest remainder method: floor each share, then hand the missing cents out one by one.";
const BAD = "Divide the total by the number of people and round each share.";
const DESCRIPTION =
  "Split money totals held in integer cents among people without losing a cent. Use when splitting bills, refunds or allocations.";

const skillMd = (body: string, description = DESCRIPTION) =>
  `---\nname: split-cents\ndescription: ${description}\n---\n# Splitting cents\n\n${body}\n`;

const SUITE = ".agent/evals/split-cents";
const CASE_FILE = `${SUITE}/prompts/split-1000-3.yaml`;
const caseYaml = (regex = "334\\s*\\n\\s*333\\s*\\n\\s*333", extra = "") =>
  `id: split-1000-3
prompt: Split 1000 cents among 3 people and list the parts.
assertions:
  - id: mentions-total
    type: contains
    value: "1000"
  - id: D:keeps-the-cent
    type: regex
    value: '${regex}'
${extra}`;

const TRIGGER = JSON.stringify(
  {
    shouldFire: [
      { prompt: "Split this restaurant bill of 9000 cents among people fairly" },
      { prompt: "Allocate refunds in cents among people without losing a cent" },
      { prompt: "Splitting money totals among people, cents must add up" },
    ],
    shouldNotFire: [{ prompt: "Write a haiku about autumn leaves" }],
  },
  null,
  2,
);

interface RepoOpts {
  body?: string;
  description?: string;
  caseYaml?: string | null;
  /** null: no meta.json. */
  meta?: Record<string, unknown> | null;
  config?: string;
  trigger?: string | null;
  extra?: Record<string, string>;
}

// verdict.baseDepth 6: a cold PR fills a suspect's base arm to it (30 by default); these runs test integrity, not
// the verdict's depth, and stay short.
function repo(o: RepoOpts = {}): string {
  const files: Record<string, string> = {
    ".claude/skills/split-cents/SKILL.md": skillMd(o.body ?? GOOD, o.description),
    ".skillgate.yml":
      o.config ??
      `agent:\n  adapter: command\n  command: ${JSON.stringify(`sh ${agentFile}`)}\ntrials: 3\ntriggerRuns: 3\ncache:\n  enabled: false\nverdict:\n  baseDepth: 6\n`,
    ...(o.extra ?? {}),
  };
  if (o.meta !== null)
    files[`${SUITE}/meta.json`] = JSON.stringify(o.meta ?? { trials: 3, thresholds: {} }, null, 2);
  if (o.caseYaml !== null) files[CASE_FILE] = o.caseYaml ?? caseYaml();
  if (o.trigger !== null && o.trigger !== undefined) files[`${SUITE}/trigger-eval.json`] = o.trigger;
  const dir = writeRepo(files, "sg-int-repo-");
  scratch.push(dir);
  return dir;
}

async function cli(args: string[], env: Record<string, string> = {}) {
  const out = join(temp("sg-int-out-"), "report.json");
  const r = await execa(process.execPath, [join(dist, "cli.js"), ...args, "--json", out], {
    reject: false,
    // Unconfined trials (SKILLGATE_ISOLATION=none, the operator's switch): what is checked here is the verdict, not
    // the sandbox (test/sandbox/ checks that); a bubblewrap start per agent call was a third of this file's CPU.
    env: { XDG_CACHE_HOME: temp("sg-int-cache-"), SKILLGATE_ISOLATION: "none", ...env },
    timeout: 240_000,
  });
  let report: Report | undefined;
  try {
    report = JSON.parse(readFileSync(out, "utf8")) as Report;
  } catch {
    report = undefined;
  }
  return { code: r.exitCode, stdout: String(r.stdout), stderr: String(r.stderr), report };
}

const pr = (head: string, base: string) => cli(["run", "--repo", head, "--base-dir", base, "--quiet"]);
/** The honest regression (the bad body, nothing else changed): one run, read by the control and by merge's test. */
let honestRun: ReturnType<typeof pr> | undefined;
const honestRegression = () => {
  honestRun ??= pr(repo({ body: BAD }), repo());
  return honestRun;
};
const roots = (r: Report | undefined) => r?.blockingRoots ?? [];

describe("a PR cannot talk skillgate out of its verdict", () => {
  it("control: the honest regression fails on the discriminator, located on its line", async () => {
    const r = await honestRegression();
    expect(r.code).toBe(1);
    expect(
      roots(r.report).some((x) => x.id === "split-1000-3/D:keeps-the-cent" && x.file === CASE_FILE),
    ).toBe(true);
  }, 240_000);

  it("deleting the suite of the edited skill is a blocking suite-removed root on its SKILL.md", async () => {
    const r = await pr(repo({ body: BAD, caseYaml: null, meta: null }), repo());
    expect(r.code).toBe(1);
    const removed = roots(r.report).filter((x) => x.kind === "suite-weakened");
    expect(removed.length).toBeGreaterThan(0);
    expect(removed[0]!.file).toBe(".claude/skills/split-cents/SKILL.md");
  }, 240_000);

  it("loosening the discriminator's regex until the wrong answer passes is a blocking suite-weakened root", async () => {
    const r = await pr(repo({ body: BAD, caseYaml: caseYaml("\\d+") }), repo());
    expect(r.code).toBe(1);
    const loosened = roots(r.report).find(
      (x) => x.id === "suite-weakened/assertion-changed/split-1000-3/D:keeps-the-cent/value",
    );
    expect(loosened).toMatchObject({ file: CASE_FILE, blocking: true });
    expect(loosened!.message).toMatch(new RegExp(`${CASE_FILE}:\\d+ at base`));
  }, 240_000);

  it("dropping a required needle or trading not-contains for not-equals is a blocking loosening, not a tightening", async () => {
    const needles = (type: string, value: string) =>
      `id: split-1000-3\nprompt: Split 1000 cents among 3 people and list the parts.\nassertions:\n  - id: D:keeps-the-cent\n    type: ${type}\n    ${value}\n`;
    const base = repo({ caseYaml: needles("contains", 'values: ["334", "1000"]') });
    const dropped = await pr(repo({ body: BAD, caseYaml: needles("contains", 'values: ["1000"]') }), base);
    expect(dropped.code).toBe(1);
    expect(roots(dropped.report).find((x) => x.id.includes("required-values-removed"))).toMatchObject({
      file: CASE_FILE,
      line: 4,
      blocking: true,
    });
    const negBase = repo({ caseYaml: needles("not-contains", 'value: "333\\n333\\n333"') });
    const retyped = await pr(
      repo({ body: BAD, caseYaml: needles("not-equals", 'value: "333\\n333\\n333"') }),
      negBase,
    );
    expect(retyped.code).toBe(1);
    expect(roots(retyped.report).find((x) => x.id.includes("assertion-type-changed"))).toMatchObject({
      blocking: true,
    });
  }, 240_000);

  it("relaxing the policy in the PR's own .skillgate.yml changes nothing and is a blocking policy-weakened root", async () => {
    const agent = `agent:\n  adapter: command\n  command: ${JSON.stringify(`sh ${agentFile}`)}\ntriggerRuns: 3\ncache:\n  enabled: false\n`;
    const base = repo({
      config: `${agent}trials: 3\nverdict:\n  inconclusive: fail\nthresholds:\n  discriminatorPassRate: 0.9\n`,
    });
    const config = `${agent}trials: 1\nverdict:\n  alpha: 0.4\n  inconclusive: pass\nthresholds:\n  discriminatorPassRate: 0.1\n`;
    const r = await pr(repo({ body: BAD, config }), base);
    expect(r.code).toBe(1);
    const weakened = r.report!.policy.roots.filter((x) => x.kind === "policy-weakened");
    expect(weakened.map((x) => x.id).sort()).toEqual([
      "policy/thresholds.discriminatorPassRate",
      "policy/trials",
      "policy/verdict.alpha",
      "policy/verdict.inconclusive",
    ]);
    for (const p of weakened) expect(p).toMatchObject({ file: ".skillgate.yml", blocking: true });
    expect(weakened.every((p) => p.line > 1)).toBe(true);
    // Judged by the base's policy: 3 trials per case, not the PR's 1.
    expect(r.report!.skills.find((s) => s.name === "split-cents")!.trials?.perCase).toBe(3);
    expect(r.report!.policy.origin).toMatch(/^base folder/);
  }, 240_000);

  it("an override key in the PR's own config is an invalid config, never an override", async () => {
    const config = `agent:\n  adapter: command\n  command: ${JSON.stringify(`sh ${agentFile}`)}\ncache:\n  enabled: false\nverdict:\n  allowSuiteChange: true\n`;
    const r = await pr(repo({ body: BAD, caseYaml: caseYaml("\\d+"), config }), repo());
    expect(r.code).toBe(1);
    expect(r.report!.policy.roots.some((x) => x.kind === "validation" && x.file === ".skillgate.yml")).toBe(
      true,
    );
    expect(roots(r.report).some((x) => x.kind === "suite-weakened" && x.blocking)).toBe(true);
  }, 240_000);

  it("lowering meta.json's thresholds and trials in the PR is judged by the base's and blocks", async () => {
    const strict = { trials: 3, thresholds: { discriminatorPassRate: 0.9 } };
    const r = await pr(
      repo({ body: BAD, meta: { trials: 1, thresholds: { discriminatorPassRate: 0 } } }),
      repo({ meta: strict }),
    );
    expect(r.code).toBe(1);
    const ids = roots(r.report).map((x) => x.id);
    expect(ids).toContain("suite-weakened/threshold-lowered/discriminatorPassRate");
    expect(ids).toContain("suite-weakened/trials-lowered/trials");
    expect(ids).toContain("threshold/discriminatorPassRate");
  }, 240_000);

  it("a check that cannot run is never pre-existing: an invalid regex at base and head does not pass", async () => {
    const broken = caseYaml("334(", "");
    // The PR edits the skill (so it is evaluated); the discriminator is broken the same way at base and head.
    const r = await pr(repo({ body: BAD, caseYaml: broken }), repo({ caseYaml: broken }));
    // Caught before any trial (#16 item 3, validate's part): a blocking validation root at the regex, no agent call.
    expect(r.code).toBe(1);
    expect(r.report?.verdict).toBe("fail");
    const invalid = roots(r.report).find((x) => x.id.startsWith("validation/suite/invalid-regex/"));
    // located at the regex itself (the assertion starts on line 7, its `value` is line 9)
    expect(invalid).toMatchObject({ kind: "validation", file: CASE_FILE, line: 9, blocking: true });
    expect(r.report?.cost.agentCalls).toBe(0);
  }, 240_000);

  it("answers planted in the checkout (recordings, a cache folder) are never read", async () => {
    const config = `agent:\n  adapter: command\n  command: ${JSON.stringify(`sh ${agentFile}`)}\ntrials: 3\ncache:\n  dir: .skillgate-cache\n`;
    const head = repo({ body: BAD, config });
    const cacheHome = temp("sg-int-xdg-");
    const r = await cli(["run", "--repo", head, "--base-dir", repo({ config }), "--quiet"], {
      XDG_CACHE_HOME: cacheHome,
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/cache\.dir \.skillgate-cache lies inside the checkout/);
    // the trials were cached outside the checkout
    expect(existsSync(join(head, ".skillgate-cache"))).toBe(false);
    expect(readdirSync(join(cacheHome, "skillgate", "trials")).length).toBeGreaterThan(0);
  }, 240_000);
});

describe("nothing to do is said, never silently fine", () => {
  it("a missing --repo is a usage error", async () => {
    const r = await cli(["run", "--repo", join(tmpdir(), "sg-no-such-folder-xyz")]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/no such folder/);
  });

  it("--skills matching no skill is a usage error naming the skills found", async () => {
    const r = await cli(["run", "--repo", repo(), "--skills", "spilt-cents", "--quiet"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/matches none of the 1 skill\(s\) found \(split-cents\)/);
  });

  it("a repository with no skill at all is a usage error, not a pass", async () => {
    const empty = writeRepo({ "README.md": "# nothing here\n" }, "sg-int-empty-");
    scratch.push(empty);
    const r = await cli(["run", "--repo", empty, "--quiet"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/no skill found/);
  });

  it("a PR that changes no skill passes and says how many skills it found", async () => {
    const base = repo();
    const head = repo({ extra: { "README.md": "# docs only\n" } });
    const r = await cli(["run", "--repo", head, "--base-dir", base]);
    expect(r.code).toBe(0);
    expect(r.report?.scope?.message).toBe(
      "1 skill(s) found; this change touches none of them: nothing to evaluate",
    );
    expect(r.stdout).toContain("touches none of them");
  });
});

describe("the trigger-confirmation crash", () => {
  it("a description edit that stops should-fire queries, with meta trials ≠ triggerRuns, fails with located trigger roots", async () => {
    const meta = { trials: 2, thresholds: {} };
    const base = repo({ trigger: TRIGGER, meta });
    const head = repo({
      trigger: TRIGGER,
      meta,
      description: "Formats dates for display. Use for calendars.",
    });
    const r = await pr(head, base);
    expect(r.stderr).not.toMatch(/appears twice in trial/);
    expect(r.code).toBe(1);
    const trig = roots(r.report).filter((x) => x.kind === "trigger");
    expect(trig.length).toBeGreaterThan(0);
    for (const t of trig) expect(t).toMatchObject({ file: ".claude/skills/split-cents/SKILL.md", line: 3 });
    expect(trig.every((t) => t.status === "new")).toBe(true);
  }, 240_000);
});

describe("#27: every input of a check is compared, and merge believes only what its records show", () => {
  const HELPER = `${SUITE}/checks/lib/keeps.mjs`;
  const predicateCase = `id: split-1000-3
prompt: Split 1000 cents among 3 people and list the parts.
assertions:
  - id: D:keeps-the-cent
    type: javascript
    module: checks/keeps-cent.mjs
`;
  const helper = (rule: string) =>
    `// The rule the discriminator applies.\nexport const keeps = (v) => ${rule};\n`;
  const withPredicate = (body: string, rule: string) =>
    repo({
      body,
      caseYaml: predicateCase,
      extra: {
        [`${SUITE}/checks/keeps-cent.mjs`]:
          'import { keeps } from "./lib/keeps.mjs";\nexport default (v) => keeps(String(v));\n',
        [HELPER]: helper(rule),
      },
    });
  const STRICT = "/334\\s*\\n\\s*333\\s*\\n\\s*333/.test(v)";

  it("loosening a helper the predicate imports is a blocking dependency-changed root at the helper's line", async () => {
    const base = withPredicate(GOOD, STRICT);
    // control: the honest regression, graded by the same helper, fails on the discriminator
    const honest = await pr(withPredicate(BAD, STRICT), base);
    expect(honest.code).toBe(1);
    const r = await pr(withPredicate(BAD, "/\\d+/.test(v)"), base);
    expect(r.code).toBe(1);
    const root = roots(r.report).find((x) => x.id === `suite-weakened/dependency-changed/${HELPER}`);
    expect(root).toMatchObject({ kind: "suite-weakened", file: HELPER, line: 2, blocking: true });
    expect(root!.message).toMatch(new RegExp(`${HELPER}:2 at base`));
  }, 240_000);

  it("a fixture edited past its first 4 MiB is a changed case, located on the case", async () => {
    const big = "ledger line 0000000000\n".repeat(230_000); // ~5.3 MB
    const fixtureCase = `${caseYaml()}files:\n  - fixtures/ledger.txt\n`;
    const base = repo({ caseYaml: fixtureCase, extra: { [`${SUITE}/fixtures/ledger.txt`]: big } });
    const edited = `${big.slice(0, -12)}9999999999\n`;
    const head = repo({
      body: `${GOOD} Say which parts got the extra cents.`,
      caseYaml: fixtureCase,
      extra: { [`${SUITE}/fixtures/ledger.txt`]: edited },
    });
    const r = await pr(head, base);
    expect(r.code).toBe(1);
    expect(
      roots(r.report).find((x) => x.id === "suite-weakened/case-changed/split-1000-3/file/ledger.txt"),
    ).toMatchObject({ file: CASE_FILE, blocking: true });
  }, 240_000);

  it("merge refuses a report edited to pass with its roots and errors removed", async () => {
    const r = await honestRegression();
    expect(r.code).toBe(1);
    const forged = structuredClone(r.report!);
    forged.verdict = "pass";
    forged.blockingRoots = [];
    forged.newRoots = [];
    forged.errors = [];
    for (const s of forged.skills) {
      s.verdict = "pass";
      s.roots = [];
      s.blockingRoots = [];
      s.newRoots = [];
      s.errors = [];
    }
    const dir = temp("sg-int-merge-");
    writeFileSync(join(dir, "forged.json"), JSON.stringify(forged));
    writeFileSync(join(dir, "honest.json"), JSON.stringify(r.report));
    const honest = await cli(["merge", join(dir, "honest.json")]);
    expect(honest.code).toBe(1);
    const m = await cli(["merge", join(dir, "forged.json")]);
    expect(m.code).toBe(3);
    expect(m.stderr).toMatch(
      /forged\.json is refused: .*split-1000-3\/D:keeps-the-cent is \S+ by the evidence but missing/,
    );
  }, 240_000);
});
