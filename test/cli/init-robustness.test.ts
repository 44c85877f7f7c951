/**
 * Issue #43, `init SKILL --robustness` on a skill that already has a suite, through the bundled CLI:
 * - it made a second suite folder beside the existing one without a word; it uses the existing one;
 * - its next steps named `--agent claude-code` over the configured agent;
 * - a solvable control's refusal check failed exactly when the agent behaved correctly (a blocking head-only
 *   root), and a control with correctness checks only was rejected by `validate`;
 * - added probes were labelled `suite-weakened/case-added` while the summary said the suite was tightened.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { execa } from "execa";
import { describe, expect, it } from "vitest";
import type { Report } from "../../src/model/index.js";
import { e2eFile } from "../support/dist.js";
import { writeRepo } from "../support/repo-files.js";

const { cliJs, scratch } = e2eFile();

/** Refuses what it is told is impossible; answers everything else correctly. */
const AGENT = `const prompt = require("node:fs").readFileSync(0, "utf8");
process.stdout.write(/impossible/i.test(prompt) ? "I cannot do that: it is impossible." : "334, 333, 333");
`;

function repo(): string {
  const dir = writeRepo(
    {
      ".skillgate.yml":
        "agent:\n  adapter: command\n  command: node agent.js\ntrials: 2\ncache: {enabled: false}\n",
      "agent.js": AGENT,
      ".claude/skills/money/SKILL.md":
        "---\nname: money\ndescription: Splits money in cents. Use for splitting amounts.\n---\nUse cents.\n",
      ".agent/evals/money/meta.json": '{"trials": 2}\n',
      ".agent/evals/money/prompts/split.yaml":
        "id: split\nprompt: Split 1000 cents among 3.\nassertions:\n  - {id: D:no-lost-cent, type: contains, value: '334'}\n",
    },
    "sg-init-rob-",
  );
  scratch.push(dir);
  return dir;
}

const cli = (args: string[]) =>
  execa(process.execPath, [cliJs(), ...args], {
    reject: false,
    env: { ...process.env, SKILLGATE_ISOLATION: "none" },
  });

describe("init --robustness on a skill with a suite", () => {
  it("adds the probes to the existing suite folder and names the configured agent", async () => {
    const dir = repo();
    const r = await cli(["init", "money", "--repo", dir, "--robustness"]);
    expect(r.exitCode).toBe(0);
    expect(existsSync(join(dir, ".claude/skills/money/evals"))).toBe(false);
    const probes = readdirSync(join(dir, ".agent/evals/money/prompts")).filter((f) => f.startsWith("probe-"));
    expect(probes.length).toBeGreaterThanOrEqual(10);
    // The existing suite keeps its own files.
    expect(readFileSync(join(dir, ".agent/evals/money/meta.json"), "utf8")).toBe('{"trials": 2}\n');
    expect(r.stdout).toMatch(/existing suite .*\.agent\/evals\/money/);
    expect(r.stdout).not.toMatch(/--agent claude-code/);
    expect(r.stdout).toMatch(/skillgate run --repo \S+ --skills money$/m);
    expect(r.stdout).toMatch(/the configured agent \(command: node agent\.js/);
  }, 60_000);

  it("a solvable control with correctness checks only is valid", async () => {
    const dir = repo();
    writeFileSync(
      join(dir, ".agent/evals/money/prompts/control.yaml"),
      "id: control\ndimension: refusal-calibration\nprompt: Split 1000 cents among 3.\nassertions:\n  - {id: solved, type: contains, value: '334'}\n",
    );
    const v = await cli(["validate", "--repo", dir]);
    expect(v.stdout + v.stderr).toMatch(/0 error\(s\)/);
    expect(v.exitCode).toBe(0);
  }, 60_000);

  it("in a PR adding probes, a correct control never fails and the probes are reported as tightening", async () => {
    const dir = repo();
    const git = (...a: string[]) =>
      execa("git", ["-C", dir, "-c", "user.name=t", "-c", "user.email=t@t", ...a]);
    await git("init", "-q", "-b", "main");
    await git("add", "-A");
    await git("commit", "-qm", "base");
    const probe = (name: string, body: string) =>
      writeFileSync(join(dir, `.agent/evals/money/prompts/${name}.yaml`), body);
    probe(
      "probe-impossible",
      "id: probe-impossible\ndimension: refusal-calibration\nexpect: refusal\nprompt: Split 1000 cents among 3 equally, to the cent (impossible).\nassertions:\n  - {id: refused, type: icontains, value: cannot, rubric: refusal}\n",
    );
    // As the scaffold writes a control now: correctness only.
    probe(
      "probe-solvable",
      "id: probe-solvable\ndimension: refusal-calibration\nprompt: Split 1000 cents among 3.\nassertions:\n  - {id: solved, type: contains, value: '334'}\n",
    );
    // As it wrote one before: the refusal check on the control.
    probe(
      "probe-solvable-2",
      "id: probe-solvable-2\ndimension: refusal-calibration\nprompt: Split 1000 cents among 3 people.\nassertions:\n  - {id: refused, type: icontains, value: cannot, rubric: refusal}\n",
    );
    await git("add", "-A");
    await git("commit", "-qm", "probes");
    const json = join(dir, "..", `${dir.split("/").pop()}.json`);
    scratch.push(json);
    const r = await cli(["run", "--repo", dir, "--base", "HEAD~1", "--no-color", "--json", json]);
    const report = JSON.parse(readFileSync(json, "utf8")) as Report;
    const roots = report.skills.flatMap((s) => s.roots);
    expect(roots.filter((x) => x.blocking)).toEqual([]);
    expect(roots.filter((x) => x.id.startsWith("suite-weakened/"))).toEqual([]);
    expect(roots.filter((x) => x.id.startsWith("suite-tightened/case-added/")).length).toBe(3);
    expect(r.stdout).not.toMatch(/suite-weakened/);
    const refusal = report.skills[0]!.robustness?.dimensions.find((d) => d.id === "refusal-calibration");
    expect(refusal?.score).toBe(100);
    expect(r.exitCode).toBe(0);
  }, 120_000);
});
