/**
 * Issue #38 end to end through the bundled CLI: a harmless PR never blocks, whatever the suite looks like around
 * it. A three-skill repository at `skillgate init`'s defaults (trials 5; thresholds 0.8 / lift 0.3 / 0.8 / 0.8)
 * with a deterministic command agent; one should-fire query of the edited skill never fires, in either arm.
 * - Recall counts each query once: 5 of 6 queries fire, 0.83, over the threshold however many confirmation runs
 *   the failing query got (pooled over runs it was 0.54 and blocked the PR).
 * - An error the base has too, in files the PR leaves alone, is reported and does not block; a new one does.
 */
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Report } from "../../src/model/index.js";
import { scratchFolders } from "../support/action-pr.js";
import { bundledDist } from "../support/dist.js";

const scratch = scratchFolders();
const temp = scratch.temp;
afterAll(() => scratch.cleanup());

let dist: string;
let agentFile: string;
beforeAll(async () => {
  dist = await bundledDist();
  agentFile = join(temp("sg-harmless-agent-"), "agent.sh");
  writeFileSync(agentFile, AGENT);
}, 180_000);

/**
 * Routes a prompt to the installed skill it is tagged for (`[for triage]`); an untagged prompt reaches none.
 * With its skill installed it answers `ANSWER-OK`, without it (a baseline) it guesses.
 * A shell script, not Node: a Node start-up costs ~0.15 s of CPU per agent call on the 2-core test machine.
 */
const AGENT = String.raw`tag=$(grep -o '\[for [a-z-]*[a-z-]\]' | head -n 1 | sed 's/^\[for //; s/\]$//')
activated=''
if [ -n "$tag" ] && [ -e ".agents/skills/$tag" ]; then activated="\"$tag\""; fi
if [ "$SKILLGATE_MODE" = skill ]; then output=ANSWER-OK; else output='a guess'; fi
printf '{"output":"%s","skillsActivated":[%s]}' "$output" "$activated"
`;

const meta = JSON.stringify({
  skillVersion: "1",
  suiteVersion: "1",
  trials: 5,
  thresholds: {
    discriminatorPassRate: 0.8,
    discriminatorLift: 0.3,
    triggerPrecision: 0.8,
    triggerRecall: 0.8,
  },
});

function skillFiles(name: string, description: string): Record<string, string> {
  const evals = `.agent/evals/${name}`;
  const fire = [1, 2, 3, 4, 5].map((i) => `Please handle ${name} task number ${i} [for ${name}]`);
  // The query no router sends to the skill: it fails in every arm, before and after the PR.
  if (name === "triage") fire.push("Sort out the mess in the tracker");
  else fire.push(`One more ${name} task [for ${name}]`);
  return {
    [`.claude/skills/${name}/SKILL.md`]: `---\nname: ${name}\ndescription: ${description}\n---\nAnswer with ANSWER-OK.\n`,
    [`${evals}/meta.json`]: meta,
    [`${evals}/prompts/a.yaml`]: `id: a\nprompt: Do the ${name} job.\nassertions:\n  - {id: D:ok, type: contains, value: ANSWER-OK}\n`,
    [`${evals}/prompts/b.yaml`]: `id: b\nprompt: Do the other ${name} job.\nassertions:\n  - {id: D:ok, type: contains, value: ANSWER-OK}\n`,
    [`${evals}/trigger-eval.json`]: JSON.stringify({
      shouldFire: fire,
      shouldNotFire: [`Write a poem about the sea`, `What is the capital of Peru`],
    }),
  };
}

function baseFiles(extra: Record<string, string> = {}): Record<string, string> {
  return {
    ".skillgate.yml": `agent:\n  adapter: command\n  command: ${JSON.stringify(`sh ${agentFile}`)}\ncache:\n  enabled: false\n${extra[".skillgate.yml"] ?? ""}`,
    ...skillFiles("triage", "Triages incoming issues (labels, priority and owner). Use for issue triage."),
    ...skillFiles("changelog", "Writes changelog entries from merged pull requests."),
    ...skillFiles("release", "Prepares a release (version bump, tag and notes)."),
    ...Object.fromEntries(Object.entries(extra).filter(([k]) => k !== ".skillgate.yml")),
  };
}

function write(dir: string, files: Record<string, string>): string {
  for (const [p, c] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, p)), { recursive: true });
    writeFileSync(join(dir, p), c);
  }
  return dir;
}

/** Base and head folders: head is base with `edit` applied. */
function pr(base: Record<string, string>, edit: Record<string, string>): { head: string; base: string } {
  const b = write(temp("sg-harmless-base-"), base);
  const h = temp("sg-harmless-head-");
  cpSync(b, h, { recursive: true });
  write(h, edit);
  for (const d of [b, h]) execFileSync("git", ["-C", d, "init", "-q"], { stdio: "ignore" });
  return { head: h, base: b };
}

async function run(p: { head: string; base: string }) {
  const json = join(temp("sg-harmless-out-"), "report.json");
  const r = await execa(
    process.execPath,
    [join(dist, "cli.js"), "run", "--repo", p.head, "--base-dir", p.base, "--no-color", "--json", json],
    { reject: false, env: { ...process.env, SKILLGATE_ISOLATION: "none" } },
  );
  const report = JSON.parse(readFileSync(json, "utf8")) as Report;
  return { code: r.exitCode, stdout: r.stdout, stderr: r.stderr, report };
}

const REWORDED = skillFiles(
  "triage",
  "Triages new issues (labels them, sets a priority, picks an owner). Use for issue triage.",
)[".claude/skills/triage/SKILL.md"]!;

describe("a harmless edit never blocks (#38)", () => {
  it("passes a reworded description whose suite holds a should-fire query that never fires", async () => {
    const r = await run(pr(baseFiles(), { ".claude/skills/triage/SKILL.md": REWORDED }));
    const triage = r.report.skills.find((s) => s.name === "triage")!;
    expect(r.report.blockingRoots, r.stdout).toEqual([]);
    expect(r.code).toBe(0);
    expect(triage.trigger!.recall).toMatchObject({ units: 6, passing: 5 });
    expect(triage.trigger!.recall.rate).toBeCloseTo(5 / 6, 10);
    expect(r.stdout).toMatch(/recall 83% \[\d+%–\d+%\] \(5\/6 queries\)/);
    // The query that fails in both arms is pre-existing, reported, not blocking.
    expect(triage.roots.find((x) => x.id === "trigger/fire/5")).toMatchObject({
      status: "pre-existing",
      blocking: false,
    });
  }, 240_000);

  it("reports an error the base has too in a file the PR leaves alone, and blocks a new one", async () => {
    // Two skills of one name in one skills folder: an error under the strict profile, in both arms alike.
    const dup = {
      ".skillgate.yml": "profile: strict\n",
      ".claude/skills/workspace-dispatch/SKILL.md":
        "---\nname: workspace-dispatch\ndescription: Dispatches work to workspaces.\n---\nBody.\n",
      ".claude/skills/workspace-dispatch-multi/SKILL.md":
        "---\nname: workspace-dispatch\ndescription: Dispatches work to many workspaces.\n---\nBody.\n",
    };
    const found = await run(pr(baseFiles(dup), { ".claude/skills/triage/SKILL.md": REWORDED }));
    const roots = found.report.blockingRoots.map((x) => x.id);
    expect(roots, found.stdout).toEqual([]);
    expect(found.code).toBe(0);
    const reported = found.report.policy.roots.filter((x) => x.kind === "validation");
    expect(reported.map((x) => [x.id, x.status, x.blocking]).sort()).toEqual([
      [
        "validation/skill/duplicate-name/.claude/skills/workspace-dispatch-multi/SKILL.md:2",
        "pre-existing",
        false,
      ],
      [
        "validation/skill/name-folder/.claude/skills/workspace-dispatch-multi/SKILL.md:2",
        "pre-existing",
        false,
      ],
    ]);
    // The PR that adds the second holder of a name blocks, whichever folder the error lands on.
    const base = baseFiles({ ".skillgate.yml": "profile: strict\n" });
    const made = await run(
      pr(base, {
        ".claude/skills/workspace-dispatch/SKILL.md": dup[".claude/skills/workspace-dispatch/SKILL.md"],
        ".claude/skills/workspace-dispatch-multi/SKILL.md":
          dup[".claude/skills/workspace-dispatch-multi/SKILL.md"],
      }),
    );
    expect(made.code).toBe(1);
    expect(made.report.blockingRoots.map((x) => x.id)).toContain(
      "validation/skill/duplicate-name/.claude/skills/workspace-dispatch-multi/SKILL.md:2",
    );
  }, 240_000);
});
