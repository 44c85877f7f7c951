import { describe, expect, it } from "vitest";
import { diffSuites } from "../../src/verdict/weakening.js";
import { assertion, caseOf, query, suite } from "./make-suite.js";

const F = ".agent/evals/split-cents/prompts/split.yaml";

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

describe("diffSuites", () => {
  it("finds nothing when the suite is unchanged or only tightened", () => {
    expect(diffSuites(suite([baseCase()]), suite([baseCase()]))).toEqual([]);
    const tightened = caseOf(
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
    expect(diffSuites(suite([baseCase()]), suite([tightened]), undefined, undefined)).toEqual([]);
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
    expect(f2.map((x) => [x.kind, x.file, x.line])).toEqual([
      ["case-removed", ".agent/evals/split-cents/meta.json", 1],
    ]);
    expect(f2[0]!.message).toMatch(/prompts\/gone\.yaml:1 at base; that file is deleted at head/);
    expect(f2[0]!.message).toMatch(/discriminator\(s\) D:z/);
  });

  it("flags lowered or removed thresholds and fewer trials on the meta.json lines", () => {
    const base = suite([], {
      thresholds: { discriminatorPassRate: 0.8, triggerRecall: 0.9, triggerPrecision: 0.9 },
      trials: 5,
    });
    const head = suite([], { thresholds: { discriminatorPassRate: 0.6, triggerPrecision: 0.95 }, trials: 3 });
    const f = diffSuites(base, head);
    expect(f.map((x) => [x.kind, x.id, x.line])).toEqual([
      ["threshold-lowered", "suite-weakened/threshold-lowered/discriminatorPassRate", 5],
      ["threshold-lowered", "suite-weakened/threshold-lowered/triggerRecall", 1],
      ["trials-lowered", "suite-weakened/trials-lowered/trials", 3],
    ]);
    expect(f[1]!.message).toBe("Threshold triggerRecall (0.9 at base) was removed.");
  });

  it("flags removed trigger prompts, ignoring whitespace and case", () => {
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
          "The eval suite .agent/evals/split-cents was deleted at head: 1 case(s), 4 assertion(s) (1 discriminator(s)) and 1 trigger prompt(s) are gone (annotated on line 1 of .claude/skills/split-cents/SKILL.md).",
        file: ".claude/skills/split-cents/SKILL.md",
        line: 1,
      },
    ]);
  });
});
