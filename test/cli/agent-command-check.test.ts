/**
 * Issue #43: a command agent written `python3 agents/agent.py`, where `python3` is a pyenv shim. Inside the
 * sandbox the shim cannot reach pyenv (it lives in a folder the sandbox does not have): every trial crashed with
 * 127, the hint blamed "a path in agent.command" at a temporary base folder, and the path that matters was printed
 * as `[REDACTED]` (pyenv's root is in the environment). Now the command is checked before any trial, through the
 * bundled CLI: the shim is named as such, with its real path and the fix; the fix, followed, runs.
 *
 * The pyenv installation is a copy of pyenv's layout in a temporary folder (the shim is pyenv's own text, its
 * `libexec/pyenv` a stand-in that execs the selected version's program), so the test reads nothing outside the
 * repository. Its "python3" runs Node: the agent script is JavaScript under a .py name.
 */
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isolation } from "../../src/sandbox/isolation/detect.js";
import { bundledDist } from "../support/dist.js";
import { writeRepo } from "../support/repo-files.js";

const scratch: string[] = [];
afterAll(() => {
  for (const d of scratch) rmSync(d, { recursive: true, force: true });
});

let dist: string;
let pyenv: string;
beforeAll(async () => {
  dist = await bundledDist();
  pyenv = mkdtempSync(join(tmpdir(), "sg-pyenv-"));
  scratch.push(pyenv);
  const file = (rel: string, text: string) => {
    mkdirSync(dirname(join(pyenv, rel)), { recursive: true });
    writeFileSync(join(pyenv, rel), text);
    chmodSync(join(pyenv, rel), 0o755);
  };
  // pyenv's shim, as `pyenv rehash` writes it.
  file(
    "shims/python3",
    `#!/usr/bin/env bash\nset -e\n[ -n "$PYENV_DEBUG" ] && set -x\n\nprogram="\${0##*/}"\n\nexport PYENV_ROOT="${pyenv}"\nexec "${pyenv}/libexec/pyenv" exec "$program" "$@"\n`,
  );
  file(
    "libexec/pyenv",
    `#!/usr/bin/env bash\nshift\nprogram="$1"; shift\nexec "$PYENV_ROOT/versions/$(head -n1 "$PYENV_ROOT/version")/bin/$program" "$@"\n`,
  );
  file("version", "3.11.7\n");
  file("versions/3.11.7/bin/python3", `#!/bin/sh\nexec ${process.execPath} "$@"\n`);
  mkdirSync(join(pyenv, "versions/3.11.7/lib/python3.11"), { recursive: true });
}, 180_000);

const AGENT = `const input = require("node:fs").readFileSync(0, "utf8");
process.stdout.write(JSON.stringify({ output: input.includes("2 + 2") ? "4" : "?" }));
`;

/** A one-skill repository whose PR edits the skill body; `agent` is the agent: block of the base's config. */
function repo(agent: string): string {
  const dir = writeRepo(
    {
      ".skillgate.yml": `agent:\n${agent}trials: 1\ncache: {enabled: false}\n`,
      "agents/agent.py": AGENT,
      ".claude/skills/calc/SKILL.md":
        "---\nname: calc\ndescription: Adds numbers. Use for sums.\n---\nAdd.\n",
      ".claude/skills/calc/evals/meta.json": '{"trials": 1}\n',
      ".claude/skills/calc/evals/prompts/sum.yaml":
        "id: sum\nprompt: What is 2 + 2?\nassertions:\n  - {id: four, type: contains, value: '4'}\n",
    },
    "sg-shim-",
  );
  scratch.push(dir);
  return dir;
}

async function pr(dir: string) {
  const git = (...args: string[]) =>
    execa("git", ["-C", dir, "-c", "user.name=t", "-c", "user.email=t@t", ...args]);
  await git("init", "-q", "-b", "main");
  await git("add", "-A");
  await git("commit", "-qm", "base");
  writeFileSync(
    join(dir, ".claude/skills/calc/SKILL.md"),
    "---\nname: calc\ndescription: Adds numbers. Use for sums.\n---\nAdd carefully.\n",
  );
  await git("commit", "-qam", "pr");
  const r = await execa(
    process.execPath,
    [join(dist, "cli.js"), "run", "--repo", dir, "--base", "HEAD~1", "--no-color"],
    {
      reject: false,
      env: { ...process.env, PATH: `${pyenv}/shims:${process.env.PATH}`, PYENV_ROOT: pyenv },
    },
  );
  return { code: r.exitCode, out: `${r.stdout}\n${r.stderr}` };
}

const confined = async () => (await isolation()).level !== "none";

describe("a command agent's program is checked before any trial", () => {
  it("a pyenv shim is named as such, with its real path, the config line and the fix; no trial runs", async () => {
    if (!(await confined())) return;
    const r = await pr(repo("  adapter: command\n  command: python3 agents/agent.py\n"));
    expect(r.code).toBe(2);
    expect(r.out).not.toContain("[REDACTED]");
    expect(r.out).toContain(`.skillgate.yml:3:3: agent.command \`python3 agents/agent.py\``);
    expect(r.out).toContain(`${pyenv}/shims/python3, a pyenv shim that runs ${pyenv}/libexec/pyenv`);
    expect(r.out).toContain(
      `fix: name the interpreter itself: \`${pyenv}/versions/3.11.7/bin/python3 agents/agent.py\``,
    );
    expect(r.out).toContain(`agent.options.sandbox.readOnly: [${pyenv}/versions/3.11.7]`);
    expect(r.out).not.toMatch(/trials \d+\/\d+/);
  }, 120_000);

  it("the interpreter named without its installation readable is named too", async () => {
    if (!(await confined())) return;
    const r = await pr(
      repo(`  adapter: command\n  command: ${pyenv}/versions/3.11.7/bin/python3 agents/agent.py\n`),
    );
    expect(r.code).toBe(2);
    expect(r.out).toContain(`needs its installation ${pyenv}/versions/3.11.7 (its library)`);
  }, 120_000);

  it("the fix, followed, runs the trials and passes", async () => {
    if (!(await confined())) return;
    const r = await pr(
      repo(
        `  adapter: command\n  command: ${pyenv}/versions/3.11.7/bin/python3 agents/agent.py\n  options: {sandbox: {readOnly: [${pyenv}/versions/3.11.7]}}\n`,
      ),
    );
    expect(r.out).toMatch(/skillgate: PASS/);
    expect(r.code).toBe(0);
  }, 120_000);

  it("a script path that names nothing is said before any trial, at the config line", async () => {
    const r = await pr(repo("  adapter: command\n  command: node agent/agent.mjs\n"));
    expect(r.code).toBe(2);
    expect(r.out).toContain(
      ".skillgate.yml:3:3: agent.command `node agent/agent.mjs`: `agent/agent.mjs` names no file",
    );
    expect(r.out).not.toMatch(/trials \d+\/\d+/);
  }, 120_000);
});
