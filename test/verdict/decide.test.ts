import { describe, expect, it } from "vitest";
import type { CheckResult } from "../../src/model/index.js";
import { DEFAULT_VERDICT_POLICY } from "../../src/settings/defaults.js";
import { combineVerdicts, decideSkillVerdict, type SkillVerdictInput } from "../../src/verdict/decide.js";
import { decideNewRoots } from "../../src/verdict/new-roots.js";
import { diffSuites } from "../../src/verdict/weakening.js";
import { check } from "../attribute/make-checks.js";
import { discriminator, trigger } from "./make-figures.js";
import { assertion, caseOf, query, suite } from "./make-suite.js";

const SKILL_MD = ".claude/skills/split-cents/SKILL.md";
const SUITE_FILE = ".agent/evals/split-cents/prompts/split.yaml";
const locs = {
  skillFile: SKILL_MD,
  descriptionLine: 3,
  metaFile: ".agent/evals/split-cents/meta.json",
  metaLine: 4,
};

function base(overrides: Partial<SkillVerdictInput> = {}): SkillVerdictInput {
  return {
    skill: "split-cents",
    roots: [],
    weakening: [],
    thresholds: {},
    contaminated: [],
    errors: [],
    validationErrors: [],
    policy: { ...DEFAULT_VERDICT_POLICY },
    locs,
    ...overrides,
  };
}

/** `n` trials of a case: trial-ok plus the given assertions, failing in the first `failed[id]` trials. */
function caseTrials(
  failed: Record<string, number>,
  n: number,
  mode: "skill" | "trigger" = "skill",
): CheckResult[] {
  const out: CheckResult[] = [];
  for (let t = 0; t < n; t++) {
    if (mode === "skill") out.push(check("split/trial-ok", "pass", { trial: t, line: 1 }));
    for (const [id, k] of Object.entries(failed)) {
      const line = { "split/mentions-total": 5, "split/D:no-lost-cent": 8 }[id] ?? 2;
      out.push(
        check(id, t < k ? "fail" : "pass", {
          trial: t,
          mode,
          line,
          dependsOn: mode === "skill" ? ["split/trial-ok"] : [],
        }),
      );
    }
  }
  return out;
}

describe("decideSkillVerdict: the PR that breaks a discriminator, drops a trigger keyword and deletes a discriminator", () => {
  async function scenario() {
    const head = [
      ...caseTrials({ "split/mentions-total": 3, "split/D:no-lost-cent": 10 }, 10),
      ...caseTrials({ "trigger/fire/0": 10 }, 10, "trigger"),
    ];
    const baseChecks = [
      ...caseTrials({ "split/mentions-total": 3, "split/D:no-lost-cent": 0 }, 10),
      ...caseTrials({ "trigger/fire/0": 0 }, 10, "trigger"),
    ];
    const decisions = await decideNewRoots(head, baseChecks, DEFAULT_VERDICT_POLICY);
    const baseSuite = suite(
      [
        caseOf(
          "split",
          [
            assertion("mentions-total", "contains", { value: "1000" }, 5, SUITE_FILE),
            assertion("D:no-lost-cent", "not-one-of", { values: [333] }, 8, SUITE_FILE),
            assertion("D:exact-parts", "equals", { value: "334,333,333" }, 11, SUITE_FILE),
          ],
          SUITE_FILE,
        ),
      ],
      { fire: [query("split 1000 cents between 3 people", 3)] },
    );
    const headSuite = suite(
      [
        caseOf(
          "split",
          [
            assertion("mentions-total", "contains", { value: "1000" }, 5, SUITE_FILE),
            assertion("D:no-lost-cent", "not-one-of", { values: [333] }, 8, SUITE_FILE),
          ],
          SUITE_FILE,
        ),
      ],
      { fire: [query("split 1000 cents between 3 people", 3)] },
    );
    const weakening = diffSuites(baseSuite, headSuite);
    return decideSkillVerdict(base({ roots: decisions, weakening }));
  }

  it("fails with new roots located in the edited skill and its suite; the root failing at base too is not new", async () => {
    const v = await scenario();
    expect(v.verdict).toBe("fail");
    expect(v.blockingRoots.map((r) => [r.id, r.kind, r.status, r.file, r.line])).toEqual([
      ["split/D:no-lost-cent", "assertion", "new", SUITE_FILE, 8],
      ["trigger/fire/0", "trigger", "new", SKILL_MD, 3],
      ["suite-weakened/discriminator-removed/split/D:exact-parts", "suite-weakened", "new", SUITE_FILE, 1],
    ]);
    const pre = v.roots.find((r) => r.id === "split/mentions-total")!;
    expect(pre).toMatchObject({
      status: "pre-existing",
      blocking: false,
      head: { failed: 3, trials: 10 },
      base: { failed: 3, trials: 10 },
    });
    expect(v.reasons[0]).toBe("2 new root failure(s)");
    expect(v.reasons).toContain("suite weakened in 1 place(s) in this PR");
    expect(v.blockingRoots[1]!.title).toBe(
      "New: Trigger query trigger/fire/0 does not fire (10/10 trials at head, 0/10 at base)",
    );
  });

  it("reproduces exactly from the same inputs", async () => {
    const a = await scenario();
    const b = await scenario();
    expect(JSON.parse(JSON.stringify(a))).toEqual(JSON.parse(JSON.stringify(b)));
  });
});

describe("decideSkillVerdict rules", () => {
  it("passes with nothing failing", () => {
    expect(decideSkillVerdict(base())).toEqual({
      verdict: "pass",
      roots: [],
      blockingRoots: [],
      newRoots: [],
      reasons: ["no failing roots"],
    });
  });

  it("accepts suite weakening under the override, and says so", () => {
    const weakening = [
      {
        kind: "assertion-removed" as const,
        id: "suite-weakened/assertion-removed/c/a",
        skill: "split-cents",
        message: "gone",
        file: SUITE_FILE,
        line: 4,
      },
    ];
    const blocked = decideSkillVerdict(base({ weakening }));
    expect(blocked.verdict).toBe("fail");
    const allowed = decideSkillVerdict(
      base({ weakening, override: { by: 'label "skillgate: allow-weakening"' } }),
    );
    expect(allowed.verdict).toBe("pass");
    expect(allowed.roots[0]).toMatchObject({ blocking: false, file: SUITE_FILE, line: 4 });
    expect(allowed.roots[0]!.message).toMatch(/Accepted by a maintainer's override \(label/);
    expect(allowed.reasons[0]).toMatch(/accepted by a maintainer's override/);
    // A tightening is reported, never blocking, with or without an override.
    const tightened = decideSkillVerdict(
      base({ weakening: [{ ...weakening[0]!, direction: "tightened" as const }] }),
    );
    expect(tightened.verdict).toBe("pass");
    expect(tightened.roots[0]).toMatchObject({
      blocking: false,
      title: "Suite tightened: assertion-removed",
    });
  });

  it("fails on thresholds from meta.json, located on the meta line, and fails closed when a battery did not run", () => {
    // Five cases, each passing its discriminator in 1 of 6 trials: confidently under 0.8, with no base to compare.
    const disc = discriminator(
      Array.from({ length: 5 }, () => [1, 6] as [number, number]),
      Array.from({ length: 5 }, () => [0, 6] as [number, number]),
    );
    const v = decideSkillVerdict(
      base({
        thresholds: { discriminatorPassRate: 0.8, discriminatorLift: 0.1, triggerRecall: 0.9 },
        discriminator: disc,
      }),
    );
    expect(v.verdict).toBe("fail");
    expect(v.blockingRoots.map((r) => [r.id, r.file, r.line])).toEqual([
      ["threshold/discriminatorPassRate", locs.metaFile, 4],
      ["threshold/triggerRecall", locs.metaFile, 4],
    ]);
    expect(v.blockingRoots[0]!.message).toMatch(
      /^discriminatorPassRate must be ≥ 0\.8; measured 0\.167 \[0\.000–0\.\d+\] over 5 cases\. Below it with 99\.\d+ % confidence, with no base to compare\.$/,
    );
    expect(v.blockingRoots[1]!.message).toMatch(/the trigger battery did not run/);
    // The lift (+0.167, under 0.1 by no figure) is no root.
    expect(v.roots.map((r) => r.id)).not.toContain("threshold/discriminatorLift");
  });

  it("checks trigger precision and recall, naming a proxy router", () => {
    const t = {
      ...trigger(
        [
          [0, 4],
          [0, 4],
          [0, 4],
          [4, 4],
        ],
        [[0, 4]],
      ),
      router: "lexical",
      proxy: true,
    };
    const v = decideSkillVerdict(
      base({ thresholds: { triggerPrecision: 0.8, triggerRecall: 0.8 }, trigger: t }),
    );
    expect(v.blockingRoots.map((r) => r.id)).toEqual(["threshold/triggerRecall"]);
    expect(v.blockingRoots[0]!.title).toBe(
      "Trigger recall (router: lexical, a proxy) 0.250 is below the threshold 0.8",
    );
  });

  it("blocks on contamination, lockstep lag and validation errors, each located", () => {
    const v = decideSkillVerdict(
      base({
        contaminated: [
          {
            caseId: "split",
            trial: 0,
            call: { name: "Read", input: { file_path: "/w/.claude/skills/split-cents/SKILL.md" }, turn: 1 },
          },
          { caseId: "split", trial: 2, call: { name: "Read", input: {}, turn: 0 } },
        ],
        lockstep: { message: "skill 1.3.0 but suite for 1.1.0", file: locs.metaFile, line: 2 },
        validationErrors: [
          {
            file: SKILL_MD,
            line: 2,
            column: 7,
            severity: "error",
            code: "skill/name-pattern",
            message: "bad name",
          },
          {
            file: SKILL_MD,
            line: 9,
            column: 1,
            severity: "warning",
            code: "skill/claude-code-key",
            message: "when_to_use",
          },
        ],
      }),
    );
    expect(v.verdict).toBe("fail");
    expect(v.blockingRoots.map((r) => [r.kind, r.file, r.line])).toEqual([
      ["contamination", SKILL_MD, 1],
      ["lockstep", locs.metaFile, 2],
      ["validation", SKILL_MD, 2],
    ]);
    expect(v.blockingRoots[0]!.message).toMatch(/trial\(s\) 0, 2 of case "split" reached the skill: Read/);
  });

  it("is error, not pass, when errors kept it from deciding; fail wins over error", () => {
    const e = decideSkillVerdict(base({ errors: ["agent rate-limited 3 times"] }));
    expect(e.verdict).toBe("error");
    expect(e.blockingRoots[0]).toMatchObject({ kind: "error", file: SKILL_MD, line: 1 });
    const f = decideSkillVerdict(
      base({ errors: ["x"], lockstep: { message: "lag", file: SKILL_MD, line: 4 } }),
    );
    expect(f.verdict).toBe("fail");
  });

  it("treats undecided and base-less roots per policy (undecided reported by default, base-less blocking)", async () => {
    const head = [check("split/a", "fail", { trial: 0 }), check("split/a", "pass", { trial: 1 })];
    const baseChecks = [check("split/a", "pass", { trial: 0 }), check("split/a", "pass", { trial: 1 })];
    const undecided = await decideNewRoots(head, baseChecks, DEFAULT_VERDICT_POLICY);
    expect(undecided[0]!.status).toBe("inconclusive");
    // A harmless PR must not fail for want of trials: reported, not blocking, unless the base says fail.
    const v = decideSkillVerdict(base({ roots: undecided }));
    expect(v.verdict).toBe("pass");
    expect(v.reasons[0]).toMatch(
      /undecided after confirmation trials \(not blocking; verdict\.inconclusive: fail/,
    );
    const strict = { ...DEFAULT_VERDICT_POLICY, inconclusive: "fail" as const };
    expect(decideSkillVerdict(base({ roots: undecided, policy: strict })).verdict).toBe("fail");

    const headOnly = await decideNewRoots(head, undefined, DEFAULT_VERDICT_POLICY);
    expect(decideSkillVerdict(base({ roots: headOnly })).verdict).toBe("fail");
    const report = { ...DEFAULT_VERDICT_POLICY, headOnly: "report" as const };
    expect(decideSkillVerdict(base({ roots: headOnly, policy: report })).verdict).toBe("pass");
  });

  it("makes an assertion that could not be evaluated an error, not a failure of the skill", async () => {
    const head = [check("split/gate", "error", { trial: 0 })];
    const d = await decideNewRoots(head, undefined, DEFAULT_VERDICT_POLICY);
    expect(decideSkillVerdict(base({ roots: d })).verdict).toBe("error");
  });
});

describe("combineVerdicts", () => {
  it("fails if any skill fails, errors on any error, passes otherwise", () => {
    expect(combineVerdicts(["pass", "error", "fail"], [])).toBe("fail");
    expect(combineVerdicts(["pass", "error"], [])).toBe("error");
    expect(combineVerdicts(["pass"], ["GitHub API 502"])).toBe("error");
    expect(combineVerdicts(["pass", "pass"], [])).toBe("pass");
    expect(combineVerdicts([], [])).toBe("pass");
  });
});
