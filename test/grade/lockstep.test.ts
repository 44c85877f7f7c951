import { describe, expect, it } from "vitest";
import { checkLockstep, revisionLag } from "../../src/grade/lockstep.js";
import type { Skill } from "../../src/model/skill.js";
import { mkSuite } from "./helpers.js";

function skill(version?: string): Skill {
  return {
    name: "split-cents",
    dir: ".claude/skills/split-cents",
    path: ".claude/skills/split-cents/SKILL.md",
    description: "d",
    ...(version ? { version } : {}),
    frontmatter: {},
    body: "",
    raw: "",
    layout: "agent-skills",
    folder: { files: [], contentHash: "h" },
    loc: {
      frontmatter: { file: ".claude/skills/split-cents/SKILL.md", line: 1, column: 1 },
      version: { file: ".claude/skills/split-cents/SKILL.md", line: 6, column: 12 },
    },
  };
}

function suite(meta: { skillVersion?: string; suiteVersion?: string }) {
  const s = mkSuite([]);
  return { ...s, meta: { ...s.meta, ...meta } };
}

describe("lockstep", () => {
  it("measures revision lag in the first differing component", () => {
    expect(revisionLag("1.4.0", "1.2.0")).toBe(2);
    expect(revisionLag("2.0.0", "1.9.3")).toBe(1);
    expect(revisionLag("3", "1.0")).toBe(2);
    expect(revisionLag("1.2", "1.2.0")).toBe(0);
    expect(revisionLag("beta", "1")).toBeUndefined();
  });

  it("reports a lag of more than one revision at the skill's version line", () => {
    const r = checkLockstep(skill("1.4.0"), suite({ skillVersion: "1.2.0", suiteVersion: "7" }));
    expect(r.status).toBe("lagging");
    expect(r.lag).toBe(2);
    expect(r.loc).toEqual({ file: ".claude/skills/split-cents/SKILL.md", line: 6, column: 12 });
    expect(r.message).toContain("skillVersion 1.2.0");
    expect(r.message).toContain("trails the skill by 2 revisions");
  });

  it("one revision is fine; suiteVersion is the fallback; missing versions are unknown, not ok", () => {
    expect(checkLockstep(skill("1.3.0"), suite({ skillVersion: "1.2.0" })).status).toBe("ok");
    expect(checkLockstep(skill("3"), suite({ suiteVersion: "1" })).status).toBe("lagging");
    expect(checkLockstep(skill("1"), suite({ suiteVersion: "4" })).message).toContain("ahead of the skill");
    expect(checkLockstep(skill(), suite({ skillVersion: "1" })).status).toBe("unknown");
    expect(checkLockstep(skill("1"), suite({})).status).toBe("unknown");
  });
});
