import { describe, expect, it } from "vitest";
import type { Skill } from "../../src/model/index.js";
import { memoryTree } from "../../src/verdict/dependencies.js";
import { diffSuites, type WeakeningFinding } from "../../src/verdict/weakening.js";
import { assertion, caseOf, query, suite } from "./make-suite.js";

const F = ".agent/evals/split-cents/prompts/split.yaml";
const META = ".agent/evals/split-cents/meta.json";

const baseCase = () =>
  caseOf(
    "split",
    [
      assertion("mentions-total", "contains", { value: "1000" }, 5, F),
      assertion("D:no-lost-cent", "not-one-of", { values: [333, 334] }, 8, F),
      assertion("parts", "number-range", { range: [300, 400] }, 12, F),
      assertion("style", "one-of", { values: ["a"] }, 15, F),
    ],
    F,
  );

const loosened = (fs: WeakeningFinding[]) => fs.filter((f) => f.direction !== "tightened");
const tightened = (fs: WeakeningFinding[]) => fs.filter((f) => f.direction === "tightened");

describe("diffSuites", () => {
  it("finds nothing when the suite is unchanged, and only tightenings when it is tightened", () => {
    expect(diffSuites(suite([baseCase()]), suite([baseCase()]))).toEqual([]);
    const head = caseOf(
      "split",
      [
        assertion("mentions-total", "equals", { value: "1000" }, 5, F),
        assertion("D:no-lost-cent", "not-one-of", { values: [333, 334, 335] }, 8, F),
        assertion("parts", "number-range", { range: [320, 340] }, 12, F),
        assertion("style", "one-of", { values: [] }, 15, F),
        assertion("D:new", "contains", { value: "x" }, 18, F),
      ],
      F,
    );
    const f = diffSuites(suite([baseCase()]), suite([head]));
    expect(loosened(f)).toEqual([]);
    expect(tightened(f).map((x) => [x.kind, x.line])).toEqual([
      ["assertion-type-changed", 5],
      ["forbidden-values-added", 8],
      ["range-narrowed", 12],
      ["accepted-values-removed", 15],
      ["assertion-added", 18],
    ]);
  });

  it("flags a deleted discriminator on its case's head line and names the base line", () => {
    const head = caseOf(
      "split",
      baseCase().assertions.filter((a) => a.id !== "D:no-lost-cent"),
      F,
    );
    const f = diffSuites(suite([baseCase()]), suite([head]));
    expect(f).toEqual([
      {
        kind: "discriminator-removed",
        id: "suite-weakened/discriminator-removed/split/D:no-lost-cent",
        skill: "split-cents",
        message: `Discriminator "D:no-lost-cent" (not-one-of) of case "split" was removed (was ${F}:8 at base).`,
        file: F,
        line: 1,
        base: { file: F, line: 8 },
      },
    ]);
  });

  it("flags un-marking a discriminator, also by renaming D:x to x", () => {
    const flagged = caseOf(
      "split",
      [assertion("x", "contains", { value: "1", discriminator: true }, 5, F)],
      F,
    );
    const plain = caseOf("split", [assertion("x", "contains", { value: "1" }, 6, F)], F);
    expect(diffSuites(suite([flagged]), suite([plain])).map((f) => [f.kind, f.line])).toEqual([
      ["discriminator-unmarked", 6],
    ]);
    const renamed = caseOf(
      "split",
      [assertion("no-lost-cent", "not-one-of", { values: [333, 334] }, 9, F)],
      F,
    );
    const base = caseOf(
      "split",
      [assertion("D:no-lost-cent", "not-one-of", { values: [333, 334] }, 8, F)],
      F,
    );
    const f = diffSuites(suite([base]), suite([renamed]));
    expect(f.map((x) => [x.kind, x.line])).toEqual([["discriminator-unmarked", 9]]);
    expect(f[0]!.message).toMatch(/renamed "no-lost-cent"/);
    expect(f[0]!.base).toEqual({ file: F, line: 8 });
  });

  it("flags loosened values and ranges on the head line", () => {
    const head = caseOf(
      "split",
      [
        assertion("mentions-total", "contains", { value: "1000" }, 5, F),
        assertion("D:no-lost-cent", "not-one-of", { values: [334] }, 9, F),
        assertion("parts", "number-range", { range: { min: 300 } }, 13, F),
        assertion("style", "one-of", { values: ["a", "b"] }, 16, F),
      ],
      F,
    );
    const f = diffSuites(suite([baseCase()]), suite([head]));
    expect(f.map((x) => [x.kind, x.line])).toEqual([
      ["forbidden-values-removed", 9],
      ["range-widened", 13],
      ["accepted-values-added", 16],
    ]);
    expect(f[0]!.message).toMatch(/no longer forbids 333/);
    expect(f[1]!.message).toMatch(/\[300, 400\] to \[300, \+∞\]/);
  });

  it("treats narrowing a forbidden range as loosening, and flags loosening type changes and new conditions", () => {
    const base = caseOf(
      "c",
      [
        assertion("r", "not-number-range", { range: [0, 10] }, 3),
        assertion("t", "equals", { value: "1000" }, 4),
        assertion("k", "contains", { value: "x" }, 5),
      ],
      F,
    );
    const head = caseOf(
      "c",
      [
        assertion("r", "not-number-range", { range: [2, 10] }, 3),
        assertion("t", "contains", { value: "1000" }, 4),
        { ...assertion("k", "contains", { value: "x" }, 5), condition: "$strict" },
      ],
      F,
    );
    expect(diffSuites(suite([base]), suite([head])).map((x) => x.kind)).toEqual([
      "range-widened",
      "assertion-type-changed",
      "condition-added",
    ]);
  });

  it("flags a loosened value: a shorter regex, a trivially true contains, a shorter not-contains is tighter", () => {
    const base = caseOf(
      "c",
      [
        assertion("rx", "regex", { value: "334\\s*\\n\\s*333\\s*\\n\\s*333" }, 3),
        assertion("has", "contains", { value: "1000 cents" }, 4),
        assertion("lost", "not-contains", { value: "333" }, 5),
        assertion("more", "contains", { value: "1000" }, 6),
      ],
      F,
    );
    const head = caseOf(
      "c",
      [
        assertion("rx", "regex", { value: "334" }, 3),
        assertion("has", "contains", { value: "" }, 4),
        assertion("lost", "not-contains", { value: "33" }, 5),
        assertion("more", "contains", { value: "1000 cents" }, 6),
      ],
      F,
    );
    const f = diffSuites(suite([base]), suite([head]));
    expect(loosened(f).map((x) => x.id)).toEqual([
      "suite-weakened/assertion-changed/c/rx/value",
      "suite-weakened/assertion-changed/c/has/value",
    ]);
    expect(tightened(f).map((x) => x.id)).toEqual([
      "suite-tightened/assertion-changed/c/lost/value",
      "suite-tightened/assertion-changed/c/more/value",
    ]);
    expect(loosened(f)[0]!.base).toEqual({ file: F, line: 3 });
  });

  it("flags every other change of what a check decides: gate options, flags, dependencies, extract", () => {
    const base = caseOf(
      "c",
      [
        assertion(
          "g",
          "gate",
          { gate: "conservation", module: "src/split.ts", options: { mode: "count" } },
          3,
        ),
        assertion("rx", "regex", { value: "a", flags: "" }, 4),
        assertion("n", "one-of", { values: [1] }, 5),
        assertion("d", "contains", { value: "x" }, 6),
      ],
      F,
    );
    const head = caseOf(
      "c",
      [
        assertion(
          "g",
          "gate",
          { gate: "conservation", module: "src/split.ts", options: { mode: "weights" } },
          3,
        ),
        assertion("rx", "regex", { value: "a", flags: "i" }, 4),
        { ...assertion("n", "one-of", { values: [1] }, 5), extract: "last-line" },
        { ...assertion("d", "contains", { value: "x" }, 6), dependsOn: ["n"] },
      ],
      F,
    );
    expect(
      diffSuites(suite([base]), suite([head])).map((x) => [x.kind, x.id.split("/").slice(2).join("/")]),
    ).toEqual([
      ["assertion-changed", "c/g/options"],
      ["assertion-changed", "c/rx/flags"],
      ["assertion-changed", "c/n/extract"],
      ["dependency-added", "c/d"],
    ]);
  });

  it("flags a reworded case prompt, changed case vars and a changed oracle", () => {
    const base = suite([baseCase()]);
    base.meta.oracle = { command: "node oracle.mjs", loc: { file: META, line: 4, column: 3 } };
    const headCase = { ...baseCase(), prompt: "Split 9 cents among 3 people.", vars: { total: 9 } };
    const head = suite([headCase]);
    head.meta.oracle = { command: "node oracle2.mjs", loc: { file: META, line: 4, column: 3 } };
    expect(diffSuites(base, head).map((x) => x.kind)).toEqual([
      "case-changed",
      "vars-changed",
      "oracle-changed",
    ]);
  });

  it("flags an edited predicate or oracle script whose name stayed, through the tree readers", () => {
    const pred = (line: number) => assertion("p", "javascript", { module: "checks/p.mjs" }, line);
    const base = suite([caseOf("c", [pred(3)], F)]);
    const head = suite([caseOf("c", [pred(3)], F)]);
    base.meta.oracle = { command: "node oracle.mjs", loc: { file: META, line: 4, column: 3 } };
    head.meta.oracle = { command: "node oracle.mjs", loc: { file: META, line: 4, column: 3 } };
    const files = (p: string, o: string): Record<string, string> => ({
      ".agent/evals/split-cents/checks/p.mjs": p,
      ".agent/evals/split-cents/oracle.mjs": o,
    });
    const trees = (b: Record<string, string>, h: Record<string, string>) => ({
      base: memoryTree(b),
      head: memoryTree(h),
    });
    const same = files("export default () => false", "console.log('{}')");
    expect(diffSuites(base, head, undefined, undefined, trees(same, same))).toEqual([]);
    const edited = files("export default () => true", "console.log('{\"total\":999}')");
    expect(diffSuites(base, head, undefined, undefined, trees(same, edited)).map((x) => x.kind)).toEqual([
      "predicate-changed",
      "oracle-changed",
    ]);
  });

  it("a case file the skill owns in both arms is the skill's, not the suite's; one it does not own is a changed case", () => {
    const ref = ".claude/skills/split-cents/references/rules.md";
    const withFile = () => ({
      ...caseOf("c", [assertion("x", "contains", {}, 4, F)], F),
      files: [{ from: ref, to: "rules.md" }],
    });
    const trees = {
      base: memoryTree({ [ref]: "Floor, then hand out cents." }),
      head: memoryTree({ [ref]: "Round." }),
    };
    const skill = (files: string[]) =>
      ({ dir: ".claude/skills/split-cents", folder: { files, contentHash: "" } }) as unknown as Skill;
    const owned = skill(["SKILL.md", "references/rules.md"]);
    const diff = (s: Skill) =>
      diffSuites(suite([withFile()]), suite([withFile()]), s, s, trees).map((x) => x.id);
    expect(diff(owned)).toEqual([]);
    // Withheld (a case input SKILL.md never names): the suite's file, so an edit is a changed case.
    expect(diff(skill(["SKILL.md"]))).toEqual(["suite-weakened/case-changed/c/file/rules.md"]);
    // Owned at base only (the PR made the head withhold it): compared as a suite file.
    expect(
      diffSuites(suite([withFile()]), suite([withFile()]), owned, skill(["SKILL.md"]), trees),
    ).toHaveLength(1);
  });

  it("puts a removed case on its base line when its file survives, else on line 1 of the head meta.json", () => {
    const shared = ".agent/evals/split-cents/evals.json";
    const a = caseOf("a", [assertion("x", "contains", {}, 4, shared)], shared);
    const b = {
      ...caseOf("b", [assertion("y", "contains", {}, 9, shared)], shared),
      loc: { file: shared, line: 8, column: 1 },
    };
    const f1 = diffSuites(suite([a, b]), suite([a]));
    expect(f1.map((x) => [x.kind, x.file, x.line])).toEqual([["case-removed", shared, 8]]);
    expect(f1[0]!.message).toMatch(/line 8 at base/);

    const gone = caseOf("gone", [assertion("D:z", "contains", {}, 3)]);
    const f2 = diffSuites(suite([gone]), suite([]));
    expect(f2.map((x) => [x.kind, x.file, x.line])).toEqual([["case-removed", META, 1]]);
    expect(f2[0]!.message).toMatch(/prompts\/gone\.yaml:1 at base; that file is deleted at head/);
    expect(f2[0]!.message).toMatch(/discriminator\(s\) D:z/);
  });

  it("flags lowered or removed thresholds and fewer trials on the meta.json lines; a raised one is a tightening", () => {
    const base = suite([], {
      thresholds: { discriminatorPassRate: 0.8, triggerRecall: 0.9, triggerPrecision: 0.9 },
      trials: 5,
    });
    const head = suite([], { thresholds: { discriminatorPassRate: 0.6, triggerPrecision: 0.95 }, trials: 3 });
    const f = diffSuites(base, head);
    expect(loosened(f).map((x) => [x.kind, x.id, x.line])).toEqual([
      ["threshold-lowered", "suite-weakened/threshold-lowered/discriminatorPassRate", 5],
      ["threshold-lowered", "suite-weakened/threshold-lowered/triggerRecall", 1],
      ["trials-lowered", "suite-weakened/trials-lowered/trials", 3],
    ]);
    expect(tightened(f).map((x) => x.kind)).toEqual(["threshold-raised"]);
    expect(loosened(f)[1]!.message).toBe(
      `Threshold triggerRecall (0.9 at base) was removed (${META}:8 at base).`,
    );
  });

  it("flags removed trigger prompts, ignoring whitespace and case, and a prompt moved to the other side", () => {
    const base = suite([], {
      fire: [query("Split 1000 cents among 3", 3), query("divide a bill", 4)],
      noFire: [query("sum a list", 7)],
    });
    const head = suite([], { fire: [query("split  1000 cents among 3 ", 3)], noFire: [] });
    const f = diffSuites(base, head);
    expect(f.map((x) => [x.kind, x.id, x.line])).toEqual([
      ["trigger-prompt-removed", "suite-weakened/trigger-prompt-removed/shouldFire/1", 1],
      ["trigger-prompt-removed", "suite-weakened/trigger-prompt-removed/shouldNotFire/0", 1],
    ]);
    expect(f[0]!.message).toMatch(/"divide a bill" was removed from shouldFire/);
    // Moving a should-fire prompt that stopped firing to shouldNotFire is the same loosening, said as it is.
    const moved = suite([], {
      fire: [query("Split 1000 cents among 3", 3)],
      noFire: [query("divide a bill", 9)],
    });
    const m = diffSuites(
      suite([], { fire: [query("Split 1000 cents among 3", 3), query("divide a bill", 4)] }),
      moved,
    );
    expect(m.map((x) => [x.kind, x.line])).toEqual([["trigger-prompt-moved", 9]]);
  });

  it("reports a deleted suite on line 1 of the head SKILL.md", () => {
    const base = suite([baseCase()], { fire: [query("split cents", 3)] });
    const f = diffSuites(base, undefined, undefined, {
      path: ".claude/skills/split-cents/SKILL.md",
      name: "split-cents",
    } as never);
    expect(f).toEqual([
      {
        kind: "suite-removed",
        id: "suite-weakened/suite-removed/suite",
        skill: "split-cents",
        message:
          "The eval suite .agent/evals/split-cents was deleted at head (or moved where it is not found): 1 case(s), 4 assertion(s) (1 discriminator(s)) and 1 trigger prompt(s) are gone (annotated on line 1 of .claude/skills/split-cents/SKILL.md).",
        file: ".claude/skills/split-cents/SKILL.md",
        line: 1,
        base: { file: META, line: 1 },
      },
    ]);
  });
});
