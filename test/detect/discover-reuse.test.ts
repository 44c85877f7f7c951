import { rmSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { assertionLookup } from "../../src/detect/assertion-types.js";
import { classifyChanges } from "../../src/detect/changes.js";
import { discoverRepository } from "../../src/detect/discover.js";
import "../../src/grade/assertions/index.js";
import * as registry from "../../src/grade/assertions/registry.js";
import { writeRepo } from "../support/repo-files.js";
import {
  applyEdit,
  baseRepo,
  changedPaths,
  EDITS,
  type Files,
  skillMd,
  summary,
} from "../support/reuse-prs.js";

const write = (files: Files) => writeRepo(files, "sg-reuse-");

const opts = { profile: "claude-code" as const, assertionTypes: assertionLookup(registry) };

describe("base discovery that reuses head's unchanged skills", () => {
  it("classifies every PR exactly as reading the whole base does (random PRs over 10 kinds of edit)", () => {
    const base = baseRepo(12);
    const baseDir = write(base);
    try {
      fc.assert(
        fc.property(
          fc.uniqueArray(fc.tuple(fc.integer({ min: 0, max: 11 }), fc.constantFrom(...EDITS)), {
            minLength: 1,
            maxLength: 4,
            selector: ([i]) => i,
          }),
          (edits) => {
            const head = { ...base };
            for (const [i, e] of edits) applyEdit(head, i, e);
            const headDir = write(head);
            try {
              const changed = changedPaths(base, head);
              const h = discoverRepository(headDir, opts);
              const fullBase = discoverRepository(baseDir, opts);
              const reusedBase = discoverRepository(baseDir, {
                ...opts,
                reuse: { from: h, changedFiles: changed },
              });
              expect(summary(h, reusedBase, changed)).toEqual(summary(h, fullBase, changed));
              // Touched skills: the reused base holds the base's own record, not head's.
              const touched = summary(h, fullBase, changed).filter((c) => c.change !== "unchanged");
              expect(touched.length > 0).toBe(changed.length > 0);
            } finally {
              rmSync(headDir, { recursive: true, force: true });
            }
          },
        ),
        { numRuns: 20, seed: 20261129 },
      );
    } finally {
      rmSync(baseDir, { recursive: true, force: true });
    }
  });

  it("reads a suite edit, a suite deletion and a changed description from the base, not from head", () => {
    const base = baseRepo(6);
    const head = { ...base };
    applyEdit(head, 0, "suite-prompt");
    applyEdit(head, 2, "suite-delete");
    applyEdit(head, 4, "description");
    const [baseDir, headDir] = [write(base), write(head)];
    const changed = changedPaths(base, head);
    const h = discoverRepository(headDir, opts);
    const b = discoverRepository(baseDir, { ...opts, reuse: { from: h, changedFiles: changed } });
    const byName = new Map(
      classifyChanges({ dir: headDir, skills: h.skills }, { dir: baseDir, skills: b.skills }, changed).map(
        (c) => [c.name, c],
      ),
    );
    expect(byName.get("s0")).toMatchObject({ change: "suite", suiteChanged: true });
    expect(byName.get("s0")!.base!.suite!.cases[0]!.prompt).toBe("do 0");
    expect(byName.get("s2")).toMatchObject({ change: "suite", suiteChanged: true });
    expect(byName.get("s2")!.base!.suite).toBeDefined();
    expect(byName.get("s4")).toMatchObject({ change: "description", batteries: { trigger: true } });
    expect(byName.get("s4")!.base!.description).toBe("Does task 4. Use for topic 4.");
    expect(byName.get("s1")).toMatchObject({ change: "unchanged" });
  });
});

describe("suite files away from their skill, on the reused base", () => {
  it("deleting or adding one that names its skill is a suite change, as reading the whole base finds", () => {
    const base = baseRepo(9);
    const head = { ...base };
    applyEdit(head, 3, "named-suite-delete");
    applyEdit(head, 5, "named-suite-add");
    applyEdit(head, 8, "named-suite-add");
    const [baseDir, headDir] = [write(base), write(head)];
    const changed = changedPaths(base, head);
    const h = discoverRepository(headDir, opts);
    const reused = discoverRepository(baseDir, { ...opts, reuse: { from: h, changedFiles: changed } });
    const full = discoverRepository(baseDir, opts);
    const changes = summary(h, reused, changed).filter((c) => c.change !== "unchanged");
    expect(changes.map((c) => `${c.name}:${c.change}`)).toEqual(["s3:suite", "s5:suite", "s8:suite"]);
    expect(summary(h, reused, changed)).toEqual(summary(h, full, changed));
    for (const d of [baseDir, headDir]) rmSync(d, { recursive: true, force: true });
  });
});

describe("skill file listing", () => {
  it("finds every SKILL.md once, dot folders included, under its real path; node_modules is skipped", () => {
    const dir = write({
      ".claude/skills/a/SKILL.md": skillMd("a", "A.", "x"),
      ".agents/skills/b/SKILL.md": skillMd("b", "B.", "x"),
      "skills/c/SKILL.md": skillMd("c", "C.", "x"),
      "skills/.hidden/SKILL.md": skillMd("hidden", "H.", "x"),
      "skills/no-skill/README.md": "not a skill",
      "skills/nested/deeper/SKILL.md": skillMd("deeper", "D.", "x"),
      "skills/node_modules/SKILL.md": skillMd("nm", "N.", "x"),
      "skills/file.md": "a file, not a folder",
      "elsewhere/linked/SKILL.md": skillMd("linked", "L.", "x"),
    });
    symlinkSync(join(dir, "elsewhere/linked"), join(dir, "skills/linked"));
    const found = discoverRepository(dir, opts);
    expect(found.files.source).toBe("walk");
    expect(found.skills.map((s) => s.path)).toEqual([
      ".agents/skills/b/SKILL.md",
      ".claude/skills/a/SKILL.md",
      "elsewhere/linked/SKILL.md",
      "skills/.hidden/SKILL.md",
      "skills/c/SKILL.md",
      "skills/nested/deeper/SKILL.md",
    ]);
    expect(found.diagnostics.filter((d) => d.code === "skill/duplicate-name")).toEqual([]);
    rmSync(dir, { recursive: true, force: true });
  });

  it("never installs a symbolic link out of the repository (it could point at a runner secret); one inside is its target (#27)", () => {
    const outside = write({ "secret.txt": "token" });
    const dir = write({
      "skills/a/SKILL.md": skillMd("a", "A.", "x"),
      "skills/a/ok.md": "ok",
      "docs/shared.md": "shared",
    });
    symlinkSync(join(outside, "secret.txt"), join(dir, "skills/a/leak.txt"));
    symlinkSync("../../docs/shared.md", join(dir, "skills/a/shared.md"));
    const found = discoverRepository(dir, opts);
    expect(found.skills[0]!.folder.files).toEqual(["SKILL.md", "ok.md", "shared.md"]);
    expect(found.diagnostics.map((d) => `${d.file} ${d.severity} ${d.code}`)).toEqual([
      "skills/a/leak.txt error skill/link-outside",
    ]);
    rmSync(dir, { recursive: true, force: true });
    rmSync(outside, { recursive: true, force: true });
  });
});
