/**
 * Issue #43, the terminal summary through the bundled CLI: one skill's levels lines were printed twice (its own,
 * then the same pooled over "all" skills); an agent matrix's report said "took 1 s over no agent calls" after its
 * calls (merged reports lost their rounds), and "2 skill(s)" for one skill evaluated in two cells.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { execa } from "execa";
import { describe, expect, it } from "vitest";
import { e2eFile } from "../support/dist.js";
import { writeRepo } from "../support/repo-files.js";

const { cliJs, scratch } = e2eFile();

async function pr(agentConfig: string) {
  const dir = writeRepo(
    {
      ".skillgate.yml": `${agentConfig}trials: 2\ncache: {enabled: false}\n`,
      "agent.js": 'require("node:fs").readFileSync(0, "utf8");\nprocess.stdout.write("4");\n',
      ".claude/skills/calc/SKILL.md":
        "---\nname: calc\ndescription: Adds numbers. Use for sums.\n---\nAdd.\n",
      ".claude/skills/calc/evals/meta.json": '{"trials": 2}\n',
      ".claude/skills/calc/evals/prompts/sum.yaml":
        "id: sum\nprompt: What is 2 + 2?\nassertions:\n  - {id: four, type: contains, value: '4'}\n",
    },
    "sg-terminal-",
  );
  scratch.push(dir);
  const git = (...a: string[]) =>
    execa("git", ["-C", dir, "-c", "user.name=t", "-c", "user.email=t@t", ...a]);
  await git("init", "-q", "-b", "main");
  await git("add", "-A");
  await git("commit", "-qm", "base");
  writeFileSync(
    join(dir, ".claude/skills/calc/SKILL.md"),
    "---\nname: calc\ndescription: Adds numbers. Use for sums.\n---\nAdd carefully.\n",
  );
  await git("commit", "-qam", "pr");
  const r = await execa(process.execPath, [cliJs(), "run", "--repo", dir, "--base", "HEAD~1", "--no-color"], {
    reject: false,
    env: { ...process.env, SKILLGATE_ISOLATION: "none" },
  });
  return r.stdout;
}

describe("the terminal summary", () => {
  it("prints one skill's levels lines once", async () => {
    const out = await pr("agent:\n  adapter: command\n  command: node agent.js\n");
    expect(out.match(/levels, skill runs/g)?.length).toBe(1);
    expect(out.match(/levels, baseline runs/g)?.length).toBe(1);
  }, 120_000);

  it("with an agent matrix: one skill in two cells, and the rounds its calls took", async () => {
    const out = await pr(
      "agents:\n  - {name: one, adapter: command, command: node agent.js}\n  - {name: two, adapter: command, command: node agent.js --again}\n",
    );
    expect(out).toMatch(/^skillgate: PASS {2}1 skill\(s\) in 2 cell\(s\),/m);
    expect(out).toMatch(
      /agent calls 12, .*took \S+ s? ?\S* over 1 round\(s\) of agent calls \(first batch\)/,
    );
    expect(out).not.toMatch(/over no agent calls/);
  }, 120_000);
});
