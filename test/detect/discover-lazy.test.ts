import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { assertionLookup } from "../../src/detect/assertion-types.js";
import { classifyChanges } from "../../src/detect/changes.js";
import { discoverRepository, hashSkillFolder } from "../../src/detect/discover.js";
import "../../src/grade/assertions/index.js";
import * as registry from "../../src/grade/assertions/registry.js";
import { writeRepo } from "../support/repo-files.js";

const opts = { profile: "claude-code" as const, assertionTypes: assertionLookup(registry) };

const write = (files: Record<string, string>) => writeRepo(files, "sg-lazy-");

const skillMd = (name: string, body = "Steps.") =>
  `---\nname: ${name}\ndescription: Does ${name}. Use for ${name}.\n---\n${body}\n`;

describe("a skill folder's files and content hash", () => {
  it("are what hashing the folder gives; a copy shares them, JSON writes them", () => {
    const repo = write({
      "skills/a/SKILL.md": skillMd("a"),
      "skills/a/ref.md": "ref",
      "skills/a/scripts/run.sh": "echo hi",
      "skills/a/evals/evals.json": JSON.stringify({ skill_name: "a", evals: [{ id: 1, prompt: "p" }] }),
    });
    const [skill] = discoverRepository(repo, opts).skills;
    // its suite's file is withheld (the answers); everything else of the folder is the skill
    const eager = hashSkillFolder(repo, "skills/a", undefined, {}, new Set(["evals/evals.json"]));
    expect(eager.files).toEqual(["SKILL.md", "ref.md", "scripts/run.sh"]);
    expect(skill!.folder.files).toEqual(eager.files);
    expect(skill!.folder.contentHash).toBe(eager.contentHash);
    expect({ ...skill! }.folder).toBe(skill!.folder);
    expect(JSON.parse(JSON.stringify(skill)).folder).toEqual(eager);

    expect(skill!.suite?.formats).toEqual(["skill-creator"]);
  });

  it("a PR run never reads the other files of skills the PR does not touch", () => {
    const head = write({
      "skills/kept/SKILL.md": skillMd("kept"),
      "skills/kept/ref.md": "ref",
      "skills/edited/SKILL.md": skillMd("edited", "New steps."),
    });
    const base = write({
      "skills/kept/SKILL.md": skillMd("kept"),
      "skills/kept/ref.md": "ref",
      "skills/edited/SKILL.md": skillMd("edited"),
    });
    const h = discoverRepository(head, opts);
    const before = hashSkillFolder(head, "skills/kept").contentHash;
    // Edited after discovery: the hash shows when the folder was read.
    writeFileSync(join(head, "skills/kept/ref.md"), "edited later");
    const changedFiles = ["skills/edited/SKILL.md"];
    const b = discoverRepository(base, { ...opts, reuse: { from: h, changedFiles } });
    const changes = classifyChanges(
      { dir: head, skills: h.skills },
      { dir: base, skills: b.skills },
      changedFiles,
    );
    expect(changes.map((c) => `${c.name}:${c.change}`)).toEqual(["edited:body", "kept:unchanged"]);
    // The untouched skill was never hashed: its hash, read now, is of the folder as it is now.
    const kept = h.skills.find((s) => s.name === "kept")!;
    expect(kept.folder.contentHash).not.toBe(before);
    expect(kept.folder.contentHash).toBe(hashSkillFolder(head, "skills/kept").contentHash);
  });

  it("a folder without a SKILL.md file is not a skill; one whose SKILL.md is a folder or a FIFO neither, and nothing hangs", () => {
    const repo = write({
      "skills/real/SKILL.md": skillMd("real"),
      "skills/empty/README.md": "not a skill",
      "skills/dir/SKILL.md/inner.md": "a folder named SKILL.md",
    });
    mkdirSync(join(repo, "skills/fifo"));
    execFileSync("mkfifo", [join(repo, "skills/fifo/SKILL.md")]);
    const found = discoverRepository(repo, opts);
    expect(found.skills.map((s) => s.name)).toEqual(["real"]);
    expect(found.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  });
});
