/**
 * Issue #42: a trigger trial's catalogue is written once per run and given to every trial without a copy: bound
 * read-only into a confined agent's workspace (`mount`), links to the run's one copy otherwise (`symlinks`).
 * No trial can change what a later trial, or skillgate, reads: the checkout is never linked.
 */
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { activateSkill } from "../../src/agents/http-common.js";
import { TrialWorkspaces } from "../../src/agents/workspace.js";
import { type AgentRunContext, type InstalledSkill, installedSkillDir } from "../../src/model/index.js";
import { type RunOptions, runTrials } from "../../src/run/runner.js";
import { isolation } from "../../src/sandbox/isolation/detect.js";
import { makeRequest, recordingLogger, skill } from "../support/trials.js";

let source: string;
let parent: string;
const NAMES = ["alpha", "beta", "gamma"];
const SKILL_MD = (n: string) => `---\nname: ${n}\ndescription: The ${n} skill.\n---\nSteps for ${n}.\n`;

beforeAll(() => {
  source = mkdtempSync(join(tmpdir(), "sg-cat-source-"));
  parent = mkdtempSync(join(tmpdir(), "sg-cat-parent-"));
  for (const n of NAMES) {
    mkdirSync(join(source, n, "evals"), { recursive: true });
    mkdirSync(join(source, n, "references"), { recursive: true });
    writeFileSync(join(source, n, "SKILL.md"), SKILL_MD(n));
    writeFileSync(join(source, n, "references/notes.md"), `notes of ${n}\n`);
    writeFileSync(join(source, n, "evals/answers.json"), '{"secret": true}\n');
  }
});
afterAll(() => {
  rmSync(source, { recursive: true, force: true });
  rmSync(parent, { recursive: true, force: true });
});

// As discovery lists them: a suite's files (evals/answers.json here) are withheld there (src/detect/withheld.ts),
// so a shared catalogue holds exactly the files each skill lists, nothing else of its folder.
const catalogue = (): InstalledSkill[] =>
  NAMES.map((n) => skill(n, join(source, n), ["SKILL.md", "references/notes.md"], `The ${n} skill.`));
const trigger = (install: InstalledSkill[], trial = 0) =>
  makeRequest({ prompt: "which skill?", mode: "trigger", caseId: "trigger/fire/0", install, trial });

const listing = (dir: string) =>
  (readdirSync(dir, { recursive: true }) as string[]).map((f) => f.split("\\").join("/")).sort();

describe("a trigger trial's catalogue, shared", () => {
  test("mount: each workspace holds an empty skills folder; one read-only copy per run is bound there", async () => {
    const pool = new TrialWorkspaces(".agents/skills", parent, Date.now, "mount");
    const install = catalogue();
    const a = pool.prepare(trigger(install));
    const b = pool.prepare(trigger(catalogue(), 1));
    try {
      expect(listing(a.dir)).toEqual([".agents", ".agents/skills"]);
      expect(a.mounts).toEqual([{ from: expect.any(String), to: `${a.dir}/.agents/skills` }]);
      // The same catalogue (by content) is one folder for every trial of the run.
      expect(b.mounts![0]!.from).toBe(a.mounts![0]!.from);
      const shared = a.mounts![0]!.from;
      expect(listing(shared)).toEqual([
        "alpha",
        "alpha/SKILL.md",
        "alpha/references",
        "alpha/references/notes.md",
        "beta",
        "beta/SKILL.md",
        "beta/references",
        "beta/references/notes.md",
        "gamma",
        "gamma/SKILL.md",
        "gamma/references",
        "gamma/references/notes.md",
      ]);
      expect(statSync(join(shared, "alpha/SKILL.md")).mode & 0o222).toBe(0);
      expect(readFileSync(join(shared, "beta/SKILL.md"), "utf8")).toBe(SKILL_MD("beta"));
      // One index of the catalogue's names shared by its trials, not a path per skill per trial (issue #42).
      expect(a.skillPaths).toEqual({});
      expect(b.skillsRoot?.names).toBe(a.skillsRoot?.names);
      for (const n of NAMES) expect(installedSkillDir(a, n)).toBe(`${a.dir}/.agents/skills/${n}`);
      expect(installedSkillDir(a, "delta")).toBeUndefined();
      expect(installedSkillDir(a, "constructor")).toBeUndefined();
      // Never a link into the checkout: the source keeps one link per file.
      expect(statSync(join(source, "alpha/SKILL.md")).nlink).toBe(1);
    } finally {
      pool.dispose(a);
      pool.dispose(b);
      await pool.drain();
    }
  });

  test("a second catalogue of the run (a PR's base) shares its unchanged files with the first, never the checkout", async () => {
    const pool = new TrialWorkspaces(".agents/skills", parent, Date.now, "mount");
    const based = mkdtempSync(join(tmpdir(), "sg-cat-base-"));
    writeFileSync(join(based, "SKILL.md"), SKILL_MD("beta").replace("Steps", "Old steps"));
    const head = catalogue();
    const base = head.map((s) =>
      s.name === "beta" ? skill("beta", based, ["SKILL.md"], "The beta skill.") : s,
    );
    const a = pool.prepare(trigger(head));
    const b = pool.prepare(trigger(base, 1));
    try {
      const [h, o] = [a.mounts![0]!.from, b.mounts![0]!.from];
      expect(o).not.toBe(h);
      expect(statSync(join(o, "alpha/SKILL.md")).ino).toBe(statSync(join(h, "alpha/SKILL.md")).ino);
      expect(statSync(join(o, "alpha/SKILL.md")).mode & 0o222).toBe(0);
      expect(readFileSync(join(o, "beta/SKILL.md"), "utf8")).toContain("Old steps");
      expect(readFileSync(join(h, "beta/SKILL.md"), "utf8")).toBe(SKILL_MD("beta"));
      expect(statSync(join(source, "alpha/SKILL.md")).nlink).toBe(1);
      expect(statSync(join(based, "SKILL.md")).nlink).toBe(1);
    } finally {
      pool.dispose(a);
      pool.dispose(b);
      await pool.drain();
      rmSync(based, { recursive: true, force: true });
    }
  });

  test("symlinks: each workspace gets a skills folder of links to the run's one copy, never to the checkout", async () => {
    const pool = new TrialWorkspaces(".agents/skills", parent, Date.now, "symlinks");
    const a = pool.prepare(trigger(catalogue()));
    const b = pool.prepare(trigger(catalogue(), 1));
    try {
      expect(a.mounts).toBeUndefined();
      expect(readdirSync(join(a.dir, ".agents/skills")).sort()).toEqual(NAMES);
      const link = (ws: typeof a) => readlinkSync(join(ws.dir, ".agents/skills/gamma"));
      expect(link(a)).toBe(link(b));
      expect(link(a).startsWith(source)).toBe(false);
      const file = join(a.dir, ".agents/skills/gamma/references/notes.md");
      expect(readFileSync(file, "utf8")).toBe("notes of gamma\n");
      expect(statSync(file).mode & 0o222).toBe(0);
      expect(existsSync(join(a.dir, ".agents/skills/alpha/evals"))).toBe(false);
      expect(installedSkillDir(a, "beta")).toBe(`${a.dir}/.agents/skills/beta`);
      // An in-process adapter's activate tool reads the skill through the shared folder's index.
      expect(await activateSkill({ name: "beta" }, { workspace: a } as unknown as AgentRunContext)).toEqual({
        name: "beta",
        output: SKILL_MD("beta"),
        isError: false,
      });
    } finally {
      pool.dispose(a);
      pool.dispose(b);
      await pool.drain();
    }
  });

  test("a skill trial's one skill is still a copy of its own (its agent may write beside it)", async () => {
    const pool = new TrialWorkspaces(".agents/skills", parent, Date.now, "mount");
    const ws = pool.prepare(makeRequest({ prompt: "p", install: [catalogue()[0]!] }));
    try {
      expect(ws.mounts).toBeUndefined();
      expect(listing(ws.dir)).toContain(".agents/skills/alpha/SKILL.md");
    } finally {
      pool.dispose(ws);
      await pool.drain();
    }
  });
});

/** Lists the skills it sees, tries to change one, reports what it read back (a hostile trial's first moves). */
const AGENT = `#!/bin/sh
cat > /dev/null
n=$(ls .agents/skills | wc -l | tr -d ' ')
if (echo hacked > .agents/skills/alpha/SKILL.md) 2>/dev/null; then w=yes; else w=no; fi
if (rm -rf .agents/skills/beta) 2>/dev/null && [ ! -e .agents/skills/beta ]; then d=yes; else d=no; fi
first=$(head -n 3 .agents/skills/alpha/SKILL.md | tail -n 1)
printf '{"output":"n=%s wrote=%s deleted=%s %s","skillsActivated":[]}' "$n" "$w" "$d" "$first"
`;

describe("confined trigger trials", () => {
  test("see the whole catalogue and cannot change it: the next trial and the checkout keep it as it was", async () => {
    const iso = await isolation();
    if (iso.level === "none") {
      if (process.env.CI === "true") throw new Error("CI must reach a confined level");
      return;
    }
    const dir = mkdtempSync(join(tmpdir(), "sg-cat-agent-"));
    chmodSync(dir, 0o755);
    const agent = join(dir, "agent.sh");
    writeFileSync(agent, AGENT, { mode: 0o755 });
    const options: RunOptions = {
      agent: { adapter: "command", command: agent },
      repoDir: source,
      concurrency: 1,
      timeoutMs: 20_000,
      maxRetries: 0,
      cache: { enabled: false, dir: join(dir, "cache") },
      budget: {},
      logger: recordingLogger(),
      workspaceParent: parent,
    };
    try {
      const install = catalogue();
      const out = await runTrials([trigger(install, 0), trigger(install, 1)], options);
      for (const r of out.records) {
        expect(r.error).toBeUndefined();
        expect(r.output).toBe("n=3 wrote=no deleted=no description: The alpha skill.");
      }
      expect(readFileSync(join(source, "alpha/SKILL.md"), "utf8")).toBe(SKILL_MD("alpha"));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
