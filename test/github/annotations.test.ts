import { describe, expect, it } from "vitest";
import { batches, buildAnnotations } from "../../src/github/annotations.js";
import { buildCheckRunCompletion } from "../../src/github/check-run.js";
import { planCommandAnnotations } from "../../src/github/workflow-commands.js";
import { makeReport, makeRoot, makeSkill, manyRoots } from "./fixtures.js";

describe("buildAnnotations", () => {
  it("puts new roots first as failures, then other blocking roots and errors, then warnings", () => {
    const report = makeReport({
      skills: [
        makeSkill({
          roots: [
            makeRoot({ id: "pre", status: "pre-existing", blocking: false, line: 1 }),
            makeRoot({ id: "thr", kind: "threshold", status: "head-only", blocking: true, line: 2 }),
            makeRoot({ id: "new", line: 3 }),
          ],
        }),
      ],
      diagnostics: [
        { file: "x/SKILL.md", line: 4, column: 1, severity: "warning", message: "w", code: "skill/w" },
        { file: "x/SKILL.md", line: 5, column: 1, severity: "error", message: "e", code: "skill/e" },
      ],
    });
    const { annotations } = buildAnnotations(report);
    expect(annotations.map((a) => [a.start_line, a.annotation_level])).toEqual([
      [3, "failure"],
      [2, "failure"],
      [5, "failure"],
      [1, "warning"],
      [4, "warning"],
    ]);
    expect(annotations[0]!.title).toBe("skillgate · split-cents: D:no-lost-cent fails");
    expect(annotations[3]!.title).toBe("skillgate · split-cents (pre-existing): D:no-lost-cent fails");
    expect(annotations[0]!.message).toBe("expected the first part not to be 333; saw 333 in 4 of 5 trials");
    expect(annotations[0]!.raw_details).toBe(
      "head: failed 4 of 5 trials\nbase: failed 0 of 5 trials\np = 0.0040",
    );
  });

  it("pins a root without a file to its SKILL.md and clips titles to 255 characters", () => {
    const report = makeReport({
      skills: [makeSkill({ roots: [makeRoot({ file: "", title: "t".repeat(400) })] })],
    });
    const [a] = buildAnnotations(report).annotations;
    expect(a!.path).toBe(".claude/skills/split-cents/SKILL.md");
    expect(a!.title.length).toBe(255);
  });

  it("batches 120 annotations as 50 + 50 + 20 and the completion repeats title and summary", () => {
    expect(batches(manyRoots(120), 50).map((b) => b.length)).toEqual([50, 50, 20]);
    const c = buildCheckRunCompletion(makeReport({ skills: [makeSkill({ roots: manyRoots(120) })] }), {
      checkName: "skillgate",
      fullReportHint: "x",
    });
    expect(c.outputs.map((o) => o.annotations?.length)).toEqual([50, 50, 20]);
    expect(new Set(c.outputs.map((o) => o.title)).size).toBe(1);
    expect(c.conclusion).toBe("failure");
  });
});

describe("planCommandAnnotations", () => {
  it("shows at most 10 per level, most important first, and hands the rest on", () => {
    const report = makeReport({
      skills: [
        makeSkill({
          roots: [
            ...manyRoots(15),
            ...manyRoots(12).map((r) => ({
              ...r,
              id: `pre/${r.id}`,
              status: "pre-existing" as const,
              blocking: false,
            })),
          ],
        }),
      ],
    });
    const { annotations } = buildAnnotations(report, Number.POSITIVE_INFINITY);
    const { shown, rest } = planCommandAnnotations(annotations);
    expect(shown.filter((a) => a.level === "error")).toHaveLength(10);
    expect(shown.filter((a) => a.level === "warning")).toHaveLength(10);
    expect(shown[0]).toMatchObject({ level: "error", line: 1 });
    expect(rest).toHaveLength(7);
  });
});
