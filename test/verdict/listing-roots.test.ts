/**
 * Issue #40: the verdict stage gives a listing root (an edited description that pushes a sibling out of a
 * target's capped list) to the skill it points at, which then fails; the report stage only writes it down.
 */
import { describe, expect, it } from "vitest";
import type { Root } from "../../src/model/index.js";
import type { SkillVerdict } from "../../src/verdict/decide.js";
import { listingRootOwners, withListingRoots } from "../../src/verdict/listing-roots.js";

const root = (file: string, blocking = true): Root => ({
  id: `trigger/codex-catalogue/${file}`,
  kind: "trigger",
  skill: "a",
  status: "new",
  title: "Codex's skill list no longer holds b",
  message: "…",
  file,
  line: 3,
  column: 1,
  cascaded: ["b/SKILL.md"],
  blocking,
});
const passing = (): SkillVerdict => ({
  verdict: "pass",
  roots: [],
  blockingRoots: [],
  newRoots: [],
  reasons: ["all checks hold"],
});

describe("listing roots in the verdict stage", () => {
  it("a root goes to the first skill whose SKILL.md it points at; the others stay the repository's", () => {
    const r1 = root("a/SKILL.md");
    const r2 = root("gone/SKILL.md");
    const { owned, unowned } = listingRootOwners(["x/SKILL.md", "a/SKILL.md", "a/SKILL.md"], [r1, r2]);
    expect([...owned]).toEqual([[1, [r1]]]);
    expect(unowned).toEqual([r2]);
  });

  it("a blocking one fails the skill, with its reason first; the decided verdict is left as it was", () => {
    const decided = passing();
    const r = root("a/SKILL.md");
    const v = withListingRoots(decided, [r]);
    expect(v).toEqual({
      verdict: "fail",
      roots: [r],
      blockingRoots: [r],
      newRoots: [r],
      reasons: [
        "a target's capped skill list changed (blocking): Codex's skill list no longer holds b",
        "all checks hold",
      ],
    });
    expect(decided).toEqual(passing());
  });

  it("a non-blocking one is listed and does not fail the skill", () => {
    const r = root("a/SKILL.md", false);
    expect(withListingRoots(passing(), [r])).toMatchObject({
      verdict: "pass",
      roots: [r],
      blockingRoots: [],
    });
  });
});
