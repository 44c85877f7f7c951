import { describe, expect, it } from "vitest";
import { markFailures } from "../../src/harvest/analyse.js";
import { proposeForCase } from "../../src/harvest/propose.js";
import type { ToolCall, TrialMode } from "../../src/model/index.js";
import { mkCase, mkSuite, mkTrial } from "../grade/helpers.js";

const O = { minBaselineFailure: 0.3, minSkillPass: 0.8, minShare: 0.2, gateSeed: 1, repoDir: "." };
const calls = (...names: string[]): ToolCall[] => names.map((name, turn) => ({ name, input: {}, turn }));

function trials(spec: [TrialMode, string[], string][]) {
  return markFailures(
    spec.map(([mode, tools, output], i) => ({
      record: mkTrial({ mode, trial: i, output, toolCalls: calls(...tools) }),
      checks: [],
    })),
  );
}

describe("process traps from tool sequences", () => {
  it("proposes tool-not-called for a tool the baseline reaches for and the skill never calls, and tool-order for a reversed phase", async () => {
    const c = mkCase("c1", []);
    const ts = trials([
      ["baseline", ["Bash", "Write", "Read"], "done"],
      ["baseline", ["Bash", "Write", "Read"], "done"],
      ["baseline", ["Write", "Read"], "done"],
      ["baseline", ["Read", "Write"], "done"],
      ["skill", ["Read", "Write"], "done"],
      ["skill", ["Read", "Write"], "done"],
      ["skill", ["Skill", "Read", "Write"], "done"],
    ]);
    const { proposals } = await proposeForCase(c, mkSuite([c]), ts, ["tools"], "f.yaml", O);
    const byKind = Object.fromEntries(proposals.map((p) => [p.kind, p]));
    expect(byKind["tool-not-called"]!.assertion).toEqual({
      id: "D:no-bash",
      type: "tool-not-called",
      tool: "Bash",
    });
    expect(byKind["tool-not-called"]!.baselineFailure).toMatchObject({ passed: 2, total: 4 });
    expect(byKind["tool-not-called"]!.skillPass).toMatchObject({ passed: 3, total: 3 });
    // Read before Write: reversed in 3 of 4 baseline trials, kept in every skill trial (the Skill call is activation).
    expect(byKind["tool-order"]!.assertion).toEqual({
      id: "D:read-before-write",
      type: "tool-order",
      values: ["Read", "Write"],
    });
    expect(byKind["tool-order"]!.baselineFailure).toMatchObject({ passed: 3, total: 4 });
    expect(proposals.map((p) => p.kind)).not.toContain("not-one-of");
  });

  it("proposes nothing when the answers do not separate, and drops a proposal below the thresholds", async () => {
    const c = mkCase("c1", []);
    const same = trials([
      ["baseline", ["Read"], "42"],
      ["skill", ["Read"], "42"],
    ]);
    expect(
      (await proposeForCase(c, mkSuite([c]), same, ["first-number", "tools"], "f.yaml", O)).proposals,
    ).toEqual([]);
    // 1 wrong answer in 5 baseline trials: a 20 % habit, under the 30 % baseline failure asked for.
    const rare = trials([
      ["baseline", [], "333"],
      ["baseline", [], "334"],
      ["baseline", [], "334"],
      ["baseline", [], "334"],
      ["baseline", [], "334"],
      ["skill", [], "334"],
    ]);
    expect((await proposeForCase(c, mkSuite([c]), rare, ["first-number"], "f.yaml", O)).proposals).toEqual(
      [],
    );
    const lower = { ...O, minBaselineFailure: 0.2 };
    expect(
      (await proposeForCase(c, mkSuite([c]), rare, ["first-number"], "f.yaml", lower)).proposals.map(
        (p) => p.assertion,
      ),
    ).toEqual([{ id: "D:not-333", type: "not-one-of", extract: "first-number", values: [333] }]);
  });
});
