import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { beforeEach, describe, expect, test } from "vitest";
import {
  collectWrittenFiles,
  type PreparedWorkspace,
  TrialWorkspaces,
  WORKSPACE_BATCH,
  WORKSPACE_BATCH_MS,
  WorkspaceError,
} from "../../src/agents/workspace.js";
import { makeRequest, skill } from "../support/trials.js";

let parent: string;
let source: string;
const SKILL_MD = "---\nname: split-cents\ndescription: Split cents.\n---\nLargest remainder.\n";

beforeEach(() => {
  parent = mkdtempSync(join(tmpdir(), "ws-parent-"));
  source = mkdtempSync(join(tmpdir(), "ws-source-"));
  mkdirSync(join(source, "skill/evals"), { recursive: true });
  mkdirSync(join(source, "skill/references"), { recursive: true });
  writeFileSync(join(source, "skill/SKILL.md"), SKILL_MD);
  writeFileSync(join(source, "skill/references/notes.md"), "notes\n");
  writeFileSync(join(source, "skill/evals/rules.md"), "rules\n");
  writeFileSync(join(source, "package.json"), '{"name":"fixture"}\n');
});

const request = () =>
  makeRequest({
    prompt: "p",
    install: [
      skill("split-cents", join(source, "skill"), ["SKILL.md", "references/notes.md", "evals/rules.md"]),
    ],
    files: [
      { from: join(source, "package.json"), to: "package.json" },
      { from: join(source, "package.json"), to: "nested/deeper/copy.json" },
    ],
  });

function listing(dir: string): string[] {
  return (readdirSync(dir, { recursive: true }) as string[]).map((f) => f.split("\\").join("/")).sort();
}

describe("trial workspaces", () => {
  test("each trial gets its own fresh workspace: case files, the skills' listed files, in a HOME of its own", () => {
    const pool = new TrialWorkspaces(".agents/skills", parent);
    const a = pool.prepare(request());
    const b = pool.prepare(request());
    expect(a.dir).not.toBe(b.dir);
    expect(a.home).not.toBe(b.home);
    for (const ws of [a, b]) {
      expect(listing(ws.dir)).toEqual([
        ".agents",
        ".agents/skills",
        ".agents/skills/split-cents",
        ".agents/skills/split-cents/SKILL.md",
        // what the harness loads, evals/ too: discovery lists the skill's files without its suite's (withheld.ts)
        ".agents/skills/split-cents/evals",
        ".agents/skills/split-cents/evals/rules.md",
        ".agents/skills/split-cents/references",
        ".agents/skills/split-cents/references/notes.md",
        "nested",
        "nested/deeper",
        "nested/deeper/copy.json",
        "package.json",
      ]);
      expect(readFileSync(join(ws.dir, ".agents/skills/split-cents/SKILL.md"), "utf8")).toBe(SKILL_MD);
      // the trial's own TMPDIR, empty, and the workspace: a project in its home, as anyone's
      expect(listing(ws.home).filter((f) => !f.startsWith("project/"))).toEqual(["project", "tmp"]);
      expect(relative(ws.home, ws.dir)).toBe("project");
      expect(ws.skillPaths).toEqual({ "split-cents": join(ws.dir, ".agents/skills/split-cents") });
    }
  });

  test("a trial's writes stay in its workspace: neither the source nor another trial sees them", () => {
    const pool = new TrialWorkspaces(".agents/skills", parent);
    const a = pool.prepare(request());
    const b = pool.prepare(request());
    // In place, as an agent's editor would: same inode if the file were shared.
    writeFileSync(join(a.skillPaths["split-cents"]!, "SKILL.md"), "tampered\n");
    writeFileSync(join(a.dir, "package.json"), "{}\n");
    expect(readFileSync(join(b.skillPaths["split-cents"]!, "SKILL.md"), "utf8")).toBe(SKILL_MD);
    expect(readFileSync(join(source, "skill/SKILL.md"), "utf8")).toBe(SKILL_MD);
    expect(readFileSync(join(b.dir, "package.json"), "utf8")).toBe('{"name":"fixture"}\n');
    const c = pool.prepare(request());
    expect(readFileSync(join(c.skillPaths["split-cents"]!, "SKILL.md"), "utf8")).toBe(SKILL_MD);
  });

  test("written files: new and changed ones come back (a same-size change too), untouched ones do not", () => {
    const pool = new TrialWorkspaces(".agents/skills", parent);
    const ws = pool.prepare(request());
    expect(collectWrittenFiles(ws)).toEqual({ files: {}, notes: [] });
    mkdirSync(join(ws.dir, "src"));
    writeFileSync(join(ws.dir, "src/split.ts"), "export const x = 1;\n");
    writeFileSync(join(ws.dir, "package.json"), '{"name":"FIXTURE"}\n');
    mkdirSync(join(ws.dir, "node_modules/dep"), { recursive: true });
    writeFileSync(join(ws.dir, "node_modules/dep/index.js"), "skipped");
    writeFileSync(join(ws.dir, "blob.bin"), Buffer.from([1, 0, 2]));
    expect(collectWrittenFiles(ws)).toEqual({
      files: { "package.json": '{"name":"FIXTURE"}\n', "src/split.ts": "export const x = 1;\n" },
      notes: [],
    });
  });

  test("the installed skills' folders are not the agent's work; anything else it writes beside them is", () => {
    const pool = new TrialWorkspaces(".agents/skills", parent);
    const ws = pool.prepare(request());
    const skillDir = ws.skillPaths["split-cents"]!;
    writeFileSync(join(skillDir, "SKILL.md"), "tampered\n");
    writeFileSync(join(skillDir, "scratch.md"), "notes to self\n");
    writeFileSync(join(ws.dir, ".agents/skills/own-skill.md"), "made by the agent\n");
    mkdirSync(join(ws.dir, ".agents/skills/split-cents-v2"));
    writeFileSync(join(ws.dir, ".agents/skills/split-cents-v2/SKILL.md"), "a copy it made\n");
    expect(collectWrittenFiles(ws)).toEqual({
      files: {
        ".agents/skills/own-skill.md": "made by the agent\n",
        ".agents/skills/split-cents-v2/SKILL.md": "a copy it made\n",
      },
      notes: [],
    });
  });

  test("a workspace is never removed while its trial runs; after drain() nothing is left", async () => {
    const pool = new TrialWorkspaces(".agents/skills", parent);
    const first: PreparedWorkspace[] = [];
    for (let i = 0; i < WORKSPACE_BATCH; i++) first.push(pool.prepare(request()));
    const next = pool.prepare(request());
    // All of the first batch but one are done: the one still running keeps its files.
    for (const ws of first.slice(1)) pool.dispose(ws);
    await new Promise((r) => setTimeout(r, 200));
    expect(readFileSync(join(first[0]!.dir, "package.json"), "utf8")).toBe('{"name":"fixture"}\n');
    expect(existsSync(first[0]!.home)).toBe(true);
    pool.dispose(first[0]!);
    pool.dispose(next);
    await pool.drain();
    expect(readdirSync(parent)).toEqual([]);
  });

  test("a batch takes workspaces for a limited time only: slow trials never hold many finished workspaces", async () => {
    let now = 1_000;
    const pool = new TrialWorkspaces(".agents/skills", parent, () => now);
    const a = pool.prepare(request());
    now += WORKSPACE_BATCH_MS + 1;
    const b = pool.prepare(request());
    pool.dispose(a);
    // a's batch is closed (too old) and done: it is removed while b still runs.
    const deadline = Date.now() + 5000;
    while (existsSync(a.dir) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(existsSync(a.dir)).toBe(false);
    expect(existsSync(b.dir)).toBe(true);
    pool.dispose(b);
    await pool.drain();
    expect(readdirSync(parent)).toEqual([]);
  });

  test("a case file outside the workspace is refused, and its half-made workspace is removed too", async () => {
    const pool = new TrialWorkspaces(".agents/skills", parent);
    const bad = makeRequest({
      prompt: "p",
      files: [{ from: join(source, "package.json"), to: "../escape.json" }],
    });
    expect(() => pool.prepare(bad)).toThrow(WorkspaceError);
    const missing = makeRequest({ prompt: "p", files: [{ from: join(source, "nope.json"), to: "x.json" }] });
    expect(() => pool.prepare(missing)).toThrow(/nope\.json/);
    await pool.drain();
    expect(readdirSync(parent)).toEqual([]);
    expect(existsSync(join(parent, "../escape.json"))).toBe(false);
  });
});
